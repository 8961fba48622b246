import type { Condition } from '@noderings/kube';
import { sql } from 'kysely';

import { newGeneration } from '../../db/new-generation.js';
import type { Db } from '../../db/database.js';
import type { VmDesiredState } from '../../db/schema.js';
import { finishedColumns, fromNow, LeaseResults } from './lease-results.js';
import type { WantedVm } from './vm-order.js';

/** What the agent cluster last reported on a VM's ProxmoxVM. */
export interface ObservedVm {
  readonly phase: string;
  readonly powerState: string;
  readonly message: string;
  readonly conditions: readonly Condition[];
  readonly generation: number;
}

/** What status sync needs to know of a VM to judge an event about its ProxmoxVM. */
export interface VmDispatchState {
  readonly id: string;
  readonly agentId: string;
  readonly desiredState: VmDesiredState;
  /** The agent cluster has been given the wanted state (`dispatched_generation >= generation`). */
  readonly dispatched: boolean;
  readonly finished: boolean;
  /**
   * Where its spec places it now, node and VMID: a report on another place (a guest it moved from) is
   * not about it.
   */
  readonly node: string | undefined;
  readonly vmid: number | undefined;
  /** It failed on its node and waits to be placed on another: failure reports change nothing. */
  readonly mustMove: boolean;
}

/** The order waits to be placed on another node: the one it is on is among those it failed on. */
const MUST_MOVE = sql<boolean>`node_id = ANY(failed_node_ids) AND failed_at IS NULL`;

/**
 * Leases, schedules and results of the dispatcher, and what status sync writes. Every time a decision
 * between replicas depends on is the database's `now()`, so replicas' clocks need not agree; `at`
 * parameters are only recorded.
 */
export class DispatchRepository extends LeaseResults<'virtual_machines'> {
  constructor(db: Db) {
    super(db, 'virtual_machines');
  }

