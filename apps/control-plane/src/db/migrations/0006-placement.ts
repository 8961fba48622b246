import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

const STRATEGIES = sql`(
  'NODE_PLACEMENT_STRATEGY_FIRST_STABLE',
  'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN',
  'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS',
  'NODE_PLACEMENT_STRATEGY_RANDOM'
)`;

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    sql`CREATE TABLE node_placement_policies (
      organization_id uuid PRIMARY KEY REFERENCES organizations (id) ON DELETE CASCADE,
      default_strategy text NOT NULL CHECK (default_strategy IN ${STRATEGIES}),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    // A deleted region takes its override with it.
    sql`CREATE TABLE node_placement_region_overrides (
      organization_id uuid NOT NULL REFERENCES node_placement_policies (organization_id) ON DELETE CASCADE,
      region_id uuid NOT NULL REFERENCES regions (id) ON DELETE CASCADE,
      strategy text NOT NULL CHECK (strategy IN ${STRATEGIES}),
      position integer NOT NULL,
      PRIMARY KEY (organization_id, region_id)
    )`,
    sql`CREATE INDEX node_placement_region_overrides_region ON node_placement_region_overrides (region_id)`,
    // ROUND_ROBIN's place per plan. No foreign key to the node: a cursor on a node since deleted starts over.
    sql`CREATE TABLE node_placement_cursors (
      plan_id uuid PRIMARY KEY REFERENCES plans (id) ON DELETE CASCADE,
      last_node_id uuid NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`,
    // What a VM order holds: capacity on a node, a VMID on the node's platform, a MAC and its addresses.
    // The node, the platform and the addresses' history let go of RELEASED claims when they are deleted
    // (the trigger below refuses to delete a node an ACTIVE claim is on, IPAM a prefix with active
    // addresses), so that history never pins hardware or prefixes that are gone.
    sql`CREATE TABLE vm_claims (
      id uuid PRIMARY KEY,
      client_organization_id uuid NOT NULL REFERENCES organizations (id),
      provider_organization_id uuid NOT NULL REFERENCES organizations (id),
      plan_id uuid NOT NULL REFERENCES plans (id),
      plan_revision integer NOT NULL,
      node_id uuid REFERENCES nodes (id) ON DELETE SET NULL,
      platform_id uuid REFERENCES platforms (id) ON DELETE SET NULL,
      vcpus integer NOT NULL CHECK (vcpus > 0),
      ram_gb integer NOT NULL CHECK (ram_gb > 0),
      disk_gb integer NOT NULL CHECK (disk_gb > 0),
      vmid integer NOT NULL CHECK (vmid BETWEEN 100 AND 999999999),
      mac_address text NOT NULL,
      ipv4_allocation_id uuid REFERENCES ip_allocations (id) ON DELETE SET NULL,
      ipv6_allocation_id uuid REFERENCES ip_allocations (id) ON DELETE SET NULL,
      status text NOT NULL CHECK (status IN ('ACTIVE', 'RELEASED')),
      created_at timestamptz NOT NULL DEFAULT now(),
      released_at timestamptz,
      CHECK ((status = 'RELEASED') = (released_at IS NOT NULL)),
      CHECK (status = 'RELEASED' OR (node_id IS NOT NULL AND platform_id IS NOT NULL
        AND ipv4_allocation_id IS NOT NULL))
    )`,
    // The database's own guarantee of DESIGN §4 invariant 1, whatever the application does: one Proxmox
    // cluster (platform) has one VMID space, and a MAC is held by one VM at a time. text_pattern_ops lets
    // the same index find a prefix's MACs with LIKE under any collation.
    sql`CREATE UNIQUE INDEX vm_claims_active_vmid ON vm_claims (platform_id, vmid) WHERE status = 'ACTIVE'`,
    sql`CREATE UNIQUE INDEX vm_claims_active_mac ON vm_claims (mac_address text_pattern_ops)
      WHERE status = 'ACTIVE'`,
    sql`CREATE INDEX vm_claims_active_node ON vm_claims (node_id) WHERE status = 'ACTIVE'`,
    sql`CREATE INDEX vm_claims_plan ON vm_claims (plan_id)`,
    sql`CREATE INDEX vm_claims_client ON vm_claims (client_organization_id, created_at)`,
    sql`CREATE INDEX vm_claims_provider ON vm_claims (provider_organization_id, created_at)`,
    // 23503 is what a refused node delete reports everywhere else, and the API maps it to 412.
    sql`CREATE FUNCTION vm_claims_refuse_node_delete() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF EXISTS (SELECT 1 FROM vm_claims WHERE node_id = OLD.id AND status = 'ACTIVE') THEN
          RAISE EXCEPTION 'node % still has active VM claims', OLD.id USING ERRCODE = 'foreign_key_violation';
        END IF;
        RETURN OLD;
      END
    $$`,
    sql`CREATE TRIGGER nodes_keep_claimed BEFORE DELETE ON nodes
      FOR EACH ROW EXECUTE FUNCTION vm_claims_refuse_node_delete()`,
  ]);
}
