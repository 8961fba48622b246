import {
  BILLING_PERIODS,
  BILLING_TYPES,
  COMPUTE_CATEGORIES,
  COMPUTE_TYPES,
  CREDIT_EXHAUSTION_ACTIONS,
  type BillingPeriod,
  type BillingType,
  type ComputeType,
  type PlanDefinition,
} from '@noderings/domain';
import { sql, type Selectable, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database, PlanTable } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { duplicatePlanCode } from './plan.errors.js';

interface PlanPrice {
  readonly id: string;
  readonly billingPeriod: BillingPeriod;
  readonly currency: string;
  readonly unitAmount: string;
}

/**
 * A plan as stored. `revision` counts its changes (1 when created): a VM ordered from the plan records the
 * revision it copied, since changes apply only to VMs ordered afterwards.
 */
export interface Plan extends Omit<PlanDefinition, 'planPrices'> {
  readonly id: string;
  readonly organizationId: string;
  readonly code: string;
  readonly currency: string;
  readonly planPrices: readonly PlanPrice[];
  readonly revision: number;
  readonly deletedAt: Date | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What the service hands over to write: a valid definition with its derived code and currency. */
export type PlanRecord = PlanDefinition & { readonly code: string; readonly currency: string };

export interface PlanFilter {
  /** A piece of the name or code, matched case-insensitively. */
  readonly search?: string | undefined;
  readonly code?: string | undefined;
  readonly computeType?: ComputeType | undefined;
  readonly billingType?: BillingType | undefined;
  /** Plans that sell in this region (among others). */
  readonly regionId?: string | undefined;
}

type PlanRow = Selectable<PlanTable>;

function known<T extends string>(values: readonly T[], value: string, column: string): T {
  const found = values.find((v) => v === value);
  if (found === undefined) throw new Error(`plans.${column} holds an unknown value: ${value}`);
  return found;
}

function toPlan(
  r: PlanRow,
  planPrices: readonly PlanPrice[],
  regionIds: readonly string[],
  nodeIds: readonly string[],
): Plan {
  return {
    id: r.id,
    organizationId: r.organization_id,
    code: r.code,
    name: r.name,
    computeCategory: known(COMPUTE_CATEGORIES, r.compute_category, 'compute_category'),
    computeType: known(COMPUTE_TYPES, r.compute_type, 'compute_type'),
    vcpus: r.vcpus,
    ramGb: r.ram_gb,
    diskGb: r.disk_gb,
    bandwidthAllowanceGb: r.bandwidth_allowance_gb,
    bandwidthPeriod: known(BILLING_PERIODS, r.bandwidth_period, 'bandwidth_period'),
    networkRateLimitMbps: r.network_rate_limit_mbps,
    cpuUnits: r.cpu_units,
    // numeric(5, 2): two decimals at most, which a double reads back as written.
    cpuLimit: Number(r.cpu_limit),
    billingType: known(BILLING_TYPES, r.billing_type, 'billing_type'),
    currency: r.currency,
    planPrices,
    setupFee: r.setup_fee,
    trialDays: r.trial_days,
    regionIds,
    nodeIds,
    isPublic: r.is_public,
    onCreditExhaustion: known(CREDIT_EXHAUSTION_ACTIONS, r.on_credit_exhaustion, 'on_credit_exhaustion'),
    revision: r.revision,
    deletedAt: r.deleted_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toColumns(p: PlanRecord) {
  return {
    code: p.code,
    name: p.name,
    compute_category: p.computeCategory,
    compute_type: p.computeType,
    vcpus: p.vcpus,
    ram_gb: p.ramGb,
    disk_gb: p.diskGb,
    bandwidth_allowance_gb: p.bandwidthAllowanceGb,
    bandwidth_period: p.bandwidthPeriod,
    network_rate_limit_mbps: p.networkRateLimitMbps,
    cpu_units: p.cpuUnits,
    cpu_limit: String(p.cpuLimit),
    billing_type: p.billingType,
    currency: p.currency,
    setup_fee: p.setupFee,
    trial_days: p.trialDays,
    is_public: p.isPublic,
    on_credit_exhaustion: p.onCreditExhaustion,
  };
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every query is scoped to one organisation: another tenant's plan is simply not found. */
export class PlanRepository {
  constructor(private readonly db: Db) {}

  /** Plans that are not deleted. */
  async list(organizationId: string, filter: PlanFilter, page: Page): Promise<PageResult<Plan>> {
    let base = this.db
      .selectFrom('plans')
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null);
    const search = filter.search?.trim();
    if (search !== undefined && search !== '') {
      const pattern = likePattern(search);
      base = base.where((eb) => eb.or([eb('name', 'ilike', pattern), eb('code', 'ilike', pattern)]));
    }
    if (filter.code !== undefined) base = base.where('code', '=', filter.code.trim().toUpperCase());
    if (filter.computeType !== undefined) base = base.where('compute_type', '=', filter.computeType);
    if (filter.billingType !== undefined) base = base.where('billing_type', '=', filter.billingType);
    const { regionId } = filter;
    if (regionId !== undefined)
      base = base.where((eb) =>
        eb.exists(
          eb
            .selectFrom('plan_regions as pr')
            .select('pr.plan_id')
            .whereRef('pr.plan_id', '=', 'plans.id')
            .where('pr.region_id', '=', regionId),
        ),
      );
    return listPage(base.selectAll().orderBy('created_at').orderBy('id'), page, (rows) =>
      this.#withChildren(this.db, rows),
    );
  }

  /** Deleted plans too: they stay readable. */
  async findById(organizationId: string, id: string): Promise<Plan | undefined> {
    const row = await this.db
      .selectFrom('plans')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    const [plan] = await this.#withChildren(this.db, [row]);
    return plan;
  }

  async insert(organizationId: string, plan: PlanRecord): Promise<Plan> {
    const inserted = this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('plans')
        .values({ ...toColumns(plan), organization_id: organizationId, updated_at: sql<Date>`now()` })
        .returningAll()
        .executeTakeFirstOrThrow();
      await this.#writeChildren(tx, row.id, plan);
      const [created] = await this.#withChildren(tx, [row]);
      if (created === undefined) throw new Error('the inserted plan vanished');
      return created;
    });
    return translateViolations(inserted, { unique: () => duplicatePlanCode(plan.code) });
  }

  /**
   * Writes the plan's next definition and counts a revision, if the plan is still at `expectedRevision`:
   * the revision is the optimistic lock that keeps two concurrent edits from both being based on the same
   * plan. Undefined when the plan is gone, deleted, or has moved on.
   */
  async update(
    organizationId: string,
    id: string,
    expectedRevision: number,
    next: PlanRecord,
  ): Promise<Plan | undefined> {
    const updated = this.db.transaction().execute(async (tx) => {
      const row = await tx
        .updateTable('plans')
        .set((eb) => ({
          ...toColumns(next),
          revision: eb('revision', '+', 1),
          updated_at: sql<Date>`now()`,
        }))
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('revision', '=', expectedRevision)
        .where('deleted_at', 'is', null)
        .returningAll()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      await this.#writeChildren(tx, id, next);
      const [plan] = await this.#withChildren(tx, [row]);
      return plan;
    });
    return translateViolations(updated, { unique: () => duplicatePlanCode(next.code) });
  }

  /**
   * Marks the plan deleted and lets go of its regions and nodes, so they can be removed; its code may then
   * be used again. False when it does not exist in this organisation or is already deleted.
   */
  async softDelete(organizationId: string, id: string): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('plans')
        .set({ deleted_at: sql<Date>`now()`, updated_at: sql<Date>`now()` })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await tx.deleteFrom('plan_nodes').where('plan_id', '=', id).execute();
      await tx.deleteFrom('plan_regions').where('plan_id', '=', id).execute();
      return true;
    });
  }

  /** Prices keep their ids across edits for the billing periods that stay. */
  async #writeChildren(tx: Transaction<Database>, planId: string, plan: PlanRecord): Promise<void> {
    const periods = plan.planPrices.map((p) => p.billingPeriod);
    await tx
      .deleteFrom('plan_prices')
      .where('plan_id', '=', planId)
      .where('billing_period', 'not in', periods)
      .execute();
    await tx
      .insertInto('plan_prices')
      .values(
        plan.planPrices.map((p) => ({
          plan_id: planId,
          billing_period: p.billingPeriod,
          currency: p.currency,
          unit_amount: p.unitAmount,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['plan_id', 'billing_period']).doUpdateSet((eb) => ({
          currency: eb.ref('excluded.currency'),
          unit_amount: eb.ref('excluded.unit_amount'),
        })),
      )
      .execute();
    await tx.deleteFrom('plan_regions').where('plan_id', '=', planId).execute();
    await tx
      .insertInto('plan_regions')
      .values(
        plan.regionIds.map((regionId, position) => ({ plan_id: planId, region_id: regionId, position })),
      )
      .execute();
    await tx.deleteFrom('plan_nodes').where('plan_id', '=', planId).execute();
    await tx
      .insertInto('plan_nodes')
      .values(plan.nodeIds.map((nodeId, position) => ({ plan_id: planId, node_id: nodeId, position })))
      .execute();
  }

  async #withChildren(db: Db | Transaction<Database>, rows: readonly PlanRow[]): Promise<Plan[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const [prices, regions, nodes] = await Promise.all([
      db
        .selectFrom('plan_prices')
        .select(['id', 'plan_id', 'billing_period', 'currency', 'unit_amount'])
        .where('plan_id', 'in', ids)
        .execute(),
      db
        .selectFrom('plan_regions')
        .select(['plan_id', 'region_id'])
        .where('plan_id', 'in', ids)
        .orderBy('position')
        .execute(),
      db
        .selectFrom('plan_nodes')
        .select(['plan_id', 'node_id'])
        .where('plan_id', 'in', ids)
        .orderBy('position')
        .execute(),
    ]);
    const periodOrder = (p: PlanPrice) => BILLING_PERIODS.indexOf(p.billingPeriod);
    return rows.map((r) =>
      toPlan(
        r,
        prices
          .filter((p) => p.plan_id === r.id)
          .map((p) => ({
            id: p.id,
            billingPeriod: known(BILLING_PERIODS, p.billing_period, 'plan_prices.billing_period'),
            currency: p.currency,
            unitAmount: p.unit_amount,
          }))
          .sort((a, b) => periodOrder(a) - periodOrder(b)),
        regions.filter((g) => g.plan_id === r.id).map((g) => g.region_id),
        nodes.filter((n) => n.plan_id === r.id).map((n) => n.node_id),
      ),
    );
  }
}
