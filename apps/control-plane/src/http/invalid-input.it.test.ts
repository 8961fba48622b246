import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type Caller, type TestControlPlane } from '../control-plane.test-support.js';
import { DATABASE_KINDS } from '../db/test-database.test-support.js';
import { invalidBody, invalidPathValue, invalidQueryValue } from './invalid-input.test-support.js';
import { documentedOperations, fillPath, type Operation } from './openapi-operations.test-support.js';
import { createTenantFixture, type TenantFixture } from './tenant-fixture.test-support.js';

const RUNS_PER_ROUTE = 15;
const ANY_UUID = '00000000-0000-4000-8000-000000000000';
/** Refused calls are recorded on purpose: the audit log and the attempt counters are not "changes". */
const RECORD_TABLES = new Set([
  'audit_events',
  'auth_throttles',
  'kysely_migration',
  'kysely_migration_lock',
]);

interface ErrorBody {
  code?: string;
  details?: { fieldViolations?: { field: string; description: string }[] }[];
}

async function rowCounts(t: TestControlPlane): Promise<Record<string, number>> {
  const tables = await sql<{ table_name: string }>`
    SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`.execute(
    t.cp.db,
  );
  const counts: Record<string, number> = {};
  for (const { table_name: table } of tables.rows) {
    if (RECORD_TABLES.has(table)) continue;
    const result = await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(t.cp.db);
    counts[table] = Number(result.rows[0]?.n);
  }
  return counts;
}

describe.each(DATABASE_KINDS)('invalid input on every documented route on the %s database', (kind) => {
  let t: TestControlPlane;
  let operations: Operation[];
  let fixture: TenantFixture;
  let staff: Caller;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    operations = (await documentedOperations(t)).operations;
    fixture = await createTenantFixture(t);
    staff = await t.staff();
  }, 60_000);
  afterAll(() => t.close());

  function callerFor(operation: Operation): Caller | undefined {
    switch (operation.access.kind) {
      case 'public':
        return undefined;
      case 'staff':
        return staff;
      default:
        return { token: fixture.owner.token, organizationId: fixture.owner.organizationId };
    }
  }

  it('answers 400 with the field path to property-generated invalid bodies, and writes nothing', async () => {
    const withBody = operations.filter((o) => o.body !== undefined);
    expect(withBody.length).toBeGreaterThan(20);
    for (const operation of withBody) {
      const before = await rowCounts(t);
      const schema = operation.body ?? {};
      await fc.assert(
        fc.asyncProperty(invalidBody(schema), async (invalid) => {
          const response = await t.call<ErrorBody>(
            operation.method,
            fillPath(operation.path, () => ANY_UUID),
            {
              as: callerFor(operation),
              body: invalid.body,
            },
          );
          const fields = response.body.details?.[0]?.fieldViolations?.map((v) => v.field) ?? [];
          const where = `${operation.method} ${operation.path} (${invalid.mutation}): ${JSON.stringify(response.body)}`;
          expect(response.status, where).toBe(400);
          expect(response.body.code, where).toBe('INVALID_ARGUMENT');
          expect(fields.length, where).toBeGreaterThan(0);
          if (invalid.field !== '')
            expect(
              fields.some((f) => f === invalid.field || f.startsWith(`${invalid.field}.`)),
              where,
            ).toBe(true);
        }),
        { numRuns: RUNS_PER_ROUTE, seed: 20261130 },
      );
      expect(await rowCounts(t), `${operation.method} ${operation.path} wrote something`).toEqual(before);
    }
  }, 240_000);

  it('answers 400 naming the parameter for invalid path and query parameters', async () => {
    const failures: string[] = [];
    for (const operation of operations) {
      for (const parameter of operation.parameters) {
        const bad =
          parameter.in === 'path' ? invalidPathValue(parameter.schema) : invalidQueryValue(parameter.schema);
        if (bad === undefined) continue;
        const path = fillPath(operation.path, (name) => (name === parameter.name ? bad : ANY_UUID));
        const url =
          parameter.in === 'query'
            ? `${path}?${new URLSearchParams({ [parameter.name]: bad }).toString()}`
            : path;
        const response = await t.call<ErrorBody>(operation.method, url, {
          as: callerFor(operation),
          body: operation.body === undefined ? undefined : {},
        });
        const fields = response.body.details?.[0]?.fieldViolations?.map((v) => v.field) ?? [];
        const expected = `${parameter.in === 'path' ? 'path' : 'query'}.${parameter.name}`;
        if (response.status !== 400 || !fields.includes(expected)) {
          failures.push(
            `${operation.method} ${url}: ${String(response.status)} ${JSON.stringify(fields)} (wanted ${expected})`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('refuses malformed JSON, a wrong content type and an oversized body', async () => {
    const as = {
      authorization: `Bearer ${fixture.owner.token}`,
      'x-organization-id': fixture.owner.organizationId,
    };
    const malformed = await fetch(`${t.url}/v1/regions`, {
      method: 'POST',
      headers: { ...as, 'content-type': 'application/json' },
      body: '{"cityCountryId":',
    });
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as ErrorBody).code).toBe('INVALID_ARGUMENT');
    const wrongType = await fetch(`${t.url}/v1/regions`, {
      method: 'POST',
      headers: { ...as, 'content-type': 'application/xml' },
      body: '<region/>',
    });
    expect(wrongType.status).toBe(415);
    const huge = await fetch(`${t.url}/v1/regions`, {
      method: 'POST',
      headers: { ...as, 'content-type': 'application/json' },
      body: JSON.stringify({ cityCountryId: 'x'.repeat(2 * 1024 * 1024), datacenterId: 'own-facility' }),
    });
    expect(huge.status).toBe(413);
  });
});
