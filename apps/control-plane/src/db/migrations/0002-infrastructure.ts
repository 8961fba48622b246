import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

/** Liqo's gateway NodePorts: each agent gets the next one, and the range is Kubernetes' NodePort range. */
const FIRST_GATEWAY_PORT = 30000;
const LAST_GATEWAY_PORT = 32767;

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    sql`CREATE TABLE regions (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      city_id text NOT NULL,
      datacenter_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, city_id, datacenter_id)
    )`,
    sql`CREATE SEQUENCE agent_gateway_port START ${sql.lit(FIRST_GATEWAY_PORT)} MINVALUE ${sql.lit(FIRST_GATEWAY_PORT)} MAXVALUE ${sql.lit(LAST_GATEWAY_PORT)} NO CYCLE`,
    sql`CREATE TABLE agents (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      description text NOT NULL DEFAULT '',
      agent_public_ip text NOT NULL,
      gateway_region text NOT NULL,
      hypervisor_driver text NOT NULL,
      gw_server_service_port integer NOT NULL UNIQUE DEFAULT nextval('agent_gateway_port'),
      provisioned boolean NOT NULL DEFAULT false,
      inbound_peering_state text NOT NULL,
      inbound_peering_error text NOT NULL DEFAULT '',
      inbound_kubeconfig_ciphertext text,
      service_status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, name)
    )`,
    sql`ALTER TABLE access_tokens ADD FOREIGN KEY (agent_id) REFERENCES agents (id) ON DELETE CASCADE`,
    sql`CREATE TABLE install_tokens (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      agent_id uuid NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
      token_hash bytea NOT NULL UNIQUE,
      expires_at timestamptz NOT NULL,
      used_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`,
    sql`CREATE TABLE platforms (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      endpoint_url text NOT NULL,
      driver text NOT NULL,
      agent_id uuid REFERENCES agents (id) ON DELETE RESTRICT,
      service_status text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, endpoint_url)
    )`,
    sql`CREATE TABLE nodes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      platform_id uuid NOT NULL REFERENCES platforms (id) ON DELETE RESTRICT,
      region_id uuid NOT NULL REFERENCES regions (id) ON DELETE RESTRICT,
      name text NOT NULL,
      service_status text NOT NULL,
      maintenance_mode boolean NOT NULL,
      vmid_seed integer NOT NULL CHECK (vmid_seed BETWEEN 100 AND 999999999),
      vm_storage_destination text NOT NULL,
      backup_storage_destination text NOT NULL,
      backup_storage_compression text NOT NULL,
      cpu_overallocate_percent integer NOT NULL CHECK (cpu_overallocate_percent > 0),
      memory_overallocate_percent integer NOT NULL CHECK (memory_overallocate_percent > 0),
      storage_overallocate_percent integer NOT NULL CHECK (storage_overallocate_percent > 0),
      compute_type text NOT NULL,
      network_bridge text NOT NULL,
      network_name text NOT NULL,
      network_model text NOT NULL,
      network_vlan_id integer NOT NULL CHECK (network_vlan_id BETWEEN 0 AND 4094),
      mac_address_prefix text NOT NULL,
      proxmox_cpu_type text NOT NULL,
      inventory jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (platform_id, name)
    )`,
    sql`CREATE INDEX nodes_organization ON nodes (organization_id, created_at)`,
  ]);
}
