import type { VmPowerState } from '../../db/schema.js';
import type { VirtualMachineRecord } from './virtual-machine.repository.js';

export interface PowerReport {
  readonly state: VmPowerState;
  readonly at: Date;
}

/**
 * The hypervisor's latest word on the guest's power. Two sources report it: the operator, which reads
 * Proxmox on every reconcile and right after each power task (the status it writes is recorded with the
 * time it was seen), and the metrics the agent forwards every 30 s. The newer wins, so a Stop shows as
 * soon as the operator has done it, not at the next scrape; and a later scrape still moves the time on.
 */
export function latestPowerReport(
  vm: Pick<
    VirtualMachineRecord,
    'observedPowerState' | 'observedAt' | 'reportedPowerState' | 'reportedPowerStateAt'
  >,
): PowerReport | undefined {
  const observed =
    vm.observedAt !== undefined && isPowerState(vm.observedPowerState)
      ? { state: vm.observedPowerState, at: vm.observedAt }
      : undefined;
  const reported =
    vm.reportedPowerState !== undefined && vm.reportedPowerStateAt !== undefined
      ? { state: vm.reportedPowerState, at: vm.reportedPowerStateAt }
      : undefined;
  if (observed === undefined) return reported;
  if (reported === undefined) return observed;
  return observed.at.getTime() > reported.at.getTime() ? observed : reported;
}

function isPowerState(value: string): value is VmPowerState {
  return value === 'Running' || value === 'Stopped';
}