  /**
   * Takes up to `limit` VMs whose wanted state has not been dispatched, that are due, and that no live
   * lease holds. SKIP LOCKED lets replicas lease at once without waiting on, or taking, each other's rows.
   */
  async leaseDue(owner: string, leaseMs: number, limit: number): Promise<WantedVm[]> {
    const rows = await this.db
      .updateTable('virtual_machines')
      .set({ lease_owner: owner, lease_until: fromNow(leaseMs) })
      .where('id', 'in', (eb) =>
        eb
          .selectFrom('virtual_machines')
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
        'agent_id',
        'desired_state',
        'desired_power_state',
        'reboot_requested_at',
        'tags',
        'spec',
        'cloud_init_ciphertext',
        'generation',
        'dispatch_attempts',
        'reinstall_generation',
        'reinstalled_generation',
        MUST_MOVE.as('must_move'),
      ])
      .execute();
    return rows.map((r) => ({
      id: r.id,
      agentId: r.agent_id,
      desiredState: r.desired_state,
      desiredPowerState: r.desired_power_state,
      rebootRequestedAt: r.reboot_requested_at,
      tags: r.tags,
      spec: r.spec,
      cloudInitCiphertext: r.cloud_init_ciphertext,
      generation: r.generation,
      dispatchAttempts: r.dispatch_attempts,
      reinstallPending: r.reinstall_generation > r.reinstalled_generation,
      reinstallGeneration: r.reinstall_generation,
      mustMove: r.must_move,
    }));
  }

  /** The old guest of a reinstall is gone: what is ordered next is the new one. Only under our lease. */
  async markReinstalled(id: string, owner: string, reinstallGeneration: number): Promise<void> {
    await this.db
      .updateTable('virtual_machines')
      .set({ reinstalled_generation: reinstallGeneration })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('reinstalled_generation', '<', reinstallGeneration)
      .execute();
  }

  /**
   * Leases a VM whose deletion was dispatched and is not finished, if no live lease holds it: finishing
   * takes the same lease as dispatching, so the two never run at once for a VM.
   */
  async leaseFinishable(id: string, owner: string, leaseMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('virtual_machines')
      .set({ lease_owner: owner, lease_until: fromNow(leaseMs) })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('desired_state', '=', 'ABSENT')
      .whereRef('dispatched_generation', '>=', 'generation')
      .where((w) => w.or([w('lease_until', 'is', null), w('lease_until', '<', sql<Date>`now()`)]))
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The last step of a deletion, once the ProxmoxVM is gone, its Secret deleted and its claim released. */
  async markFinished(id: string, owner: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('virtual_machines')
      .set(finishedColumns(at))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('desired_state', '=', 'ABSENT')
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * The VM's wanted state is to be dispatched again although nothing about it changed (its ProxmoxVM
   * vanished, or came back after its deletion). Only if it is still as status sync saw it.
   */
  async redispatch(id: string, desiredState: VmDesiredState): Promise<boolean> {
    const result = await this.db
      .updateTable('virtual_machines')
      .set({ dispatched_generation: 0, dispatch_attempts: 0, next_dispatch_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('desired_state', '=', desiredState)
      .whereRef('dispatched_generation', '>=', 'generation')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async findState(id: string): Promise<VmDispatchState | undefined> {
    const row = await this.db
      .selectFrom('virtual_machines')
      .select(['id', 'agent_id', 'desired_state', 'deleted_at'])
      .select(sql<boolean>`dispatched_generation >= generation`.as('dispatched'))
      .select(sql<string | null>`spec->>'node'`.as('node'))
      .select(sql<number | null>`(spec->>'vmid')::int`.as('vmid'))
      .select(MUST_MOVE.as('must_move'))
      .where('id', '=', id)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        agentId: row.agent_id,
        desiredState: row.desired_state,
        dispatched: row.dispatched,
        finished: row.deleted_at !== null,
        node: row.node ?? undefined,
        vmid: row.vmid ?? undefined,
        mustMove: row.must_move,
      }
    );
  }

  /**
   * An order that failed on its node for a reason tied to that node, for the first time: it is to be
   * placed on another. Like a reinstall, the dispatcher first has the failed guest
   * deleted and waits until it is gone; then the claim moves and the order goes out again. The provider's
   * words and the node are kept. False when the order failed before (a second failure is final), or is
   * not an order being provisioned.
   */
  async markRetrying(id: string, detail: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('virtual_machines')
      .set({
        failure_detail: detail,
        failed_node_ids: sql<string[]>`array_append(failed_node_ids, node_id)`,
        ...newGeneration({ at, reinstall: true }),
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('desired_state', '=', 'PRESENT')
      .where('failed_at', 'is', null)
      .where('node_id', 'is not', null)
      .where(sql<boolean>`cardinality(failed_node_ids) = 0`)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * An order that failed for good: its ProxmoxVM is withdrawn (the operator deletes whatever guest it
   * began) and, once gone, what it held is released as for a deletion. The provider's words (`detail`;
   * those already recorded when left out) and the node are kept; the row stays listed to its customer as
   * failed until they delete it.
   */
  async markFailed(id: string, detail: string | undefined, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('virtual_machines')
      .set({
        failed_at: at,
        // After a retry the provider reads both nodes' words, first failure first.
        ...(detail !== undefined && {
          failure_detail: sql<string>`CASE WHEN failure_detail = '' THEN ${detail}::text
            ELSE failure_detail || E'\n' || ${detail}::text END`,
        }),
        failed_node_ids: sql<string[]>`CASE WHEN node_id IS NULL OR node_id = ANY(failed_node_ids)
          THEN failed_node_ids ELSE array_append(failed_node_ids, node_id) END`,
        desired_state: 'ABSENT' as const,
        ...newGeneration({ at }),
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where('desired_state', '=', 'PRESENT')
      .where('failed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Writes what the agent cluster reports, only when it differs from what is recorded. */
  async recordObserved(id: string, observed: ObservedVm, at: Date): Promise<boolean> {
    const conditions = JSON.stringify(observed.conditions);
    const result = await this.db
      .updateTable('virtual_machines')
      .set({
        observed_phase: observed.phase,
        observed_power_state: observed.powerState,
        observed_message: observed.message,
        observed_conditions: conditions,
        observed_generation: observed.generation,
        observed_at: at,
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where(
        sql<boolean>`(observed_phase, observed_power_state, observed_message, observed_conditions, observed_generation)
          IS DISTINCT FROM (${observed.phase}::text, ${observed.powerState}::text, ${observed.message}::text,
            ${conditions}::jsonb, ${observed.generation}::int)`,
      )
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Agents that have VMs not yet finished: the ones whose clusters status sync watches. */
  async agentsWithLiveVms(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('virtual_machines')
      .select('agent_id')
      .distinct()
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.agent_id);
  }

  async liveVmsOf(agentId: string): Promise<VmDispatchState[]> {
    const rows = await this.db
      .selectFrom('virtual_machines')
      .select(['id', 'agent_id', 'desired_state'])
      .select(sql<boolean>`dispatched_generation >= generation`.as('dispatched'))
      .where('agent_id', '=', agentId)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      agentId: r.agent_id,
      desiredState: r.desired_state,
      dispatched: r.dispatched,
      finished: false,
      node: undefined,
      vmid: undefined,
      mustMove: false,
    }));
  }

  /** Of `ids`, the VMs that exist, and whether each is finished. */
  async finishedByIds(ids: readonly string[]): Promise<Map<string, boolean>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('virtual_machines')
      .select(['id', 'deleted_at'])
      .where('id', 'in', [...ids])
      .execute();
    return new Map(rows.map((r) => [r.id, r.deleted_at !== null]));
  }
}
