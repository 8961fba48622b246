import { AlreadyExistsError } from '@noderings/domain';

export function duplicateNetworkName(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`The organization already has a network named ${name.trim()}.`, [
    { field: 'name', description: 'is already taken by another network' },
  ]);
}
