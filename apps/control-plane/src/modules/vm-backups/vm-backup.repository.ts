import { sql, type ExpressionBuilder, type Selectable } from 'kysely';

import { newGeneration } from '../../db/new-generation.js';
import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { BackupRemoval, Database, VmBackupTable, VmDesiredState } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { BackupStatus } from './vm-backup-status.js';

export interface BackupRecord {
  readonly id: string;
  readonly vmId: string;
  /** The VMBackup's name in the agent cluster: `nr-{vmId}-{UTC slot}`. */
  readonly objectName: string;
  /** The backup addon whose policy scheduled it; null when no policy was on at the time. */
  readonly addonId: string | null;
  readonly desiredState: VmDesiredState;
  readonly restoreRequestedAt: Date | null;
  readonly restoreStart: boolean;
  readonly dispatchError: string;
  /** The VMBackup's phase as the operator reports it: `Pending`, `Running`, `Completed`, `Failed`. */
  readonly observedPhase: string;
  readonly observedMessage: string;
  readonly volid: string;
  readonly sizeBytes: number;
  readonly finishedAt: Date | null;
  readonly observedRestorePhase: string;
  readonly observedRestoreRequestedAt: Date | null;
  readonly observedRestoreMessage: string;
  readonly restoredAt: Date | null;
  readonly removal: BackupRemoval | null;
  readonly createdAt: Date;
}

function toRecord(r: Selectable<VmBackupTable>): BackupRecord {
  return {
    id: r.id,
    vmId: r.vm_id,
    objectName: r.object_name,
    addonId: r.addon_id,
    desiredState: r.desired_state,
    restoreRequestedAt: r.restore_requested_at,
    restoreStart: r.restore_start,
    dispatchError: r.dispatch_error,
    observedPhase: r.observed_phase,
    observedMessage: r.observed_message,
    volid: r.observed_volid,
    sizeBytes: Number(r.observed_size_bytes),
    finishedAt: r.observed_finished_at,
    observedRestorePhase: r.observed_restore_phase,
    observedRestoreRequestedAt: r.observed_restore_requested_at,
    observedRestoreMessage: r.observed_restore_message,
    restoredAt: r.restored_at,
    removal: r.removal,
    createdAt: r.created_at,
  };
}

/** The same rule as `backupStatus`, for filtering in the database. */
function hasStatus(eb: ExpressionBuilder<Database, 'vm_backups'>, status: BackupStatus) {
  switch (status) {
    case 'BACKUP_STATUS_DELETED':
      return eb('removal', '=', 'DELETED');
    case 'BACKUP_STATUS_EXPIRED':
      return eb('removal', '=', 'EXPIRED');
    case 'BACKUP_STATUS_UNKNOWN':
      return eb.and([eb('removal', 'is', null), eb('observed_phase', '=', 'Failed')]);
    case 'BACKUP_STATUS_ACTIVE':
      return eb.and([eb('removal', 'is', null), eb('observed_phase', '<>', 'Failed')]);
  }
}

/** Every query is scoped to the customer who owns the VM: another tenant's backup is simply not found. */
export class VmBackupRepository {
  constructor(private readonly db: Db) {}

  list(
    clientOrganizationId: string,
    vmId: string,
    status: BackupStatus | undefined,
    page: Page,
  ): Promise<PageResult<BackupRecord>> {
    let query = this.db
      .selectFrom('vm_backups')
      .selectAll()
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId);
    if (status !== undefined) query = query.where((eb) => hasStatus(eb, status));
    return listPage(query.orderBy('created_at', 'desc').orderBy('id'), page, (rows) => rows.map(toRecord));
  }

  async find(clientOrganizationId: string, vmId: string, id: string): Promise<BackupRecord | undefined> {
    const row = await this.db
      .selectFrom('vm_backups')
      .selectAll()
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Its deletion is wanted now, as a new generation; false when it was not wanted and live. */
  async withdraw(clientOrganizationId: string, vmId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('vm_backups')
      .set({
        desired_state: 'ABSENT',
        ...newGeneration(),
      })
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId)
      .where('id', '=', id)
      .where('desired_state', '=', 'PRESENT')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A restore request newer than any before (the database's clock), as a new generation. */
  async requestRestore(
    clientOrganizationId: string,
    vmId: string,
    id: string,
    start: boolean,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('vm_backups')
      .set({
        restore_requested_at: sql<Date>`date_trunc('milliseconds', now())`,
        restore_start: start,
        ...newGeneration(),
      })
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId)
      .where('id', '=', id)
      .where('desired_state', '=', 'PRESENT')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
