import { TerminalError } from '@noderings/kube';
import { ParameterError, ProxmoxError, TaskFailedError } from '@noderings/proxmox';

import { OperatorError } from './operator-error.js';
import type { OperatorErrorCode } from './operator-error.js';

/** How a failed reconcile is recorded: the condition reason, the message, and whether retrying helps. */
export interface ReconcileFailure {
  terminal: boolean;
  reason: string;
  message: string;
}

const OPERATOR_ERRORS: Record<OperatorErrorCode, { reason: string; terminal: boolean }> = {
  USAGE: { reason: 'InvalidOptions', terminal: true },
  INSTANCE_NOT_FOUND: { reason: 'InstanceNotFound', terminal: true },
  INSTANCE_INVALID: { reason: 'InstanceInvalid', terminal: true },
  CLOUD_INIT_SECRET_NOT_FOUND: { reason: 'CloudInitSecretNotFound', terminal: true },
  CLOUD_INIT_SECRET_INVALID: { reason: 'CloudInitSecretInvalid', terminal: true },
  NODE_NOT_FOUND: { reason: 'NodeNotFound', terminal: true },
  TEMPLATE_NOT_FOUND: { reason: 'TemplateNotFound', terminal: true },
  STORAGE_NOT_FOUND: { reason: 'StorageNotFound', terminal: true },
  NO_ISO_STORAGE: { reason: 'NoIsoStorage', terminal: true },
  VMID_OUT_OF_RANGE: { reason: 'VmidOutOfRange', terminal: true },
  VMID_CONFLICT: { reason: 'VmidConflict', terminal: true },
  GUEST_BUSY: { reason: 'GuestBusy', terminal: false },
};

/** Exit codes of the process: 1 for a runtime failure, 2 for bad usage. */
export function exitCodeOf(error: unknown): 1 | 2 {
  return error instanceof OperatorError && error.code === 'USAGE' ? 2 : 1;
}

/** The one place that turns any error into a condition reason and a retry decision. */
export function reconcileFailure(error: unknown): ReconcileFailure {
  if (error instanceof TerminalError) return { terminal: true, reason: error.reason, message: error.message };
  if (error instanceof OperatorError) return { ...OPERATOR_ERRORS[error.code], message: error.message };
  if (error instanceof ParameterError) {
    return { terminal: true, reason: 'ProxmoxRejectedSpec', message: error.pveMessage };
  }
  if (error instanceof TaskFailedError)
    return { terminal: false, reason: 'TaskFailed', message: error.pveMessage };
  if (error instanceof ProxmoxError)
    return { terminal: false, reason: proxmoxReason(error), message: error.pveMessage };
  return {
    terminal: false,
    reason: 'Error',
    message: error instanceof Error ? error.message : String(error),
  };
}

/** `PVE_VM_NOT_RUNNING` → `ProxmoxVmNotRunning`. */
function proxmoxReason(error: ProxmoxError): string {
  return `Proxmox${error.code
    .replace(/^PVE_/, '')
    .toLowerCase()
    .replace(/(^|_)([a-z])/g, (_m: string, _sep: string, c: string) => c.toUpperCase())}`;
}
