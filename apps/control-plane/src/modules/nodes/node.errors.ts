import { AlreadyExistsError, FailedPreconditionError } from '@noderings/domain';

export function duplicateNodeName(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`The platform already has a node named ${name}.`);
}

export function nodeInUse(): FailedPreconditionError {
  return new FailedPreconditionError(
    'The node still has VM templates registered on it or plans placing VMs on it: delete those templates and take the node out of those plans first.',
  );
}
