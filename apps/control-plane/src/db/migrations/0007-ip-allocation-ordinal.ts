import { sql, type Kysely } from 'kysely';

import { runStatements } from './run-statements.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time and must not follow today's schema types */

export async function up(db: Kysely<any>): Promise<void> {
  await runStatements(db, [
    // The address as an unsigned integer (128 bits for IPv6, hence numeric): inet's binary form, after its
    // four header bytes, is the address in network byte order, read here 32 bits at a time.
    sql`CREATE FUNCTION ip_address_ordinal(address text) RETURNS numeric
      LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
      AS $$
        SELECT (((('x' || substr(hex, 1, 8))::bit(32)::bigint::numeric * 4294967296
          + ('x' || substr(hex, 9, 8))::bit(32)::bigint) * 4294967296
          + ('x' || substr(hex, 17, 8))::bit(32)::bigint) * 4294967296
          + ('x' || substr(hex, 25, 8))::bit(32)::bigint)
        FROM (SELECT lpad(encode(substring(inet_send(address::inet) FROM 5), 'hex'), 32, '0') AS hex) AS a
      $$`,
    // Generated, so that it can never disagree with the address, whoever writes the row; adding it fills it
    // in for every existing row.
    sql`ALTER TABLE ip_allocations ADD COLUMN address_ordinal numeric(39, 0) NOT NULL
      GENERATED ALWAYS AS (ip_address_ordinal(address)) STORED`,
    // What allocation walks: a prefix's active addresses in order, from any point, in either direction.
    sql`CREATE UNIQUE INDEX ip_allocations_active_ordinal ON ip_allocations (prefix_id, address_ordinal)
      WHERE status = 'IP_ALLOCATION_STATUS_ACTIVE'`,
  ]);
}
