import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // What an agent's operator last reported of its Proxmox (the ProxmoxInventory resource): node names
    // and the template VMIDs on each, which node and VM-template forms and preflight check against.
    // `nodes` is NULL until a report was read; `read_error` says why the last read found none.
    sql`CREATE TABLE proxmox_inventories (
      agent_id uuid PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE,
      nodes jsonb,
      observed_at timestamptz,
      read_error text NOT NULL DEFAULT '',
      read_at timestamptz NOT NULL
    )`,
    // A failed order: the provider's own words (Proxmox's message) kept apart from what the customer
    // sees, the nodes it already failed on (a retry goes elsewhere), and when it finally failed.
    sql`ALTER TABLE virtual_machines ADD COLUMN failure_detail text NOT NULL DEFAULT ''`,
    sql`ALTER TABLE virtual_machines ADD COLUMN failed_node_ids uuid[] NOT NULL DEFAULT '{}'`,
    sql`ALTER TABLE virtual_machines ADD COLUMN failed_at timestamptz`,
  ]);
}
