import { BILLING_PERIODS, billingPeriodHours, HOURS_PER_MONTH } from '@noderings/domain';
import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Page, PageResult } from '../../http/pagination.js';

/** What narrows the listed offers; every field is optional and they combine with AND. */
export interface OfferFilter {
  /** Cities of the catalogue (region-catalogue.ts); empty matches nothing. */
  readonly cityIds?: readonly string[] | undefined;
  readonly billingType?: string | undefined;
  readonly computeType?: string | undefined;
  readonly computeCategory?: string | undefined;
  readonly minVcpus?: number | undefined;
  readonly minRamGb?: number | undefined;
  readonly minDiskGb?: number | undefined;
  /** The cheapest price per month (a price of another period counted by its hours) is at most this. */
  readonly maxMonthlyPrice?: { readonly amount: string; readonly currency: string } | undefined;
  readonly ipv6AvailableOnly?: boolean | undefined;
  readonly unlimitedBandwidthOnly?: boolean | undefined;
  readonly planCode?: string | undefined;
  /** A piece of the provider's name. */
  readonly providerSearch?: string | undefined;
  readonly planId?: string | undefined;
}

export interface Sku {
  readonly planCode: string;
  readonly billingType: string;
  readonly computeType: string;
  readonly computeCategory: string;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
  readonly offerCount: number;
  /** The lowest monthly price per currency among the SKU's offers. */
  readonly lowestMonthlyPrices: readonly { readonly currency: string; readonly amount: string }[];
}

export interface Offer {
  readonly planId: string;
  readonly planCode: string;
  readonly planName: string;
  readonly organizationId: string;
  readonly organizationName: string;
  readonly regionId: string;
  readonly cityId: string;
  readonly billingType: string;
  readonly computeType: string;
  readonly computeCategory: string;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
  readonly bandwidthAllowanceGb: number;
  readonly bandwidthPeriod: string;
  readonly networkRateLimitMbps: number;
  readonly currency: string;
  readonly setupFee: string;
  readonly trialDays: number;
  readonly monthlyPrice: string;
  readonly planPrices: readonly {
    readonly billingPeriod: string;
    readonly currency: string;
    readonly unitAmount: string;
  }[];
  readonly ipv6Available: boolean;
  /** In the plan's order. */
  readonly nodeIds: readonly string[];
  readonly createdAt: Date;
}

/** What makes a SKU: the plan code, with the billing type it is sold under. */
const SKU_COLUMNS = [
  'code',
  'billing_type',
  'compute_type',
  'compute_category',
  'vcpus',
  'ram_gb',
  'disk_gb',
] as const;

export type OfferSort = 'LEAST_EXPENSIVE_FIRST' | 'MOST_EXPENSIVE_FIRST';

/** Hours per billing period as literals: they are our constants, and literals keep the arithmetic numeric. */
const PERIOD_HOURS = sql.join(
  BILLING_PERIODS.map((p) => sql`WHEN ${sql.lit(p)} THEN ${sql.lit(billingPeriodHours(p))}`),
  sql` `,
);

/**
 * What the marketplace lists: plans whose last preflight passed, checked again here for what a provider
 * can change in one call (deleting, making private) so that such a change hides the plan at once.
 */
