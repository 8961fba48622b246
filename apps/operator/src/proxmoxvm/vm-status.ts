import type { Condition, ConditionUpdate, ProxmoxVM, ProxmoxVMStatus } from '@noderings/kube';
import { removeCondition, setCondition } from '@noderings/kube';

import type { ReconcileFailure } from '../error-mapping.js';

export const PROVISIONED = 'Provisioned';
export const POWER_STATE_SYNCED = 'PowerStateSynced';
export const READY = 'Ready';
export const VMID_CONFLICT = 'VmidConflict';
export const CONFIG_PENDING = 'ConfigPending';

/** Applies condition updates (and optionally removals) against the object's generation. */
export function withConditions(
  vm: ProxmoxVM,
  updates: readonly ConditionUpdate[],
  remove: readonly string[] = [],
): Condition[] | undefined {
  const generation = vm.metadata?.generation;
  let conditions = vm.status?.conditions;
  for (const update of updates) conditions = setCondition(conditions, update, generation);
  for (const type of remove) conditions = removeCondition(conditions, type);
  return conditions;
}

/** The status recording a failed reconcile: terminal ones fail the VM, others only explain the wait. */
export function failedStatus(vm: ProxmoxVM, failure: ReconcileFailure, deleting: boolean): ProxmoxVMStatus {
  const status = vm.status ?? {};
  const updates: ConditionUpdate[] = [
    { type: READY, status: 'False', reason: failure.reason, message: failure.message },
  ];
  if (failure.reason === VMID_CONFLICT) {
    updates.push({ type: VMID_CONFLICT, status: 'True', reason: VMID_CONFLICT, message: failure.message });
  }
  const provisioned = status.conditions?.find((c) => c.type === PROVISIONED)?.status === 'True';
  if (!provisioned && !deleting) {
    updates.push({ type: PROVISIONED, status: 'False', reason: failure.reason, message: failure.message });
  }
  const phase = deleting ? 'Deleting' : failure.terminal ? 'Failed' : (status.phase ?? 'Pending');
  return {
    ...status,
    phase,
    message: failure.message,
    observedGeneration: vm.metadata?.generation,
    conditions: withConditions(vm, updates),
  };
}
