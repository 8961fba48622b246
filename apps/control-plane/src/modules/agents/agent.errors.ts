import { AlreadyExistsError, FailedPreconditionError, ResourceExhaustedError } from '@noderings/domain';

export function agentNameTaken(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`An agent named "${name}" already exists in this organization.`);
}

export function agentInUse(): FailedPreconditionError {
  return new FailedPreconditionError('The agent is still assigned to a platform: unassign it first.');
}

export function gatewayPortsExhausted(): ResourceExhaustedError {
  return new ResourceExhaustedError(
    'Every gateway service port has been assigned, so no agent can be created; contact NodeRings support.',
  );
}
