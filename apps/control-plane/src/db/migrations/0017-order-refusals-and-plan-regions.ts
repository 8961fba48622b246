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
  ]);
}
