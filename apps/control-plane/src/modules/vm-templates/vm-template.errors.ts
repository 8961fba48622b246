import { AlreadyExistsError, FailedPreconditionError, NotFoundError, type Distro } from '@noderings/domain';

export function distroTemplateTaken(nodeName: string, distro: Distro): AlreadyExistsError {
  return new AlreadyExistsError(`Node ${nodeName} already has a template for ${distro}.`);
}

export function vmidTemplateTaken(nodeName: string, templateVmid: number): AlreadyExistsError {
  return new AlreadyExistsError(`Node ${nodeName} already has a template with VMID ${templateVmid}.`);
}

/** The node or cloud-init template was deleted since it was checked. */
export function vmTemplateReferenceGone(): NotFoundError {
  return new NotFoundError('The node or the cloud-init template of the VM template was not found.');
}

export function vmTemplateInUse(): FailedPreconditionError {
  return new FailedPreconditionError('The VM template is still in use: remove what uses it first.');
}
