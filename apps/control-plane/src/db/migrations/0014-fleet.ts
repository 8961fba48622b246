import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // A provider's grouping of node agents (a Kubernetes cluster's DaemonSet, a site's hosts).
    sql`CREATE TABLE fleet_environments (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, name)
    )`,
    // What agents enroll with (`nrf_…`); only the SHA-256 is kept. Reusable until it expires or is revoked.
    sql`CREATE TABLE fleet_install_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      environment_id uuid NOT NULL REFERENCES fleet_environments (id) ON DELETE CASCADE,
      description text NOT NULL,
      token_hash bytea NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      last_used_at timestamptz,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE INDEX fleet_install_tokens_environment ON fleet_install_tokens (environment_id, created_at)`,
    // One record per enrolled identity, bound to the agent's current nkey public key. A released record
    // is kept for history; its name and key are free again.
    sql`CREATE TABLE fleet_agents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      environment_id uuid NOT NULL REFERENCES fleet_environments (id) ON DELETE CASCADE,
      agent_type text NOT NULL CHECK (agent_type IN ('host', 'k8s-node-monitor', 'collector')),
      name text NOT NULL,
      public_key text NOT NULL,
      key_bound_at timestamptz NOT NULL,
      rebound_at timestamptz,
      install_token_id uuid REFERENCES fleet_install_tokens (id) ON DELETE SET NULL,
      version text NOT NULL,
      hostname text NOT NULL,
      machine_id text,
      system_uuid text,
      heartbeat_interval_seconds integer NOT NULL,
      collectors jsonb NOT NULL DEFAULT '[]',
      last_seen_at timestamptz,
      last_heartbeat_at timestamptz,
      enrolled_at timestamptz NOT NULL,
      released_at timestamptz
    )`,
    // Enrollment is idempotent by (environment, type, name): one live record each, however many enroll at once.
    sql`CREATE UNIQUE INDEX fleet_agents_live_identity ON fleet_agents (environment_id, agent_type, name)
      WHERE released_at IS NULL`,
    // A subject names its publisher by key: a key belongs to one live record at most.
    sql`CREATE UNIQUE INDEX fleet_agents_live_key ON fleet_agents (public_key) WHERE released_at IS NULL`,
    sql`CREATE INDEX fleet_agents_organization ON fleet_agents (organization_id, enrolled_at)`,
    // Keys a record was bound to before a re-bind: their holders are told the record moved on (410).
    sql`CREATE TABLE fleet_agent_retired_keys (
      agent_id uuid NOT NULL REFERENCES fleet_agents (id) ON DELETE CASCADE,
      public_key text NOT NULL,
      retired_at timestamptz NOT NULL,
      PRIMARY KEY (agent_id, public_key)
    )`,
    // Every stored message, by the agent's message id: a redelivered or republished message changes nothing.
    sql`CREATE TABLE fleet_message_ids (
      agent_id uuid NOT NULL REFERENCES fleet_agents (id) ON DELETE CASCADE,
      message_id uuid NOT NULL,
      received_at timestamptz NOT NULL,
      PRIMARY KEY (agent_id, message_id)
    )`,
    sql`CREATE INDEX fleet_message_ids_received ON fleet_message_ids (received_at)`,
    sql`CREATE TABLE fleet_clusters (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      environment_id uuid NOT NULL REFERENCES fleet_environments (id) ON DELETE CASCADE,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (environment_id, name)
    )`,
    // Node-host linkage: a host (node) name belongs to one cluster of its environment.
    sql`CREATE TABLE fleet_cluster_hosts (
      cluster_id uuid NOT NULL REFERENCES fleet_clusters (id) ON DELETE CASCADE,
      environment_id uuid NOT NULL REFERENCES fleet_environments (id) ON DELETE CASCADE,
      hostname text NOT NULL,
      linked_at timestamptz NOT NULL,
      PRIMARY KEY (cluster_id, hostname),
      UNIQUE (environment_id, hostname)
    )`,
    // A series is an agent's metric name and labels (cluster_id included, when the backend added it);
    // key_hash (hex SHA-256 of agent, name and sorted labels) is its identity.
    sql`CREATE TABLE fleet_series (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      environment_id uuid NOT NULL REFERENCES fleet_environments (id) ON DELETE CASCADE,
      agent_id uuid NOT NULL REFERENCES fleet_agents (id) ON DELETE CASCADE,
      cluster_id uuid,
      name text NOT NULL,
      labels jsonb NOT NULL,
      key_hash text NOT NULL UNIQUE,
      last_sample_at timestamptz,
      last_value double precision
    )`,
    sql`CREATE INDEX fleet_series_agent ON fleet_series (agent_id, name)`,
    sql`CREATE INDEX fleet_series_environment ON fleet_series (environment_id, name)`,
    sql`CREATE INDEX fleet_series_cluster ON fleet_series (cluster_id, name) WHERE cluster_id IS NOT NULL`,
    sql`CREATE TABLE fleet_samples (
      series_id bigint NOT NULL REFERENCES fleet_series (id) ON DELETE CASCADE,
      ts timestamptz NOT NULL,
      value double precision NOT NULL,
      PRIMARY KEY (series_id, ts)
    )`,
    // Samples arrive roughly in time order: a BRIN index finds the old ones to prune for little space.
    sql`CREATE INDEX fleet_samples_time ON fleet_samples USING brin (ts)`,
    sql`CREATE TABLE fleet_logs (
      id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      environment_id uuid NOT NULL REFERENCES fleet_environments (id) ON DELETE CASCADE,
      agent_id uuid NOT NULL REFERENCES fleet_agents (id) ON DELETE CASCADE,
      ts timestamptz NOT NULL,
      stream text NOT NULL CHECK (stream IN ('stdout', 'stderr')),
      line text NOT NULL,
      fields jsonb NOT NULL,
      k8s_namespace text,
      k8s_pod text,
      k8s_container text,
      k8s_pod_uid text
    )`,
    sql`CREATE INDEX fleet_logs_organization_time ON fleet_logs (organization_id, ts DESC, id DESC)`,
    sql`CREATE INDEX fleet_logs_environment_time ON fleet_logs (environment_id, ts DESC, id DESC)`,
    sql`CREATE INDEX fleet_logs_agent_time ON fleet_logs (agent_id, ts DESC, id DESC)`,
    sql`CREATE INDEX fleet_logs_pod ON fleet_logs (environment_id, k8s_namespace, k8s_pod text_pattern_ops)`,
    // What the heartbeats' integration collectors found on a host (the integration-to-asset bridge).
    sql`CREATE TABLE fleet_assets (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      environment_id uuid NOT NULL REFERENCES fleet_environments (id) ON DELETE CASCADE,
      agent_id uuid REFERENCES fleet_agents (id) ON DELETE SET NULL,
      host_name text NOT NULL,
      asset_type text NOT NULL,
      integration text NOT NULL,
      target text NOT NULL,
      status text NOT NULL,
      details jsonb NOT NULL,
      first_seen_at timestamptz NOT NULL,
      last_seen_at timestamptz NOT NULL,
      UNIQUE (environment_id, host_name, integration, target)
    )`,
  ]);
}
