import type { Kysely, RawBuilder } from 'kysely';

/** Runs DDL one statement at a time: the extended query protocol refuses several commands in one. */
export async function runStatements(
  db: Kysely<unknown>,
  statements: readonly RawBuilder<unknown>[],
): Promise<void> {
  for (const statement of statements) await statement.execute(db);
}
