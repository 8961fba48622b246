import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // The last preflight of each plan: the whole tree for the provider, and the two facts the marketplace
    // filters on as columns. A plan never evaluated has no row and is not listed.
    sql`CREATE TABLE plan_preflight_results (
      plan_id uuid PRIMARY KEY REFERENCES plans (id) ON DELETE CASCADE,
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      plan_code text NOT NULL,
      marketplace_ready boolean NOT NULL,
      ipv6_available boolean NOT NULL,
      issue_count integer NOT NULL CHECK (issue_count >= 0),
      result jsonb NOT NULL,
      evaluated_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX plan_preflight_results_organization ON plan_preflight_results (organization_id, plan_code)`,
    sql`CREATE INDEX plan_preflight_results_ready ON plan_preflight_results (plan_code)
      WHERE marketplace_ready`,
    // Set by the metrics ingest when it first hears from the platform; until then preflight goes by the
    // platform's agent.
    sql`ALTER TABLE platforms ADD COLUMN metrics_reported_at timestamptz`,
  ]);
}
