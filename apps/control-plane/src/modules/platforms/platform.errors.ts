import { AlreadyExistsError, FailedPreconditionError } from '@noderings/domain';

export function platformEndpointTaken(endpointUrl: string): AlreadyExistsError {
  return new AlreadyExistsError(`The endpoint ${endpointUrl} is already registered in this organization.`);
}

export function platformInUse(): FailedPreconditionError {
  return new FailedPreconditionError('The platform still has nodes: delete them first.');
}
