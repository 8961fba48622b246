import { AlreadyExistsError } from '@noderings/domain';

export function duplicatePlanCode(code: string): AlreadyExistsError {
  return new AlreadyExistsError(`Your organisation already has a plan ${code}.`);
}
