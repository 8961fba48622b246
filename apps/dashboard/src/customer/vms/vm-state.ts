import type { ProvisioningState, VirtualMachine } from '../../api/api-resources.js';
import type { Tone } from '../../ui/status-badge.js';

export type PowerAction = 'start' | 'stop' | 'restart';

/**
 * A power action the customer asked for that the VM has not shown yet. The VM view carries only what
 * the agent reported, so the dashboard remembers what it asked for (and when) to know what to wait for.
 */
export interface PendingAction {
  readonly action: PowerAction | 'delete';
  readonly since: number;
}

/** How often a VM that is on its way somewhere is read again. */
export const VM_POLL_INTERVAL_MS = 2_500;
/** A reboot leaves the VM Running throughout; it is watched this long before it counts as done. */
export const RESTART_WATCH_MS = 10_000;
/** After this long without the expected state the dashboard stops waiting (the VM's own state stands). */
export const PENDING_ACTION_TIMEOUT_MS = 5 * 60_000;

const TRANSITIONAL: ReadonlySet<ProvisioningState> = new Set([
  'PENDING',
  'WAITING_FOR_AGENT',
  'PROVISIONING',
  'DELETING',
]);

const TARGET: Readonly<Record<PendingAction['action'], ProvisioningState>> = {
  start: 'RUNNING',
  stop: 'STOPPED',
  restart: 'RUNNING',
  delete: 'DELETED',
};

/** The hypervisor's power state each action ends in. */
const TARGET_POWER: Readonly<Record<PowerAction, VirtualMachine['powerState']>> = {
  start: 'POWER_STATE_RUNNING',
  stop: 'POWER_STATE_STOPPED',
  restart: 'POWER_STATE_RUNNING',
};

/** What the state helpers read of a VM; the power state only where a power line shows it. */
type VmStates = Pick<VirtualMachine, 'provisioningState'> & Partial<Pick<VirtualMachine, 'powerState'>>;

/**
 * Whether the pending action is over: shown by the VM (its state and, once the hypervisor has reported
 * any, its power state too, so the power line is never left stale), given up on, or overtaken by a
 * failure.
 */
function pendingActionDone(vm: VmStates, pending: PendingAction, now: number): boolean {
  const elapsed = now - pending.since;
  if (elapsed >= PENDING_ACTION_TIMEOUT_MS) return true;
  if (vm.provisioningState === 'FAILED' || vm.provisioningState === 'DELETED') return true;
  if (vm.provisioningState !== TARGET[pending.action]) return false;
  if (
    pending.action !== 'delete' &&
    vm.powerState !== undefined &&
    vm.powerState !== 'POWER_STATE_UNKNOWN' &&
    vm.powerState !== TARGET_POWER[pending.action]
  )
    return false;
  return pending.action !== 'restart' || elapsed >= RESTART_WATCH_MS;
}

/** Settled: nothing is on its way, so there is no reason to read the VM again soon. */
export function isVmSettled(vm: VmStates, pending: PendingAction | undefined, now: number): boolean {
  if (TRANSITIONAL.has(vm.provisioningState)) return false;
  return pending === undefined || pendingActionDone(vm, pending, now);
}

const STATE_LABELS: Readonly<Record<ProvisioningState, string>> = {
  PENDING: 'Pending',
  WAITING_FOR_AGENT: 'Waiting for the provider',
  PROVISIONING: 'Provisioning',
  RUNNING: 'Running',
  STOPPED: 'Stopped',
  FAILED: 'Failed',
  DELETING: 'Deleting',
  DELETED: 'Deleted',
};

const PENDING_LABELS: Readonly<Record<PendingAction['action'], string>> = {
  start: 'Starting',
  stop: 'Stopping',
  restart: 'Restarting',
  delete: 'Deleting',
};

/** The VM's state in words: what the customer asked for while it is on its way, else what it is. */
export function vmStatusLabel(vm: VmStates, pending: PendingAction | undefined, now: number): string {
  if (pending !== undefined && !pendingActionDone(vm, pending, now)) return PENDING_LABELS[pending.action];
  return STATE_LABELS[vm.provisioningState];
}

export function vmStatusTone(vm: Pick<VirtualMachine, 'provisioningState'>, busy: boolean): Tone {
  if (busy || TRANSITIONAL.has(vm.provisioningState)) return 'busy';
  if (vm.provisioningState === 'RUNNING') return 'good';
  if (vm.provisioningState === 'FAILED') return 'bad';
  return 'neutral';
}

/** Which power buttons make sense now; none while an action or a provisioning is under way. */
export function availablePowerActions(
  vm: VmStates,
  pending: PendingAction | undefined,
  now: number,
): Readonly<Record<PowerAction, boolean>> {
  const busy = !isVmSettled(vm, pending, now);
  return {
    start: !busy && vm.provisioningState === 'STOPPED',
    stop: !busy && vm.provisioningState === 'RUNNING',
    restart: !busy && vm.provisioningState === 'RUNNING',
  };
}

export function powerStateLabel(powerState: VirtualMachine['powerState']): string {
  if (powerState === 'POWER_STATE_RUNNING') return 'Running';
  if (powerState === 'POWER_STATE_STOPPED') return 'Stopped';
  return 'Not reported yet';
}
