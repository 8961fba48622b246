import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Page, PageResult } from '../../http/pagination.js';

/** Why one node could not take the order, in the provider's terms. */
interface RefusedNode {
  readonly nodeId: string;
  readonly nodeName: string;
  readonly reasons: readonly string[];
}

/** An order no node of the plan could take, as its provider reads it. */
export interface OrderRefusal {
  readonly id: string;
  readonly organizationId: string;
  readonly planId: string;
  readonly planCode: string;
  readonly regionId: string | null;
  /** The whole reason, naming the provider's nodes, platforms and networks. */
  readonly summary: string;
  readonly nodes: readonly RefusedNode[];
  readonly createdAt: Date;
}

export interface NewOrderRefusal {
  readonly planId: string;
  readonly regionId: string;
  readonly summary: string;
  readonly nodes: readonly RefusedNode[];
}

/** How long a refusal is kept: long enough to see a pattern, short enough that the table stays small. */
export const ORDER_REFUSAL_RETENTION_DAYS = 30;

export class OrderRefusalRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records the refusal in the log of the plan's provider, and drops that provider's refusals older than
   * the retention; the plan's code, or undefined when the plan does not exist.
   */
  async record(refusal: NewOrderRefusal): Promise<{ planCode: string } | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .insertInto('order_refusals')
        .columns(['organization_id', 'plan_id', 'plan_code', 'region_id', 'summary', 'nodes'])
        .expression((eb) =>
          eb
            .selectFrom('plans')
            .select([
              'organization_id',
              'id',
              'code',
              eb.val(refusal.regionId).as('region_id'),
              eb.val(refusal.summary).as('summary'),
              eb.val(JSON.stringify(refusal.nodes)).as('nodes'),
            ])
            .where('id', '=', refusal.planId),
        )
        .returning(['organization_id', 'plan_code'])
        .executeTakeFirst();
      if (row === undefined) return undefined;
      await tx
        .deleteFrom('order_refusals')
        .where('organization_id', '=', row.organization_id)
        .where('created_at', '<', sql<Date>`now() - make_interval(days => ${ORDER_REFUSAL_RETENTION_DAYS})`)
        .execute();
      return { planCode: row.plan_code };
    });
  }

  /** The provider's refusals, newest first. */
  list(organizationId: string, page: Page): Promise<PageResult<OrderRefusal>> {
    const query = this.db
      .selectFrom('order_refusals')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('created_at', 'desc')
      .orderBy('id');
    return listPage(query, page, (rows) =>
      rows.map((r) => ({
        id: r.id,
        organizationId: r.organization_id,
        planId: r.plan_id,
        planCode: r.plan_code,
        regionId: r.region_id,
        summary: r.summary,
        nodes: r.nodes,
        createdAt: r.created_at,
      })),
    );
  }
}
