import { parseIpAddress } from '@noderings/domain';
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';

import { migrateToLatest, openDatabase } from '../../db/database.js';
import { MIGRATIONS } from '../../db/migrations/index.js';
import { createTestDatabase, DATABASE_KINDS } from '../../db/test-database.test-support.js';

/** The ends of both families, an IPv4-mapped address, and the spellings in between. */
const IPV4 = ['0.0.0.0', '10.0.0.2', '192.0.2.255', '255.255.255.255'];
const IPV6 = [
  '::',
  '::1',
  '::ffff:192.0.2.1',
  '2001:db8::1',
  '2001:db8:0:1::',
  'fe80::1:2:3:4',
  'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
];

describe.each(DATABASE_KINDS)('migration 0007 on the %s database', (kind) => {
  it('gives every allocation written before it the ordinal of its address', async () => {
    const database = await createTestDatabase(kind);
    const db = await openDatabase(database.location);
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(MIGRATIONS) } });
      const { error } = await migrator.migrateTo('0006-placement');
      expect(error).toBeUndefined();
      // As the schema of 0006 had it, in SQL, so that nothing of today's code writes the rows.
      await sql`
        WITH organization AS (
          INSERT INTO organizations (name, type) VALUES ('before 0007', 'ORGANIZATION_TYPE_PROVIDER') RETURNING id
        ), prefixes AS (
          INSERT INTO ipam_prefixes (organization_id, cidr, family, gateway, allocation_strategy,
            vm_assignment_prefix_length)
          SELECT id, cidr, family, gateway, 'ALLOCATION_STRATEGY_SEQUENTIAL', length FROM organization,
            (VALUES ('0.0.0.0/0', 'ipv4', '10.0.0.1', 32), ('::/0', 'ipv6', '2001:db8::2', 128))
              AS p (cidr, family, gateway, length)
          RETURNING id, organization_id, family
        )
        INSERT INTO ip_allocations (prefix_id, organization_id, address, allocated_cidr, allocation_kind, status,
          released_at)
        SELECT p.id, p.organization_id, a.address, a.address || '/0',
          CASE p.family WHEN 'ipv4' THEN 'ipv4_host' ELSE 'ipv6_host' END, s.status,
          CASE s.status WHEN 'IP_ALLOCATION_STATUS_RELEASED' THEN now() END
        FROM prefixes p
        JOIN unnest(${[...IPV4, ...IPV6]}::text[]) AS a (address)
          ON (position(':' IN a.address) > 0) = (p.family = 'ipv6')
        CROSS JOIN (VALUES ('IP_ALLOCATION_STATUS_ACTIVE'), ('IP_ALLOCATION_STATUS_RELEASED')) AS s (status)
      `.execute(db);

      await migrateToLatest(db);
      const rows = await db.selectFrom('ip_allocations').select(['address', 'address_ordinal']).execute();
      expect(rows).toHaveLength(2 * (IPV4.length + IPV6.length));
      for (const r of rows)
        expect([r.address, BigInt(r.address_ordinal)]).toEqual([
          r.address,
          parseIpAddress(r.address, 'address').value,
        ]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
