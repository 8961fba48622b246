import type { PreflightResult } from '@noderings/domain';
import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Page, PageResult } from '../../http/pagination.js';

/** What preflight reads of a plan. */
export interface PlanForPreflight {
  readonly id: string;
  readonly code: string;
  readonly name: string;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
  readonly computeCategory: string;
  readonly isPublic: boolean;
  readonly providerVerified: boolean;
  readonly regionCityId: string;
  readonly priceAmounts: readonly string[];
  /** In the plan's order. */
  readonly nodeIds: readonly string[];
}

export interface VmTemplateForPreflight {
  readonly nodeId: string;
  readonly name: string;
  readonly distro: string;
  readonly cloudInitTemplateId: string;
  readonly cloudInitTemplateName: string;
}

export interface StoredPreflightResult extends PreflightResult {
  readonly evaluatedAt: Date;
}

export interface NewPreflightResult {
  readonly result: PreflightResult;
  /** Some node that passes every check offers IPv6 with an assignment free. */
  readonly ipv6Available: boolean;
}

export interface PreflightFilter {
  readonly planId?: string | undefined;
  readonly planCode?: string | undefined;
  /** Only plans with a failing check. */
  readonly issuesOnly?: boolean | undefined;
}

/** Rows written per statement when saving: well under PostgreSQL's 65,535 parameters. */
const SAVE_BATCH = 500;

export class PreflightRepository {
  constructor(private readonly db: Db) {}

