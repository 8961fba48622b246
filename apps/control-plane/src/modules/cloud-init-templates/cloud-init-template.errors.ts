import { AlreadyExistsError, FailedPreconditionError } from '@noderings/domain';

export function duplicateCloudInitTemplateName(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`The organization already has a cloud-init template named ${name}.`);
}

export function cloudInitTemplateStillLinked(vmTemplateNames: readonly string[]): FailedPreconditionError {
  return new FailedPreconditionError(
    `The cloud-init template is still used by the VM templates ${vmTemplateNames.join(', ')}: link them to another template or delete them first.`,
  );
}
