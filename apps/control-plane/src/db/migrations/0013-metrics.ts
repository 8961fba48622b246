import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // What an agent's metrics forwarder (Alloy) authenticates with; only token hashes are kept. A rotation
    // keeps the previous token working until `previous_valid_until`, so the agent can be updated first.
    sql`CREATE TABLE metrics_write_credentials (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      name text NOT NULL,
      token_hash bytea NOT NULL UNIQUE,
      previous_token_hash bytea UNIQUE,
      previous_valid_until timestamptz,
      last_used_at timestamptz,
      rotated_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX metrics_write_credentials_agent ON metrics_write_credentials (agent_id, created_at)`,
    // The last pve_up of each host (node/…, cluster/…) behind a platform's endpoint.
    sql`CREATE TABLE platform_metric_hosts (
      platform_id uuid NOT NULL REFERENCES platforms (id) ON DELETE CASCADE,
      host text NOT NULL,
      up boolean NOT NULL,
      sampled_at timestamptz NOT NULL,
      PRIMARY KEY (platform_id, host)
    )`,
    // The power state the hypervisor reports for a VM (pve_up of its guest), beside the operator's view.
    sql`ALTER TABLE virtual_machines
      ADD COLUMN reported_power_state text CHECK (reported_power_state IN ('Running', 'Stopped')),
      ADD COLUMN reported_power_state_at timestamptz`,
    // The last sample applied per VM and series: what makes a replayed sample change nothing, and what a
    // counter's next sample is compared with. A row without a sample is only there to be locked.
    sql`CREATE TABLE vm_metric_cursors (
      vm_id uuid NOT NULL REFERENCES virtual_machines (id) ON DELETE CASCADE,
      metric text NOT NULL,
      sampled_at timestamptz,
      value double precision,
      PRIMARY KEY (vm_id, metric)
    )`,
    // Chart points: 60 s buckets kept 48 hours, 3,600 s buckets kept 90 days. Gauges keep sum, count and
    // max; counters keep the increase (bytes) in sum.
    sql`CREATE TABLE vm_metric_rollups (
      vm_id uuid NOT NULL REFERENCES virtual_machines (id) ON DELETE CASCADE,
      metric text NOT NULL,
      resolution_seconds integer NOT NULL CHECK (resolution_seconds IN (60, 3600)),
      bucket timestamptz NOT NULL,
      sum double precision NOT NULL,
      count integer NOT NULL,
      max double precision NOT NULL,
      PRIMARY KEY (vm_id, metric, resolution_seconds, bucket)
    )`,
    sql`CREATE INDEX vm_metric_rollups_retention ON vm_metric_rollups (resolution_seconds, bucket)`,
    // Traffic per VM, hour and direction: summed over the plan's bandwidth period for billing.
    sql`CREATE TABLE vm_bandwidth_usage (
      vm_id uuid NOT NULL REFERENCES virtual_machines (id) ON DELETE CASCADE,
      hour timestamptz NOT NULL,
      direction text NOT NULL CHECK (direction IN ('egress', 'ingress')),
      bytes bigint NOT NULL,
      PRIMARY KEY (vm_id, hour, direction)
    )`,
  ]);
}
