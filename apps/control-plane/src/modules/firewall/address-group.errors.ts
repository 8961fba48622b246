import { AlreadyExistsError } from '@noderings/domain';

export function addressGroupNameTaken(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`The organization already has an address group named ${name}.`);
}
