import type { BackupRecord } from './vm-backup.repository.js';

export const BACKUP_STATUSES = [
  'BACKUP_STATUS_ACTIVE',
  'BACKUP_STATUS_DELETED',
  'BACKUP_STATUS_EXPIRED',
  'BACKUP_STATUS_UNKNOWN',
] as const;
export type BackupStatus = (typeof BACKUP_STATUSES)[number];

export const BACKUP_OPERATION_STATUSES = [
  'BACKUP_OPERATION_STATUS_PENDING',
  'BACKUP_OPERATION_STATUS_PROCESSING',
  'BACKUP_OPERATION_STATUS_COMPLETED',
  'BACKUP_OPERATION_STATUS_FAILED',
] as const;
type BackupOperationStatus = (typeof BACKUP_OPERATION_STATUSES)[number];

export const RESTORE_STATUSES = [
  'RESTORE_STATUS_NONE',
  'RESTORE_STATUS_REQUESTED',
  'RESTORE_STATUS_RESTORING',
  'RESTORE_STATUS_COMPLETED',
  'RESTORE_STATUS_FAILED',
] as const;
type RestoreStatus = (typeof RESTORE_STATUSES)[number];

/**
 * DELETED when the customer deleted it (or its VM), EXPIRED when the schedule's retention pruned it,
 * UNKNOWN while the operator reports it failed, else ACTIVE.
 */
export function backupStatus(b: BackupRecord): BackupStatus {
  if (b.removal === 'DELETED') return 'BACKUP_STATUS_DELETED';
  if (b.removal === 'EXPIRED') return 'BACKUP_STATUS_EXPIRED';
  return b.observedPhase === 'Failed' ? 'BACKUP_STATUS_UNKNOWN' : 'BACKUP_STATUS_ACTIVE';
}

/** The backup run itself, or the deletion asked for. */
export function backupOperationStatus(b: BackupRecord): BackupOperationStatus {
  if (b.removal !== null) return 'BACKUP_OPERATION_STATUS_COMPLETED';
  if (b.observedPhase === 'Failed') return 'BACKUP_OPERATION_STATUS_FAILED';
  if (b.desiredState === 'ABSENT' || b.observedPhase === 'Running')
    return 'BACKUP_OPERATION_STATUS_PROCESSING';
  return b.observedPhase === 'Completed'
    ? 'BACKUP_OPERATION_STATUS_COMPLETED'
    : 'BACKUP_OPERATION_STATUS_PENDING';
}

/** The latest restore request, by what the operator reports of that very request. */
export function backupRestoreStatus(b: BackupRecord): RestoreStatus {
  const requested = b.restoreRequestedAt;
  if (requested === null) return 'RESTORE_STATUS_NONE';
  const served = b.observedRestoreRequestedAt;
  if (served?.getTime() !== requested.getTime()) return 'RESTORE_STATUS_REQUESTED';
  switch (b.observedRestorePhase) {
    case 'Completed':
      return 'RESTORE_STATUS_COMPLETED';
    case 'Failed':
      return 'RESTORE_STATUS_FAILED';
    case 'Running':
    case 'Pending':
      return 'RESTORE_STATUS_RESTORING';
    default:
      return 'RESTORE_STATUS_REQUESTED';
  }
}
