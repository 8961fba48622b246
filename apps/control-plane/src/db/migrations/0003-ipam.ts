import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    sql`CREATE TABLE ipam_networks (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      dns_servers text[] NOT NULL DEFAULT '{}',
      mac_address_prefix text NOT NULL DEFAULT 'BC:24:11',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT ipam_networks_name_key UNIQUE (organization_id, name)
    )`,
    // References below are NO ACTION, not RESTRICT: deleting an organisation cascades to its nodes,
    // networks, prefixes and allocations in one statement, and NO ACTION waits for its end; PostgreSQL 17
    // (PGlite) also reports a RESTRICT refusal as 23001 rather than the 23503 the API maps to 412.
    sql`ALTER TABLE nodes ADD COLUMN network_id uuid REFERENCES ipam_networks (id)`,
    sql`CREATE INDEX nodes_network ON nodes (network_id) WHERE network_id IS NOT NULL`,
    sql`CREATE TABLE ipam_prefixes (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      network_id uuid REFERENCES ipam_networks (id),
      cidr text NOT NULL,
      family text NOT NULL CHECK (family IN ('ipv4', 'ipv6')),
      gateway text NOT NULL,
      allocation_strategy text NOT NULL,
      description text NOT NULL DEFAULT '',
      vm_assignment_prefix_length integer NOT NULL CHECK (vm_assignment_prefix_length BETWEEN 0 AND 128),
      reserved_ips text[] NOT NULL DEFAULT '{}',
      reserved_prefixes text[] NOT NULL DEFAULT '{}',
      last_allocated text,
      generation integer NOT NULL DEFAULT 1,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT ipam_prefixes_cidr_key UNIQUE (organization_id, cidr)
    )`,
    sql`CREATE INDEX ipam_prefixes_organization ON ipam_prefixes (organization_id, created_at)`,
    sql`CREATE INDEX ipam_prefixes_network ON ipam_prefixes (network_id, family, created_at)`,
    sql`CREATE TABLE ip_allocations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      prefix_id uuid NOT NULL REFERENCES ipam_prefixes (id),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      claim_id uuid,
      address text NOT NULL,
      allocated_cidr text NOT NULL,
      allocation_kind text NOT NULL CHECK (allocation_kind IN ('ipv4_host', 'ipv6_host', 'ipv6_prefix')),
      status text NOT NULL
        CHECK (status IN ('IP_ALLOCATION_STATUS_ACTIVE', 'IP_ALLOCATION_STATUS_RELEASED')),
      created_at timestamptz NOT NULL DEFAULT now(),
      released_at timestamptz,
      CHECK ((status = 'IP_ALLOCATION_STATUS_RELEASED') = (released_at IS NOT NULL))
    )`,
    // The database's own guarantee of DESIGN §4 invariant 1: whatever the application does, one address of
    // a prefix is held by at most one active allocation.
    sql`CREATE UNIQUE INDEX ip_allocations_active_address ON ip_allocations (prefix_id, address)
      WHERE status = 'IP_ALLOCATION_STATUS_ACTIVE'`,
    sql`CREATE INDEX ip_allocations_claim ON ip_allocations (claim_id)
      WHERE status = 'IP_ALLOCATION_STATUS_ACTIVE'`,
    sql`CREATE INDEX ip_allocations_prefix ON ip_allocations (prefix_id, created_at)`,
    sql`CREATE INDEX ip_allocations_organization ON ip_allocations (organization_id, created_at)`,
  ]);
}
