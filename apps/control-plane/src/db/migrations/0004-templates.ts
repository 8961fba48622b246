import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    sql`CREATE TABLE cloud_init_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      user_data text NOT NULL,
      vendor_data text NOT NULL DEFAULT '',
      network_data text NOT NULL DEFAULT '',
      storage text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, name)
    )`,
    // NO ACTION rather than RESTRICT: deleting an organisation cascades to its nodes and to these rows in
    // one statement, and the check waits for its end.
    sql`CREATE TABLE vm_templates (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      node_id uuid NOT NULL REFERENCES nodes (id),
      cloud_init_template_id uuid NOT NULL REFERENCES cloud_init_templates (id),
      name text NOT NULL,
      distro text NOT NULL,
      template_vmid integer NOT NULL CHECK (template_vmid BETWEEN 100 AND 999999999),
      proxmox_cpu_type text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT vm_templates_node_distro_key UNIQUE (node_id, distro),
      CONSTRAINT vm_templates_node_vmid_key UNIQUE (node_id, template_vmid)
    )`,
    sql`CREATE INDEX vm_templates_cloud_init_template_idx ON vm_templates (cloud_init_template_id)`,
    sql`CREATE INDEX vm_templates_organization_idx ON vm_templates (organization_id)`,
    sql`CREATE TABLE cloud_init_user_data (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
      name text NOT NULL,
      user_data text NOT NULL,
      description text NOT NULL DEFAULT '',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (organization_id, name)
    )`,
  ]);
}
