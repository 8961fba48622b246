import { sql } from 'kysely';

import type { VmDesiredState } from '../../db/schema.js';
import { fromNow, LeaseResults } from './lease-results.js';

/** The tables of a VM's resources in its agent cluster: each row one custom resource, wanted and observed. */
export type ResourceTable = 'vm_snapshots' | 'vm_backups' | 'vm_console_sessions';

/** A resource row as the dispatcher leased it: which wanted state it is to carry, at `generation`. */
export interface LeasedResource {
  readonly id: string;
  readonly vmId: string;
  readonly agentId: string;
  readonly objectName: string;
  readonly desiredState: VmDesiredState;
  /** The VM is wanted (not being deleted): a resource of a VM on its way out is only ever withdrawn. */
  readonly vmWanted: boolean;
  readonly generation: number;
  /** Some generation reached the cluster before: the object was made once, and is never made again. */
  readonly everDispatched: boolean;
  readonly dispatchAttempts: number;
}

/** What status sync needs to know of a resource row to judge an event about its object. */
export interface ResourceState {
  readonly id: string;
  readonly vmId: string;
  readonly desiredState: VmDesiredState;
  /** The agent cluster has been given the wanted state (`dispatched_generation >= generation`). */
  readonly dispatched: boolean;
  readonly finished: boolean;
}

/**
 * The lease, schedule and result columns of one resource table, the same pattern as the VMs' (see
 * DispatchRepository): SKIP LOCKED leases, compare-and-set results, backoff, and every time decision
 * by the database's clock.
 */
export class ResourceLeases extends LeaseResults<ResourceTable> {
  /** Takes up to `limit` due rows that no live lease holds. */
  async leaseDue(owner: string, leaseMs: number, limit: number): Promise<LeasedResource[]> {
    const { table } = this;
    const rows = await this.db
      .updateTable(table)
      .set({ lease_owner: owner, lease_until: fromNow(leaseMs) })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom(table)
          .select('id')
          .where('deleted_at', 'is', null)
          .whereRef('dispatched_generation', '<', 'generation')
          .where('next_dispatch_at', '<=', sql<Date>`now()`)
          .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', sql<Date>`now()`)]))
          .orderBy('next_dispatch_at')
          .limit(limit)
          .forUpdate()
          .skipLocked(),
      )
      .returning([
        'id',
        'vm_id',
        'agent_id',
        'object_name',
        'desired_state',
        'generation',
        'dispatched_generation',
        'dispatch_attempts',
      ])
      .returning(
        sql<boolean>`EXISTS (SELECT 1 FROM virtual_machines v WHERE v.id = vm_id
          AND v.desired_state = 'PRESENT' AND v.deleted_at IS NULL)`.as('vm_wanted'),
      )
      .execute();
    return rows.map((r) => ({
      id: r.id,
      vmId: r.vm_id,
      agentId: r.agent_id,
      objectName: r.object_name,
      desiredState: r.desired_state,
      vmWanted: r.vm_wanted,
      generation: r.generation,
      everDispatched: r.dispatched_generation > 0,
      dispatchAttempts: r.dispatch_attempts,
    }));
  }

  /** Leases a row whose deletion was dispatched and is not finished, if no live lease holds it. */
  async leaseFinishable(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable(this.table)
      .set({ lease_owner: owner, lease_until: fromNow(leaseMs) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .whereRef('dispatched_generation', '>=', 'generation')
      .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', sql<Date>`now()`)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** A deleted object of a row that still wants it gone: its deletion is dispatched again. */
  async redispatch(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable(this.table)
      .set({ dispatched_generation: 0, dispatch_attempts: 0, next_dispatch_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('desired_state', '=', 'ABSENT')
      .whereRef('dispatched_generation', '>=', 'generation')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async findByObject(agentId: string, objectName: string): Promise<ResourceState | undefined> {
    const row = await this.db
      .selectFrom(this.table)
      .select(['id', 'vm_id', 'desired_state', 'deleted_at'])
      .select(sql<boolean>`dispatched_generation >= generation`.as('dispatched'))
      .where('agent_id', '=', agentId)
      .where('object_name', '=', objectName)
      .orderBy(sql`deleted_at IS NULL`, 'desc')
      .orderBy('created_at', 'desc')
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        vmId: row.vm_id,
        desiredState: row.desired_state,
        dispatched: row.dispatched,
        finished: row.deleted_at !== null,
      }
    );
  }

  /** The agent's rows whose object the cluster was given: status sync looks at those its watch never saw. */
  async dispatchedObjectsOf(agentId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom(this.table)
      .select('object_name')
      .where('agent_id', '=', agentId)
      .where('deleted_at', 'is', null)
      .where('dispatched_generation', '>', 0)
      .execute();
    return rows.map((r) => r.object_name);
  }

  /** The VM's deletion finished, and with its guest every resource of it is gone. */
  async finishAllOf(vmId: string, at: Date): Promise<number> {
    const result = await this.db
      .updateTable(this.table)
      .set({
        desired_state: 'ABSENT',
        deleted_at: at,
        updated_at: at,
        lease_owner: null,
        lease_until: null,
      })
      .where('vm_id', '=', vmId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }
}
