import { sql, type Kysely, type RawBuilder } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

/**
 * What every table of a VM's resources in its agent cluster shares with `virtual_machines`: the wanted
 * state counted in generations, the dispatcher's lease and backoff, and when the resource was finished.
 */
const DISPATCH_COLUMNS = sql`
  desired_state text NOT NULL DEFAULT 'PRESENT' CHECK (desired_state IN ('PRESENT', 'ABSENT')),
  generation integer NOT NULL DEFAULT 1,
  dispatched_generation integer NOT NULL DEFAULT 0,
  dispatch_attempts integer NOT NULL DEFAULT 0,
  next_dispatch_at timestamptz NOT NULL DEFAULT now(),
  dispatch_error text NOT NULL DEFAULT '',
  lease_owner text,
  lease_until timestamptz,
  observed_phase text NOT NULL DEFAULT '',
  observed_message text NOT NULL DEFAULT '',
  observed_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  CHECK (deleted_at IS NULL OR desired_state = 'ABSENT')`;

/** The dispatcher's look for due rows and status sync's look for an agent's live rows. */
function dispatchIndexes(table: string): RawBuilder<unknown>[] {
  return [
    sql`CREATE INDEX ${sql.raw(`${table}_dispatch`)} ON ${sql.table(table)} (next_dispatch_at)
      WHERE deleted_at IS NULL AND dispatched_generation < generation`,
    sql`CREATE INDEX ${sql.raw(`${table}_agent`)} ON ${sql.table(table)} (agent_id) WHERE deleted_at IS NULL`,
    sql`CREATE INDEX ${sql.raw(`${table}_vm`)} ON ${sql.table(table)} (vm_id, created_at)`,
  ];
}

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // A customer's snapshot of a VM: one VMSnapshot `object_name` in the VM's agent cluster, one Proxmox
    // snapshot `snapshot_name` on the guest. A rollback is a token newer than the last one served.
    sql`CREATE TABLE vm_snapshots (
      id uuid PRIMARY KEY,
      vm_id uuid NOT NULL REFERENCES virtual_machines (id),
      client_organization_id uuid NOT NULL REFERENCES organizations (id),
      agent_id uuid NOT NULL REFERENCES agents (id),
      object_name text NOT NULL UNIQUE,
      snapshot_name text NOT NULL,
      description text NOT NULL DEFAULT '',
      rollback_requested_at timestamptz,
      observed_last_rollback_at timestamptz,
      ${DISPATCH_COLUMNS}
    )`,
    sql`CREATE UNIQUE INDEX vm_snapshots_name ON vm_snapshots (vm_id, snapshot_name) WHERE deleted_at IS NULL`,
    ...dispatchIndexes('vm_snapshots'),
    // Which backup addon a VM's backup policy (in its spec) came from; no row: no policy.
    sql`CREATE TABLE vm_backup_policies (
      vm_id uuid PRIMARY KEY REFERENCES virtual_machines (id),
      addon_id uuid NOT NULL REFERENCES addons (id),
      enabled_at timestamptz NOT NULL DEFAULT now()
    )`,
    // A VMBackup the operator made on the VM's schedule, as status sync found it (`object_uid` tells a
    // new object of the same name from the old one); the customer's deletion and restore requests ride
    // on it as wanted state. `removal` says why a finished backup went.
    sql`CREATE TABLE vm_backups (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      vm_id uuid NOT NULL REFERENCES virtual_machines (id),
      client_organization_id uuid NOT NULL REFERENCES organizations (id),
      agent_id uuid NOT NULL REFERENCES agents (id),
      object_name text NOT NULL,
      object_uid text NOT NULL,
      addon_id uuid REFERENCES addons (id),
      restore_requested_at timestamptz,
      restore_start boolean NOT NULL DEFAULT true,
      observed_volid text NOT NULL DEFAULT '',
      observed_size_bytes bigint NOT NULL DEFAULT 0,
      observed_finished_at timestamptz,
      observed_restore_phase text NOT NULL DEFAULT '',
      observed_restore_requested_at timestamptz,
      observed_restore_message text NOT NULL DEFAULT '',
      restored_at timestamptz,
      removal text CHECK (removal IN ('DELETED', 'EXPIRED')),
      ${DISPATCH_COLUMNS},
      CHECK ((deleted_at IS NULL) = (removal IS NULL))
    )`,
    sql`CREATE UNIQUE INDEX vm_backups_object ON vm_backups (agent_id, object_name) WHERE deleted_at IS NULL`,
    ...dispatchIndexes('vm_backups'),
    // A console session: one VNCRequest, the RFB password and Proxmox ticket it answered (sealed, and
    // cleared once the ticket expires), and the hash of the token the browser relay is opened with.
    sql`CREATE TABLE vm_console_sessions (
      id uuid PRIMARY KEY,
      vm_id uuid NOT NULL REFERENCES virtual_machines (id),
      client_organization_id uuid NOT NULL REFERENCES organizations (id),
      agent_id uuid NOT NULL REFERENCES agents (id),
      object_name text NOT NULL UNIQUE,
      token_hash bytea NOT NULL,
      observed_node text NOT NULL DEFAULT '',
      observed_vmid integer NOT NULL DEFAULT 0,
      observed_port integer NOT NULL DEFAULT 0,
      ticket_ciphertext text,
      password_ciphertext text,
      expires_at timestamptz,
      ${DISPATCH_COLUMNS}
    )`,
    ...dispatchIndexes('vm_console_sessions'),
  ]);
}
