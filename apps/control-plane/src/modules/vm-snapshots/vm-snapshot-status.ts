import type { SnapshotRecord } from './vm-snapshot.repository.js';

export const SNAPSHOT_STATUSES = [
  'SNAPSHOT_STATUS_ACTIVE',
  'SNAPSHOT_STATUS_DELETED',
  'SNAPSHOT_STATUS_EXPIRED',
  'SNAPSHOT_STATUS_UNKNOWN',
] as const;
export type SnapshotStatus = (typeof SNAPSHOT_STATUSES)[number];

export const SNAPSHOT_OPERATION_STATUSES = [
  'SNAPSHOT_OPERATION_STATUS_PENDING',
  'SNAPSHOT_OPERATION_STATUS_PROCESSING',
  'SNAPSHOT_OPERATION_STATUS_COMPLETED',
  'SNAPSHOT_OPERATION_STATUS_FAILED',
] as const;
type SnapshotOperationStatus = (typeof SNAPSHOT_OPERATION_STATUSES)[number];

export const RESTORE_STATUSES = [
  'RESTORE_STATUS_NONE',
  'RESTORE_STATUS_REQUESTED',
  'RESTORE_STATUS_RESTORING',
  'RESTORE_STATUS_COMPLETED',
  'RESTORE_STATUS_FAILED',
] as const;
type RestoreStatus = (typeof RESTORE_STATUSES)[number];

/** The operator's VMSnapshot phases while it works on Proxmox. */
const BUSY_PHASES = new Set(['Creating', 'RollingBack', 'Deleting']);

/** DELETED once finished, UNKNOWN while the operator reports it failed (it may be missing), else ACTIVE. */
export function snapshotStatus(s: SnapshotRecord): SnapshotStatus {
  if (s.deletedAt !== null) return 'SNAPSHOT_STATUS_DELETED';
  return s.observedPhase === 'Failed' ? 'SNAPSHOT_STATUS_UNKNOWN' : 'SNAPSHOT_STATUS_ACTIVE';
}

/** Whether the latest wish (creation, rollback or deletion) is done, in progress or failed. */
export function snapshotOperationStatus(s: SnapshotRecord): SnapshotOperationStatus {
  if (s.deletedAt !== null) return 'SNAPSHOT_OPERATION_STATUS_COMPLETED';
  if (s.observedPhase === 'Failed') return 'SNAPSHOT_OPERATION_STATUS_FAILED';
  if (s.desiredState === 'ABSENT' || BUSY_PHASES.has(s.observedPhase))
    return 'SNAPSHOT_OPERATION_STATUS_PROCESSING';
  if (s.observedPhase === 'Ready' && restoreStatus(s) !== 'RESTORE_STATUS_REQUESTED')
    return 'SNAPSHOT_OPERATION_STATUS_COMPLETED';
  return 'SNAPSHOT_OPERATION_STATUS_PENDING';
}

/** The latest rollback: served once the operator's last rollback is at least as new as the request. */
export function restoreStatus(s: SnapshotRecord): RestoreStatus {
  const requested = s.rollbackRequestedAt;
  if (requested === null) return 'RESTORE_STATUS_NONE';
  const served = s.observedLastRollbackAt;
  if (served !== null && served.getTime() >= requested.getTime()) return 'RESTORE_STATUS_COMPLETED';
  if (s.observedPhase === 'Failed') return 'RESTORE_STATUS_FAILED';
  if (s.observedPhase === 'RollingBack') return 'RESTORE_STATUS_RESTORING';
  return 'RESTORE_STATUS_REQUESTED';
}
