import { AlreadyExistsError } from '@noderings/domain';

export function duplicateCloudInitUserDataName(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`The organization already has cloud-init user data named ${name}.`);
}
