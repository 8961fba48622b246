import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // What the VM's cloud-init was compiled from (host name, SSH key ids, password hash, user data),
    // sealed like the compiled documents: an order retried on another node is compiled again for that
    // node's network. Empty for VMs ordered before, which are not retried.
    sql`ALTER TABLE virtual_machines ADD COLUMN cloud_init_request_ciphertext text NOT NULL DEFAULT ''`,
  ]);
}