  /** The organisation's plans that are not deleted, with their prices and nodes. */
  async plansOf(organizationId: string): Promise<PlanForPreflight[]> {
    const live = this.db
      .selectFrom('plans')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null);
    const [plans, prices, nodes] = await Promise.all([
      this.db
        .selectFrom('plans as p')
        .innerJoin('organizations as o', 'o.id', 'p.organization_id')
        .innerJoin('regions as r', 'r.id', 'p.region_id')
        .select([
          'p.id',
          'p.code',
          'p.name',
          'p.vcpus',
          'p.ram_gb',
          'p.disk_gb',
          'p.compute_category',
          'p.is_public',
          'o.is_verified',
          'r.city_id',
        ])
        .where('p.organization_id', '=', organizationId)
        .where('p.deleted_at', 'is', null)
        .orderBy('p.created_at')
        .orderBy('p.id')
        .execute(),
      this.db
        .selectFrom('plan_prices')
        .select(['plan_id', 'unit_amount'])
        .where('plan_id', 'in', live)
        .execute(),
      this.db
        .selectFrom('plan_nodes')
        .select(['plan_id', 'node_id'])
        .where('plan_id', 'in', live)
        .orderBy('plan_id')
        .orderBy('position')
        .execute(),
    ]);
    const pricesOf = groupBy(
      prices,
      (p) => p.plan_id,
      (p) => p.unit_amount,
    );
    const nodesOf = groupBy(
      nodes,
      (n) => n.plan_id,
      (n) => n.node_id,
    );
    return plans.map((p) => ({
      id: p.id,
      code: p.code,
      name: p.name,
      vcpus: p.vcpus,
      ramGb: p.ram_gb,
      diskGb: p.disk_gb,
      computeCategory: p.compute_category,
      isPublic: p.is_public,
      providerVerified: p.is_verified,
      regionCityId: p.city_id,
      priceAmounts: pricesOf.get(p.id) ?? [],
      nodeIds: nodesOf.get(p.id) ?? [],
    }));
  }

  async vmTemplatesOf(organizationId: string): Promise<VmTemplateForPreflight[]> {
    const rows = await this.db
      .selectFrom('vm_templates as t')
      .innerJoin('cloud_init_templates as c', 'c.id', 't.cloud_init_template_id')
      .select(['t.node_id', 't.name', 't.distro', 't.cloud_init_template_id', 'c.name as cloud_init_name'])
      .where('t.organization_id', '=', organizationId)
      .orderBy('t.distro')
      .execute();
    return rows.map((r) => ({
      nodeId: r.node_id,
      name: r.name,
      distro: r.distro,
      cloudInitTemplateId: r.cloud_init_template_id,
      cloudInitTemplateName: r.cloud_init_name,
    }));
  }

  /**
   * Replaces the organisation's results with these, in one transaction: the marketplace never sees half
   * an evaluation, and a plan deleted since the last one loses its row. (Plans are deleted softly, so a
   * plan deleted while the evaluation ran still takes its row; the marketplace skips deleted plans.)
   */
  async replaceResults(organizationId: string, results: readonly NewPreflightResult[]): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx
        .deleteFrom('plan_preflight_results')
        .where('organization_id', '=', organizationId)
        .where(
          'plan_id',
          'not in',
          tx
            .selectFrom('plans')
            .select('id')
            .where('organization_id', '=', organizationId)
            .where('deleted_at', 'is', null),
        )
        .execute();
      for (let i = 0; i < results.length; i += SAVE_BATCH) {
        const rows = results.slice(i, i + SAVE_BATCH).map(({ result, ipv6Available }) => ({
          plan_id: result.planId,
          organization_id: organizationId,
          plan_code: result.planCode,
          marketplace_ready: result.marketplaceReady,
          ipv6_available: ipv6Available,
          issue_count: result.summaryIssues.length,
          result: JSON.stringify(result),
          evaluated_at: sql<Date>`now()`,
        }));
        await tx
          .insertInto('plan_preflight_results')
          .values(rows)
          .onConflict((oc) =>
            oc.column('plan_id').doUpdateSet((eb) => ({
              plan_code: eb.ref('excluded.plan_code'),
              marketplace_ready: eb.ref('excluded.marketplace_ready'),
              ipv6_available: eb.ref('excluded.ipv6_available'),
              issue_count: eb.ref('excluded.issue_count'),
              result: eb.ref('excluded.result'),
              evaluated_at: eb.ref('excluded.evaluated_at'),
            })),
          )
          .execute();
      }
    });
  }

  /** The organisation's live plans that have no result yet, or one older than the plan's last change. */
  async hasUnevaluatedPlans(organizationId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('plans as p')
      .leftJoin('plan_preflight_results as r', 'r.plan_id', 'p.id')
      .select('p.id')
      .where('p.organization_id', '=', organizationId)
      .where('p.deleted_at', 'is', null)
      .where((eb) => eb.or([eb('r.plan_id', 'is', null), eb('r.evaluated_at', '<', eb.ref('p.updated_at'))]))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  list(
    organizationId: string,
    filter: PreflightFilter,
    page: Page,
  ): Promise<PageResult<StoredPreflightResult>> {
    let query = this.db
      .selectFrom('plan_preflight_results')
      .select(['result', 'evaluated_at'])
      .where('organization_id', '=', organizationId);
    if (filter.planId !== undefined) query = query.where('plan_id', '=', filter.planId);
    if (filter.planCode !== undefined) query = query.where('plan_code', '=', filter.planCode);
    if (filter.issuesOnly === true) query = query.where('issue_count', '>', 0);
    return listPage(query.orderBy('plan_code').orderBy('plan_id'), page, (rows) =>
      rows.map((r) => {
        // Results stored before warnings existed carry none.
        const stored = r.result as Omit<PreflightResult, 'summaryWarnings'> & Partial<PreflightResult>;
        return { ...stored, summaryWarnings: stored.summaryWarnings ?? [], evaluatedAt: r.evaluated_at };
      }),
    );
  }

  /** Every organisation that sells a plan: what the periodic re-evaluation walks. */
  async organizationsWithPlans(): Promise<string[]> {
    const rows = await this.db
      .selectFrom('plans')
      .select('organization_id')
      .distinct()
      .where('deleted_at', 'is', null)
      .execute();
    return rows.map((r) => r.organization_id);
  }
}

function groupBy<R, V>(rows: readonly R[], key: (r: R) => string, value: (r: R) => V): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const r of rows) {
    const k = key(r);
    const group = groups.get(k);
    if (group === undefined) groups.set(k, [value(r)]);
    else group.push(value(r));
  }
  return groups;
}
