import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // A reinstall recreates the guest: the generation that asked for it, and the last one the dispatcher
    // has seen through (old resource gone, new one ordered).
    sql`ALTER TABLE virtual_machines
      ADD COLUMN reinstall_generation integer NOT NULL DEFAULT 0,
      ADD COLUMN reinstalled_generation integer NOT NULL DEFAULT 0`,
  ]);
}
