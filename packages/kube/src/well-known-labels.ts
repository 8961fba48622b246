// Label names the control plane, the operator and the provider's setup read on each other's objects.
// They are part of the wire contract: renaming one strands every object already labelled.

/**
 * On every object the control plane orders for a VM (ProxmoxVM, its cloud-init Secret, VNCRequest,
 * VMSnapshot): the control plane's VM id. The control plane's informers select by it, and its orphan
 * sweep maps a Secret back to its VM with it.
 */
export const VM_ID_LABEL = 'vm.noderings.com/vm-id';

/**
 * `"true"` on the VMBackups the operator makes on a ProxmoxVM's `spec.backupPolicy.schedule`: the only
 * ones it prunes beyond the policy's retention, and the ones the control plane takes in and bills to the
 * VM's backup addon.
 */
export const SCHEDULED_BACKUP_LABEL = 'vm.noderings.com/scheduled';

/** On scheduled VMBackups: the name of the ProxmoxVM whose schedule made them. */
export const VM_REF_LABEL = 'vm.noderings.com/vm-ref';

/**
 * On the Proxmox credentials Secrets in the operator's namespace: the instance id a ProxmoxVM's
 * `spec.instance` names.
 */
export const PROXMOX_INSTANCE_LABEL = 'vm.noderings.com/proxmox-instance';
