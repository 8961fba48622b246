import type { Condition, ConditionUpdate, VMBackup, VMBackupStatus } from '@noderings/kube';
import { setCondition } from '@noderings/kube';
import type { TaskFailedError } from '@noderings/proxmox';

import type { ReconcileFailure } from '../error-mapping.js';

/** True once the archive exists. */
export const READY = 'Ready';
/** The outcome of the latest restore request. */
export const RESTORED = 'Restored';

const LOG_ERROR_PREFIX = 'ERROR: ';

export function withConditions(
  backup: VMBackup,
  updates: readonly ConditionUpdate[],
  now?: Date,
): Condition[] | undefined {
  let conditions = backup.status?.conditions;
  for (const update of updates)
    conditions = setCondition(conditions, update, backup.metadata?.generation, now);
  return conditions;
}

/** A failed backup step: terminal ones fail the backup, others only explain the wait. */
export function backupFailedStatus(backup: VMBackup, failure: ReconcileFailure): VMBackupStatus {
  const status = backup.status ?? {};
  return {
    ...status,
    phase: failure.terminal ? 'Failed' : (status.phase ?? 'Pending'),
    taskRef: failure.terminal ? undefined : status.taskRef,
    message: failure.message,
    observedGeneration: backup.metadata?.generation,
    conditions: withConditions(backup, [
      { type: READY, status: 'False', reason: failure.reason, message: failure.message },
    ]),
  };
}

/** A failed restore step, recorded against the request it belongs to. */
export function restoreFailedStatus(
  backup: VMBackup,
  failure: ReconcileFailure,
  requestedAt: string,
): VMBackupStatus {
  const status = backup.status ?? {};
  return {
    ...status,
    taskRef: failure.terminal ? undefined : status.taskRef,
    restore: {
      phase: failure.terminal ? 'Failed' : (status.restore?.phase ?? 'Pending'),
      requestedAt,
      message: failure.message,
    },
    conditions: withConditions(backup, [
      { type: RESTORED, status: 'False', reason: failure.reason, message: failure.message },
    ]),
  };
}

/**
 * Proxmox's exit status plus the reason vzdump logged: a failed job only says `job errors`, the
 * per-VM cause is on the task's last `ERROR:` line.
 */
export function taskFailureMessage(error: TaskFailedError): string {
  const reasons = error.logTail.filter((line) => line.startsWith(LOG_ERROR_PREFIX));
  const last = reasons.at(-1)?.slice(LOG_ERROR_PREFIX.length);
  return last === undefined ? error.exitstatus : `${error.exitstatus}: ${last}`;
}

/** Status as the API server stores it: absent rather than undefined, so unchanged compares equal. */
export function stripUndefined(status: VMBackupStatus): VMBackupStatus {
  return Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined));
}

/** Whether the RFC 3339 time `requested` is later than `done` (or nothing was done yet). */
export function isNewer(requested: string | undefined, done: string | undefined): boolean {
  if (requested === undefined) return false;
  if (done === undefined) return true;
  return Date.parse(requested) > Date.parse(done);
}
