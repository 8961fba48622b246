import { sql, type RawBuilder } from 'kysely';

import type { Db } from '../../db/database.js';

/** The tables whose rows the dispatcher leases: the VMs, and the custom resources of their snapshots, backups and console sessions. */
export type DispatchedTable = 'virtual_machines' | 'vm_snapshots' | 'vm_backups' | 'vm_console_sessions';

/** How a dispatch's result was recorded. */
export type DispatchRecord =
  /** The lease had expired and another replica took the row: it records its own result. */
  | 'lease-lost'
  /** The row changed while it was dispatched: it is due again at once. */
  | 'changed'
  | 'dispatched';

/** A moment relative to the database's clock, which every lease and schedule decision uses. */
export function fromNow(ms: number): RawBuilder<Date> {
  return sql<Date>`now() + make_interval(secs => ${ms / 1000}::float8)`;
}

/**
 * The columns of a row whose deletion is finished: it is no longer wanted, nothing is left to dispatch, and
 * no lease holds it. Each kind adds its own (a backup's removal reason, a console session's sealed ticket).
 */
export function finishedColumns(at: Date) {
  return {
    desired_state: 'ABSENT' as const,
    deleted_at: at,
    updated_at: at,
    dispatched_generation: sql<number>`generation`,
    dispatch_attempts: 0,
    dispatch_error: '',
    lease_owner: null,
    lease_until: null,
  };
}

/**
 * What every dispatched table records the same way: a result under the lease (compare-and-set on the
 * generation), a failure with its backoff, a lease let go, and a wait cut short.
 */
export class LeaseResults<Table extends DispatchedTable = DispatchedTable> {
  constructor(
    protected readonly db: Db,
    readonly table: Table,
  ) {}

  /** The table as every dispatched table: the columns these writes touch are the same in each. */
  get #any(): DispatchedTable {
    return this.table;
  }

  /** Records that `generation` is in the agent cluster and lets the lease go (compare-and-set). */
  async markDispatched(id: string, owner: string, generation: number): Promise<DispatchRecord> {
    const row = await this.db
      .updateTable(this.#any)
      .set({
        dispatched_generation: sql<number>`CASE WHEN generation = ${generation}::int THEN generation ELSE dispatched_generation END`,
        dispatch_attempts: 0,
        dispatch_error: '',
        lease_owner: null,
        lease_until: null,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .returning(sql<boolean>`generation = ${generation}::int`.as('current'))
      .executeTakeFirst();
    if (row === undefined) return 'lease-lost';
    return row.current ? 'dispatched' : 'changed';
  }

  /** A failed try: due again after `retryInMs`, with `reason` for the API to show meanwhile. */
  async recordFailure(id: string, owner: string, retryInMs: number, reason: string): Promise<void> {
    await this.db
      .updateTable(this.#any)
      .set((eb) => ({
        dispatch_attempts: eb('dispatch_attempts', '+', 1),
        next_dispatch_at: fromNow(retryInMs),
        dispatch_error: reason,
        lease_owner: null,
        lease_until: null,
      }))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  async releaseLease(id: string, owner: string): Promise<void> {
    await this.db
      .updateTable(this.#any)
      .set({ lease_owner: null, lease_until: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .execute();
  }

  /** A row waiting for its next try is due at once: what it waited for has happened. */
  async dueNow(id: string): Promise<boolean> {
    const result = await this.db
      .updateTable(this.#any)
      .set({ dispatch_attempts: 0, next_dispatch_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .whereRef('dispatched_generation', '<', 'generation')
      .where('next_dispatch_at', '>', sql<Date>`now()`)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
