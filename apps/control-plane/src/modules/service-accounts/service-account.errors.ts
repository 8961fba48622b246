import { AlreadyExistsError } from '@noderings/domain';

export function serviceAccountNameTaken(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`The organization already has a service account named "${name}".`);
}
