import { sql, type ExpressionBuilder, type Selectable } from 'kysely';

import { newGeneration } from '../../db/new-generation.js';
import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Database, VmDesiredState, VmSnapshotTable } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { SnapshotStatus } from './vm-snapshot-status.js';

export interface SnapshotRecord {
  readonly id: string;
  readonly vmId: string;
  readonly objectName: string;
  readonly snapshotName: string;
  readonly description: string;
  readonly desiredState: VmDesiredState;
  readonly rollbackRequestedAt: Date | null;
  readonly generation: number;
  readonly dispatchedGeneration: number;
  readonly dispatchError: string;
  /** The VMSnapshot's phase as the operator reports it; '' before it did. */
  readonly observedPhase: string;
  readonly observedMessage: string;
  readonly observedLastRollbackAt: Date | null;
  readonly createdAt: Date;
  readonly deletedAt: Date | null;
}

export interface NewSnapshot {
  readonly id: string;
  readonly objectName: string;
  readonly snapshotName: string;
  readonly description: string;
}

/** How a snapshot's creation went in the database: the VM row decides, under its lock. */
export type SnapshotInsert = 'inserted' | 'vm-not-found' | 'vm-deleting' | 'limit-reached';

function toRecord(r: Selectable<VmSnapshotTable>): SnapshotRecord {
  return {
    id: r.id,
    vmId: r.vm_id,
    objectName: r.object_name,
    snapshotName: r.snapshot_name,
    description: r.description,
    desiredState: r.desired_state,
    rollbackRequestedAt: r.rollback_requested_at,
    generation: r.generation,
    dispatchedGeneration: r.dispatched_generation,
    dispatchError: r.dispatch_error,
    observedPhase: r.observed_phase,
    observedMessage: r.observed_message,
    observedLastRollbackAt: r.observed_last_rollback_at,
    createdAt: r.created_at,
    deletedAt: r.deleted_at,
  };
}

/** The same rule as `snapshotStatus`, for filtering in the database. */
function hasStatus(eb: ExpressionBuilder<Database, 'vm_snapshots'>, status: SnapshotStatus) {
  switch (status) {
    case 'SNAPSHOT_STATUS_DELETED':
      return eb('deleted_at', 'is not', null);
    case 'SNAPSHOT_STATUS_UNKNOWN':
      return eb.and([eb('deleted_at', 'is', null), eb('observed_phase', '=', 'Failed')]);
    case 'SNAPSHOT_STATUS_ACTIVE':
      return eb.and([eb('deleted_at', 'is', null), eb('observed_phase', '<>', 'Failed')]);
    case 'SNAPSHOT_STATUS_EXPIRED':
      return sql<boolean>`false`;
  }
}

/** Every query is scoped to the customer who owns the VM: another tenant's snapshot is simply not found. */
export class VmSnapshotRepository {
  constructor(private readonly db: Db) {}

  list(
    clientOrganizationId: string,
    vmId: string,
    status: SnapshotStatus | undefined,
    page: Page,
  ): Promise<PageResult<SnapshotRecord>> {
    let query = this.db
      .selectFrom('vm_snapshots')
      .selectAll()
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId);
    if (status !== undefined) query = query.where((eb) => hasStatus(eb, status));
    return listPage(query.orderBy('created_at', 'desc').orderBy('id'), page, (rows) => rows.map(toRecord));
  }

  async find(clientOrganizationId: string, vmId: string, id: string): Promise<SnapshotRecord | undefined> {
    const row = await this.db
      .selectFrom('vm_snapshots')
      .selectAll()
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /**
   * Adds a snapshot of a VM the customer owns and does not delete, unless it already has `maxLive`; the
   * VM's row is locked meanwhile, so concurrent creates count each other.
   */
  insert(
    clientOrganizationId: string,
    vmId: string,
    snapshot: NewSnapshot,
    maxLive: number,
  ): Promise<SnapshotInsert> {
    return this.db.transaction().execute(async (tx) => {
      const vm = await tx
        .selectFrom('virtual_machines')
        .select(['agent_id', 'desired_state'])
        .where('id', '=', vmId)
        .where('client_organization_id', '=', clientOrganizationId)
        .forUpdate()
        .executeTakeFirst();
      if (vm === undefined) return 'vm-not-found';
      if (vm.desired_state === 'ABSENT') return 'vm-deleting';
      const { live } = await tx
        .selectFrom('vm_snapshots')
        .select((eb) => eb.fn.countAll<string | number>().as('live'))
        .where('vm_id', '=', vmId)
        .where('deleted_at', 'is', null)
        .executeTakeFirstOrThrow();
      if (Number(live) >= maxLive) return 'limit-reached';
      await tx
        .insertInto('vm_snapshots')
        .values({
          id: snapshot.id,
          vm_id: vmId,
          client_organization_id: clientOrganizationId,
          agent_id: vm.agent_id,
          object_name: snapshot.objectName,
          snapshot_name: snapshot.snapshotName,
          description: snapshot.description,
          updated_at: sql<Date>`now()`,
        })
        .execute();
      return 'inserted';
    });
  }

  /** Its deletion is wanted now, as a new generation; false when it was not wanted and live. */
  async withdraw(clientOrganizationId: string, vmId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('vm_snapshots')
      .set({
        desired_state: 'ABSENT',
        ...newGeneration(),
      })
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId)
      .where('id', '=', id)
      .where('desired_state', '=', 'PRESENT')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A rollback token newer than any before (the database's clock), as a new generation. */
  async requestRollback(clientOrganizationId: string, vmId: string, id: string): Promise<boolean> {
    const result = await this.db
      .updateTable('vm_snapshots')
      .set({
        rollback_requested_at: sql<Date>`date_trunc('milliseconds', now())`,
        ...newGeneration(),
      })
      .where('client_organization_id', '=', clientOrganizationId)
      .where('vm_id', '=', vmId)
      .where('id', '=', id)
      .where('desired_state', '=', 'PRESENT')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
