import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { describe, expect, it } from 'vitest';

import { migrateToLatest, openDatabase } from '../../db/database.js';
import { MIGRATIONS } from '../../db/migrations/index.js';
import { createTestDatabase, DATABASE_KINDS } from '../../db/test-database.test-support.js';

describe.each(DATABASE_KINDS)('migration 0017 on the %s database', (kind) => {
  it("moves each live plan's region into plan_regions and keeps a ready plan listed there", async () => {
    const database = await createTestDatabase(kind);
    const db = await openDatabase(database.location);
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: () => Promise.resolve(MIGRATIONS) } });
      const { error } = await migrator.migrateTo('0015-account-security');
      expect(error).toBeUndefined();
      // As the schema before 0017 had it, in SQL, so that nothing of today's code writes the rows.
      const { rows } = await sql<{ live: string; deleted: string; region: string }>`
        WITH organization AS (
          INSERT INTO organizations (name, type) VALUES ('before 0017', 'ORGANIZATION_TYPE_PROVIDER') RETURNING id
        ), region AS (
          INSERT INTO regions (organization_id, city_id, datacenter_id)
          SELECT id, 'de-fra', 'own-facility' FROM organization RETURNING id, organization_id
        ), plan AS (
          INSERT INTO plans (organization_id, code, name, compute_category, compute_type, vcpus, ram_gb, disk_gb,
            bandwidth_allowance_gb, bandwidth_period, network_rate_limit_mbps, cpu_units, cpu_limit, billing_type,
            currency, setup_fee, trial_days, region_id, is_public, on_credit_exhaustion, deleted_at, updated_at)
          SELECT region.organization_id, p.code, 'Small', 'COMPUTE_CATEGORY_SHARED_COMPUTE',
            'COMPUTE_TYPE_GENERAL_COMPUTE', 1, 1, p.disk, 0, 'BILLING_PERIOD_MONTH', 0, 1024, 0,
            'BILLING_TYPE_SUBSCRIPTION', 'EUR', 0, 0, CASE WHEN p.deleted THEN NULL ELSE region.id END, true,
            'suspend', CASE WHEN p.deleted THEN now() END, now()
          FROM region, (VALUES ('SC-GC-1C-1G-10', 10, false), ('SC-GC-1C-1G-20', 20, true)) AS p (code, disk, deleted)
          RETURNING id, code, organization_id
        ), result AS (
          INSERT INTO plan_preflight_results (plan_id, organization_id, plan_code, marketplace_ready,
            ipv6_available, issue_count, result)
          SELECT id, organization_id, code, true, false, 0, '{}'::jsonb FROM plan WHERE code = 'SC-GC-1C-1G-10'
          RETURNING plan_id
        )
        SELECT (SELECT plan_id FROM result) AS live,
          (SELECT id FROM plan WHERE code = 'SC-GC-1C-1G-20') AS deleted,
          (SELECT id FROM region) AS region
      `.execute(db);
      const before = rows[0];
      if (before === undefined) throw new Error('nothing was written before 0017');

      await migrateToLatest(db);
      const regions = await db
        .selectFrom('plan_regions')
        .select(['plan_id', 'region_id', 'position'])
        .execute();
      expect(regions).toEqual([{ plan_id: before.live, region_id: before.region, position: 0 }]);
      const ready = await db
        .selectFrom('plan_preflight_results')
        .select('ready_region_ids')
        .where('plan_id', '=', before.live)
        .executeTakeFirstOrThrow();
      expect(ready.ready_region_ids).toEqual([before.region]);
    } finally {
      await db.destroy();
      await database.drop();
    }
  });
});
