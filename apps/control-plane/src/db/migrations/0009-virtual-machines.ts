import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // A customer's VM: what was ordered (frozen at order time: later plan or node changes do not touch it),
    // what is wanted now (generation counts every change), and what the agent cluster last reported.
    sql`CREATE TABLE virtual_machines (
      id uuid PRIMARY KEY REFERENCES vm_claims (id),
      client_organization_id uuid NOT NULL REFERENCES organizations (id),
      provider_organization_id uuid NOT NULL REFERENCES organizations (id),
      plan_id uuid NOT NULL REFERENCES plans (id),
      agent_id uuid NOT NULL REFERENCES agents (id),
      node_id uuid REFERENCES nodes (id) ON DELETE SET NULL,
      idempotency_key text NOT NULL,
      request_fingerprint text NOT NULL,
      hostname text NOT NULL,
      distro text NOT NULL,
      tags text[] NOT NULL DEFAULT '{}',
      spec jsonb NOT NULL,
      cloud_init_ciphertext text NOT NULL,
      desired_state text NOT NULL DEFAULT 'PRESENT' CHECK (desired_state IN ('PRESENT', 'ABSENT')),
      desired_power_state text NOT NULL DEFAULT 'Running' CHECK (desired_power_state IN ('Running', 'Stopped')),
      reboot_requested_at timestamptz,
      generation integer NOT NULL DEFAULT 1,
      dispatched_generation integer NOT NULL DEFAULT 0,
      dispatch_attempts integer NOT NULL DEFAULT 0,
      next_dispatch_at timestamptz NOT NULL DEFAULT now(),
      dispatch_error text NOT NULL DEFAULT '',
      lease_owner text,
      lease_until timestamptz,
      observed_phase text NOT NULL DEFAULT '',
      observed_power_state text NOT NULL DEFAULT '',
      observed_message text NOT NULL DEFAULT '',
      observed_conditions jsonb NOT NULL DEFAULT '[]',
      observed_generation integer NOT NULL DEFAULT 0,
      observed_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      deleted_at timestamptz,
      CHECK (deleted_at IS NULL OR desired_state = 'ABSENT')
    )`,
    // DESIGN §4 invariant 3: one VM per order, whatever the retries.
    sql`CREATE UNIQUE INDEX virtual_machines_idempotency ON virtual_machines (client_organization_id, idempotency_key)`,
    sql`CREATE INDEX virtual_machines_client ON virtual_machines (client_organization_id, created_at)
      WHERE deleted_at IS NULL`,
    sql`CREATE INDEX virtual_machines_provider ON virtual_machines (provider_organization_id, created_at)
      WHERE deleted_at IS NULL`,
    // What the dispatcher looks for: VMs whose wanted state the agent cluster has not been given yet.
    sql`CREATE INDEX virtual_machines_dispatch ON virtual_machines (next_dispatch_at)
      WHERE deleted_at IS NULL AND dispatched_generation < generation`,
    sql`CREATE INDEX virtual_machines_agent ON virtual_machines (agent_id) WHERE deleted_at IS NULL`,
  ]);
}
