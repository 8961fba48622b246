import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

/**
 * The private and documentation space of the special-purpose registries (RFC 1918, RFC 6598, TEST-NET-1..3,
 * unique local, IPv6 documentation): a prefix inside one of them may repeat across organisations. The
 * domain's SPECIAL_PURPOSE_RANGES says the same (checked equal by this migration's test); when a registry
 * changes, a new migration redefines the column.
 */
export const SHAREABLE_SPACE = [
  '10.0.0.0/8',
  '100.64.0.0/10',
  '172.16.0.0/12',
  '192.0.2.0/24',
  '192.168.0.0/16',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '2001:db8::/32',
  '3fff::/20',
  'fc00::/7',
];

export async function up(db: Kysely<any>): Promise<void> {
  const shareable = sql.join(SHAREABLE_SPACE.map((cidr) => sql`${sql.lit(cidr)}::inet`));
  await runStatements(db, [
    // Computed by the database, so that no write (however it is made) can mislabel a prefix.
    sql`ALTER TABLE ipam_prefixes ADD COLUMN is_public boolean NOT NULL
      GENERATED ALWAYS AS (NOT (cidr::inet <<= ANY (ARRAY[${shareable}]))) STORED`,
    // Two organisations' public prefixes never overlap, however their creates race: a GiST index on the
    // address range (the inet operator class is core PostgreSQL and PGlite). Within one organisation the
    // prefix service already refuses every overlap, so the constraint needs no organisation column.
    sql`ALTER TABLE ipam_prefixes ADD CONSTRAINT ipam_prefixes_public_space
      EXCLUDE USING gist ((cidr::inet) inet_ops WITH &&) WHERE (is_public)`,
  ]);
}