function listedOffers(db: Db, filter: OfferFilter) {
  let query = db
    .selectFrom('plans as p')
    .innerJoin('plan_preflight_results as r', 'r.plan_id', 'p.id')
    .innerJoin('organizations as o', 'o.id', 'p.organization_id')
    .innerJoin('regions as g', 'g.id', 'p.region_id')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('plan_prices as pp')
          .select(
            sql<string>`min(round(pp.unit_amount * ${sql.lit(HOURS_PER_MONTH)}
              / CASE pp.billing_period ${PERIOD_HOURS} END, 6))`.as('monthly_price'),
          )
          .whereRef('pp.plan_id', '=', 'p.id')
          .as('m'),
      (join) => join.onTrue(),
    )
    .where('r.marketplace_ready', '=', true)
    .where('p.deleted_at', 'is', null)
    .where('p.is_public', '=', true)
    .where('o.is_verified', '=', true);
  if (filter.cityIds !== undefined)
    query =
      filter.cityIds.length === 0
        ? query.where(sql.lit(false))
        : query.where('g.city_id', 'in', filter.cityIds);
  if (filter.billingType !== undefined) query = query.where('p.billing_type', '=', filter.billingType);
  if (filter.computeType !== undefined) query = query.where('p.compute_type', '=', filter.computeType);
  if (filter.computeCategory !== undefined)
    query = query.where('p.compute_category', '=', filter.computeCategory);
  if (filter.minVcpus !== undefined) query = query.where('p.vcpus', '>=', filter.minVcpus);
  if (filter.minRamGb !== undefined) query = query.where('p.ram_gb', '>=', filter.minRamGb);
  if (filter.minDiskGb !== undefined) query = query.where('p.disk_gb', '>=', filter.minDiskGb);
  const max = filter.maxMonthlyPrice;
  if (max !== undefined)
    query = query
      .where('p.currency', '=', max.currency)
      .where(sql<boolean>`m.monthly_price <= ${max.amount}::numeric`);
  if (filter.ipv6AvailableOnly === true) query = query.where('r.ipv6_available', '=', true);
  if (filter.unlimitedBandwidthOnly === true) query = query.where('p.bandwidth_allowance_gb', '=', 0);
  if (filter.planCode !== undefined) query = query.where('p.code', '=', filter.planCode);
  if (filter.planId !== undefined) query = query.where('p.id', '=', filter.planId);
  if (filter.providerSearch !== undefined)
    query = query.where(sql<boolean>`strpos(lower(o.name), lower(${filter.providerSearch})) > 0`);
  return query;
}

/** Anonymous reads across every provider: nothing here is scoped to a tenant, and nothing private is read. */
export class MarketplaceRepository {
  constructor(private readonly db: Db) {}

  /** One row per plan code (with its billing and compute type), smallest first. */
  async skus(filter: OfferFilter, page: Page): Promise<PageResult<Sku>> {
    // One pass over the offers: per SKU and currency first (a provider has one plan per code, so one
    // currency per SKU, and the counts add up), then per SKU with its lowest price in each currency.
    const perCurrency = listedOffers(this.db, filter)
      .select((eb) => [
        ...SKU_COLUMNS.map((c) => `p.${c}` as const),
        'p.currency',
        eb.fn.countAll<string | number>().as('offers'),
        sql<string>`min(m.monthly_price)::text`.as('lowest'),
      ])
      .groupBy([...SKU_COLUMNS.map((c) => `p.${c}` as const), 'p.currency']);
    const perSku = this.db
      .selectFrom(perCurrency.as('c'))
      .select([
        ...SKU_COLUMNS.map((c) => `c.${c}` as const),
        sql<string | number>`sum(c.offers)`.as('offer_count'),
        sql<{ currency: string; amount: string }[]>`jsonb_agg(
          jsonb_build_object('currency', c.currency, 'amount', c.lowest) ORDER BY c.currency)`.as(
          'lowest_prices',
        ),
      ])
      .groupBy(SKU_COLUMNS.map((c) => `c.${c}` as const));
    // Paged from outside the grouping, so that counting the rows counts SKUs.
    const query = this.db
      .selectFrom(perSku.as('s'))
      .selectAll()
      .orderBy('s.vcpus')
      .orderBy('s.ram_gb')
      .orderBy('s.disk_gb')
      .orderBy('s.code')
      .orderBy('s.billing_type');
    return listPage(query, page, (rows) =>
      rows.map((r) => ({
        planCode: r.code,
        billingType: r.billing_type,
        computeType: r.compute_type,
        computeCategory: r.compute_category,
        vcpus: r.vcpus,
        ramGb: r.ram_gb,
        diskGb: r.disk_gb,
        offerCount: Number(r.offer_count),
        lowestMonthlyPrices: r.lowest_prices,
      })),
    );
  }

