import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // A deleted plan lets go of its region and nodes (so they can be removed) but keeps everything else,
    // for the VMs sold from it. Region and node references are NO ACTION, not RESTRICT: PostgreSQL 17
    // (PGlite) reports a RESTRICT refusal as 23001, NO ACTION as the 23503 the API maps to 412 everywhere.
    sql`CREATE TABLE plans (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      code text NOT NULL,
      name text NOT NULL,
      compute_category text NOT NULL,
      compute_type text NOT NULL,
      vcpus integer NOT NULL CHECK (vcpus > 0),
      ram_gb integer NOT NULL CHECK (ram_gb > 0),
      disk_gb integer NOT NULL CHECK (disk_gb > 0),
      bandwidth_allowance_gb integer NOT NULL CHECK (bandwidth_allowance_gb >= 0),
      bandwidth_period text NOT NULL,
      network_rate_limit_mbps integer NOT NULL CHECK (network_rate_limit_mbps >= 0),
      cpu_units integer NOT NULL CHECK (cpu_units > 0),
      cpu_limit numeric(5, 2) NOT NULL CHECK (cpu_limit >= 0),
      billing_type text NOT NULL,
      currency text NOT NULL,
      setup_fee numeric(18, 6) NOT NULL CHECK (setup_fee >= 0),
      trial_days integer NOT NULL CHECK (trial_days >= 0),
      region_id uuid REFERENCES regions (id),
      is_public boolean NOT NULL,
      on_credit_exhaustion text NOT NULL,
      revision integer NOT NULL DEFAULT 1,
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (deleted_at IS NOT NULL OR region_id IS NOT NULL)
    )`,
    sql`CREATE UNIQUE INDEX plans_code ON plans (organization_id, code) WHERE deleted_at IS NULL`,
    sql`CREATE INDEX plans_organization ON plans (organization_id, created_at)`,
    sql`CREATE TABLE plan_prices (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      plan_id uuid NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
      billing_period text NOT NULL,
      currency text NOT NULL,
      unit_amount numeric(18, 6) NOT NULL CHECK (unit_amount >= 0),
      UNIQUE (plan_id, billing_period)
    )`,
    sql`CREATE TABLE plan_nodes (
      plan_id uuid NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
      node_id uuid NOT NULL REFERENCES nodes (id),
      position integer NOT NULL,
      PRIMARY KEY (plan_id, node_id)
    )`,
    sql`CREATE INDEX plan_nodes_node ON plan_nodes (node_id)`,
    sql`CREATE TABLE addons (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      code text NOT NULL,
      name text NOT NULL,
      addon_type text NOT NULL,
      pricing_kind text NOT NULL,
      currency text NOT NULL,
      unit_amount numeric(18, 6) CHECK (unit_amount >= 0),
      percentage_value numeric(7, 4) CHECK (percentage_value BETWEEN 0 AND 100),
      zero_base_fallback_amount numeric(18, 6) CHECK (zero_base_fallback_amount >= 0),
      auto_attach boolean NOT NULL,
      is_public boolean NOT NULL,
      backup_schedule text,
      backup_retention integer CHECK (backup_retention > 0),
      deleted_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CHECK (
        (pricing_kind = 'fixed' AND unit_amount IS NOT NULL AND percentage_value IS NULL
          AND zero_base_fallback_amount IS NULL)
        OR (pricing_kind = 'percentage' AND unit_amount IS NULL AND percentage_value IS NOT NULL
          AND zero_base_fallback_amount IS NOT NULL)
      ),
      CHECK ((backup_schedule IS NULL) = (backup_retention IS NULL))
    )`,
    sql`CREATE UNIQUE INDEX addons_code ON addons (organization_id, code) WHERE deleted_at IS NULL`,
    sql`CREATE INDEX addons_organization ON addons (organization_id, created_at)`,
    sql`CREATE TABLE addon_plans (
      addon_id uuid NOT NULL REFERENCES addons (id) ON DELETE CASCADE,
      plan_id uuid NOT NULL REFERENCES plans (id) ON DELETE CASCADE,
      position integer NOT NULL,
      PRIMARY KEY (addon_id, plan_id)
    )`,
    sql`CREATE INDEX addon_plans_plan ON addon_plans (plan_id)`,
  ]);
}
