import type { Condition, ConditionUpdate } from '@noderings/kube';
import { TerminalError, findCondition } from '@noderings/kube';

/** The condition a resource carries while it waits for a Proxmox config lock on its guest. */
const WAITING_FOR_LOCK = 'WaitingForLock';

/** How long a lock of our own operations is waited for before the work fails. */
export const DEFAULT_LOCK_WAIT_MS = 30 * 60_000;

/**
 * The config locks the operator's own work takes on an NR guest (vzdump, snapshots, rollbacks, clone,
 * restore): each ends when its task ends, so meeting one is a wait, not a failure. Any other lock
 * (`migrate`, `suspended`, …) comes from someone else's work and may never go.
 */
const OWN_OPERATION_LOCKS: ReadonlySet<string> = new Set([
  'backup',
  'clone',
  'create',
  'rollback',
  'snapshot',
  'snapshot-delete',
]);

export interface LockWait {
  /** The WaitingForLock condition to record (True; its lastTransitionTime is when the wait began). */
  condition: ConditionUpdate;
  /** How long the wait may still last. */
  remainingMs: number;
}

/**
 * Decides what meeting `lock` on the guest means for `work` (e.g. "the backup"): a wait while it is
 * one of our own locks and the wait began less than `limitMs` ago, else a terminal error naming it.
 */
export function waitForLock(input: {
  lock: string;
  vmid: number;
  work: string;
  conditions: readonly Condition[] | undefined;
  now: Date;
  limitMs: number;
}): LockWait {
  const { lock, vmid, work, now, limitMs } = input;
  if (!OWN_OPERATION_LOCKS.has(lock)) {
    throw new TerminalError(
      'GuestLocked',
      `guest VMID ${vmid} is locked (${lock}) by work NodeRings did not start; ${work} was not started`,
    );
  }
  const waiting = findCondition(input.conditions, WAITING_FOR_LOCK);
  const since = waiting?.status === 'True' ? Date.parse(waiting.lastTransitionTime) : NaN;
  const waitedMs = Number.isNaN(since) ? 0 : now.getTime() - since;
  if (waitedMs >= limitMs) {
    throw new TerminalError(
      'LockTimeout',
      `guest VMID ${vmid} stayed locked (${lock}) for ${formatDuration(limitMs)}; ${work} was not started`,
    );
  }
  return {
    condition: {
      type: WAITING_FOR_LOCK,
      status: 'True',
      reason: 'GuestLocked',
      message: `guest VMID ${vmid} is locked (${lock}) by another operation of ours; ${work} waits for it, up to ${formatDuration(limitMs)}`,
    },
    remainingMs: limitMs - waitedMs,
  };
}

/** The WaitingForLock condition once the lock is gone; nothing when the work never waited. */
export function lockReleased(conditions: readonly Condition[] | undefined): ConditionUpdate[] {
  if (findCondition(conditions, WAITING_FOR_LOCK)?.status !== 'True') return [];
  return [
    { type: WAITING_FOR_LOCK, status: 'False', reason: 'LockReleased', message: 'the lock was released' },
  ];
}

function formatDuration(ms: number): string {
  const minutes = ms / 60_000;
  if (Number.isInteger(minutes)) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  const seconds = Math.round(ms / 1000);
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}