  /** The listed offers, one per provider for a plan code (a provider has one live plan per code). */
  async offers(filter: OfferFilter, sort: OfferSort, page: Page): Promise<PageResult<Offer>> {
    const direction = sort === 'MOST_EXPENSIVE_FIRST' ? 'desc' : 'asc';
    const query = listedOffers(this.db, filter)
      .select([
        'p.id',
        'p.code',
        'p.name',
        'p.organization_id',
        'o.name as organization_name',
        'g.id as region_id',
        'g.city_id',
        'p.billing_type',
        'p.compute_type',
        'p.compute_category',
        'p.vcpus',
        'p.ram_gb',
        'p.disk_gb',
        'p.bandwidth_allowance_gb',
        'p.bandwidth_period',
        'p.network_rate_limit_mbps',
        'p.currency',
        'p.setup_fee',
        'p.trial_days',
        'p.created_at',
        'r.ipv6_available',
        sql<string>`m.monthly_price::text`.as('monthly_price'),
      ])
      .orderBy(sql`m.monthly_price`, direction)
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id');
    return listPage(query, page, async (rows) => {
      const ids = rows.map((r) => r.id);
      const [prices, nodes] = await Promise.all([this.#prices(ids), this.#nodes(ids)]);
      return rows.map((r) => ({
        planId: r.id,
        planCode: r.code,
        planName: r.name,
        organizationId: r.organization_id,
        organizationName: r.organization_name,
        regionId: r.region_id,
        cityId: r.city_id,
        billingType: r.billing_type,
        computeType: r.compute_type,
        computeCategory: r.compute_category,
        vcpus: r.vcpus,
        ramGb: r.ram_gb,
        diskGb: r.disk_gb,
        bandwidthAllowanceGb: r.bandwidth_allowance_gb,
        bandwidthPeriod: r.bandwidth_period,
        networkRateLimitMbps: r.network_rate_limit_mbps,
        currency: r.currency,
        setupFee: r.setup_fee,
        trialDays: r.trial_days,
        monthlyPrice: r.monthly_price,
        planPrices: prices.get(r.id) ?? [],
        ipv6Available: r.ipv6_available,
        nodeIds: nodes.get(r.id) ?? [],
        createdAt: r.created_at,
      }));
    });
  }

  /** Whether the marketplace lists the plan now: what a customer may order (item 4 of issue 17). */
  async isListed(planId: string): Promise<boolean> {
    const row = await listedOffers(this.db, { planId }).select('p.id').executeTakeFirst();
    return row !== undefined;
  }

  /** The catalogue cities that have at least one listed offer. */
  async cityIds(): Promise<string[]> {
    const rows = await listedOffers(this.db, {}).select('g.city_id').distinct().execute();
    return rows.map((r) => r.city_id);
  }

  /** The distros of the templates on the plans' nodes: what a customer may choose when ordering. */
  async distros(nodeIds: readonly string[]): Promise<string[]> {
    if (nodeIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('vm_templates')
      .select('distro')
      .distinct()
      .where('node_id', 'in', nodeIds)
      .orderBy('distro')
      .execute();
    return rows.map((r) => r.distro);
  }

  async #prices(planIds: readonly string[]) {
    const prices = new Map<string, { billingPeriod: string; currency: string; unitAmount: string }[]>();
    if (planIds.length === 0) return prices;
    const rows = await this.db
      .selectFrom('plan_prices')
      .select(['plan_id', 'billing_period', 'currency', sql<string>`unit_amount::text`.as('unit_amount')])
      .where('plan_id', 'in', planIds)
      .execute();
    const order = (period: string) => BILLING_PERIODS.findIndex((p) => p === period);
    for (const r of rows.sort((a, b) => order(a.billing_period) - order(b.billing_period)))
      prices.set(r.plan_id, [
        ...(prices.get(r.plan_id) ?? []),
        { billingPeriod: r.billing_period, currency: r.currency, unitAmount: r.unit_amount },
      ]);
    return prices;
  }

  async #nodes(planIds: readonly string[]): Promise<Map<string, string[]>> {
    const nodes = new Map<string, string[]>();
    if (planIds.length === 0) return nodes;
    const rows = await this.db
      .selectFrom('plan_nodes')
      .select(['plan_id', 'node_id'])
      .where('plan_id', 'in', planIds)
      .orderBy('plan_id')
      .orderBy('position')
      .execute();
    for (const r of rows) nodes.set(r.plan_id, [...(nodes.get(r.plan_id) ?? []), r.node_id]);
    return nodes;
  }
}
