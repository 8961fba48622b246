import { mkdir } from 'node:fs/promises';

import { PGlite } from '@electric-sql/pglite';
import { Kysely, PGliteDialect, PostgresDialect } from 'kysely';
import { Migrator, type MigrationResult } from 'kysely/migration';
import pg from 'pg';

import { MIGRATIONS } from './migrations/index.js';
import type { Database } from './schema.js';

export type DatabaseLocation =
  /** A PostgreSQL server (production, and the tests that run against the machine's server). */
  | { readonly url: string; readonly poolSize?: number }
  /** The embedded PGlite database in a folder (the sandbox, development). */
  | { readonly dataDir: string }
  /** An embedded database that lives only in memory (tests). */
  | { readonly inMemory: true };

export type Db = Kysely<Database>;

/**
 * `onIdleError` hears of a pooled connection the server closed while it was idle (a restart, an admin's
 * terminate): without a listener pg raises it as an uncaught error and the process dies; the pool replaces
 * the connection on its next use.
 */
export async function openDatabase(
  location: DatabaseLocation,
  onIdleError: (error: Error) => void = () => undefined,
): Promise<Db> {
  if ('url' in location) {
    const pool = new pg.Pool({ connectionString: location.url, max: location.poolSize ?? 20 });
    pool.on('error', onIdleError);
    return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  }
  let pglite: PGlite;
  if ('dataDir' in location) {
    await mkdir(location.dataDir, { recursive: true, mode: 0o700 });
    pglite = await PGlite.create(location.dataDir);
  } else {
    pglite = await PGlite.create();
  }
  return new Kysely<Database>({ dialect: new PGliteDialect({ pglite }) });
}

class MigrationFailedError extends Error {
  constructor(
    readonly results: readonly MigrationResult[],
    override readonly cause: unknown,
  ) {
    super(`database migration failed: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Brings the schema to the latest version; several replicas starting at once are serialised by Kysely's lock. */
export async function migrateToLatest(db: Db): Promise<readonly MigrationResult[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(MIGRATIONS) },
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error !== undefined) throw new MigrationFailedError(results, error);
  return results;
}
