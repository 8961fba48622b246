import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // Orders no node could take, with each node's reasons: the provider's to read
    // (GET /v1/provider/order-refusals); the customer was only told there was no capacity.
    sql`CREATE TABLE order_refusals (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      plan_id uuid NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
      plan_code text NOT NULL,
      region_id uuid REFERENCES regions (id) ON DELETE SET NULL,
      summary text NOT NULL,
      nodes jsonb NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX order_refusals_organization ON order_refusals (organization_id, created_at)`,
    // A plan sells in several regions (NodeRings' Plan.regionIds[]); each region's nodes of the plan take
    // its orders there. A deleted plan lets go of its regions as it does of its nodes. NO ACTION, as in
    // 0005: deleting a region a plan sells in is refused with 23503.
    sql`CREATE TABLE plan_regions (
      plan_id uuid NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
      region_id uuid NOT NULL REFERENCES regions (id),
      position integer NOT NULL,
      PRIMARY KEY (plan_id, region_id),
      UNIQUE (plan_id, position)
    )`,
    sql`CREATE INDEX plan_regions_region ON plan_regions (region_id)`,
    sql`INSERT INTO plan_regions (plan_id, region_id, position)
      SELECT id, region_id, 0 FROM plans WHERE region_id IS NOT NULL`,
    sql`ALTER TABLE plans DROP COLUMN region_id`,
    // Preflight decides per region: the marketplace lists a plan in the regions where a node passes.
    sql`ALTER TABLE plan_preflight_results ADD COLUMN ready_region_ids uuid[] NOT NULL DEFAULT '{}'`,
    sql`UPDATE plan_preflight_results r SET ready_region_ids = ARRAY(
      SELECT region_id FROM plan_regions WHERE plan_id = r.plan_id) WHERE r.marketplace_ready`,
  ]);
}
