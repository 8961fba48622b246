import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type Caller, type TestControlPlane } from '../control-plane.test-support.js';
import { DATABASE_KINDS } from '../db/test-database.test-support.js';
import { hostileRequest, MALFORMED_REQUESTS, type HostileRequest } from './hostile-request.test-support.js';
import { documentedOperations, fillPath, type Operation } from './openapi-operations.test-support.js';
import { createTenantFixture, fixtureValueFor, type TenantFixture } from './tenant-fixture.test-support.js';

const GENERATED_PER_ROUTE = 12;
const SEED = 20261202;
const ANY_UUID = '00000000-0000-4000-8000-000000000000';
const SETTLE_POLLS = 20;
const SETTLE_POLL_MS = 50;
const FUZZED_METHODS = new Set(['POST', 'PATCH', 'PUT']);
/** Refused calls are recorded on purpose: the audit log and the attempt counters are not "writes". */
const RECORD_TABLES = new Set([
  'audit_events',
  'auth_throttles',
  'kysely_migration',
  'kysely_migration_lock',
]);
/**
 * Columns written by the control plane's own loops, not by requests: credential use (at most once a
 * minute) and the dispatcher's retry bookkeeping for the fixture's VM, whose agent has no cluster.
 */
const BACKGROUND_COLUMNS = [
  'last_used_at',
  'dispatch_attempts',
  'next_dispatch_at',
  'dispatch_error',
  'lease_owner',
  'lease_until',
];
/** Routes that end the caller's own session when they succeed: called with a session of their own. */
const ENDS_SESSION = new Set(['POST /v1/auth/logout']);

/**
 * One digest per table of every row (less BACKGROUND_COLUMNS), in one round trip: an update shows as well
 * as an insert or a delete.
 */
async function databaseDigest(
  t: TestControlPlane,
  tables: readonly string[],
): Promise<Record<string, string>> {
  const background = sql`ARRAY[${sql.join(BACKGROUND_COLUMNS.map((c) => sql.lit(c)))}]`;
  const columns = tables.map(
    (table) => sql`(
      SELECT md5(coalesce(string_agg(row_digest, '' ORDER BY row_digest), ''))
      FROM (SELECT md5((to_jsonb(r) - ${background}::text[])::text) AS row_digest FROM ${sql.table(table)} r) d
    ) AS ${sql.ref(table)}`,
  );
  const result = await sql<Record<string, string>>`SELECT ${sql.join(columns)}`.execute(t.cp.db);
  return result.rows[0] ?? {};
}

/** Polls until two digests in a row agree. */
async function settledDigest(
  t: TestControlPlane,
  tables: readonly string[],
): Promise<Record<string, string>> {
  let previous = await databaseDigest(t, tables);
  for (let i = 0; i < SETTLE_POLLS; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, SETTLE_POLL_MS));
    const current = await databaseDigest(t, tables);
    if (changedTables(previous, current).length === 0) return current;
    previous = current;
  }
  return previous;
}

/** A feature this control plane runs without (fleet enrolment without NATS) answers 503 UNAVAILABLE. */
function isUnconfigured(response: { status: number; text: string }): boolean {
  return response.status === 503 && response.text.includes('"code":"UNAVAILABLE"');
}

function mustRefuse(operation: Operation, request: HostileRequest): boolean {
  return request.refusal === 'always' || (request.refusal === 'byBodySchema' && operation.body !== undefined);
}

function changedTables(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after).filter((table) => before[table] !== after[table]);
}

/**
 * Every POST, PATCH and PUT route of /openapi.json, with generated hostile bodies (unstorable text, huge
 * strings, deep nesting, wrong types, unknown fields, empty and malformed bodies, other media types) sent
 * as a tenant owner to the fixture's own objects, so that bodies the schema lets through reach the
 * services: no answer is a 5xx, and a refused request changes no row.
 */
describe.each(DATABASE_KINDS)('hostile bodies on every documented write route on the %s database', (kind) => {
  let t: TestControlPlane;
  let operations: Operation[];
  let fixture: TenantFixture;
  let staff: Caller;
  let tables: string[];
  beforeAll(async () => {
    // Preflight runs only after changes, which settledDigest waits for; a periodic run would be a write
    // no request made.
    t = await startTestControlPlane(kind, { preflightIntervalSeconds: 0 });
    operations = (await documentedOperations(t)).operations.filter((o) => FUZZED_METHODS.has(o.method));
    fixture = await createTenantFixture(t);
    staff = await t.staff();
    const listed = await sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.tables
      WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`.execute(t.cp.db);
    tables = listed.rows.map((r) => r.table_name).filter((name) => !RECORD_TABLES.has(name));
  }, 60_000);
  afterAll(() => t.close());

  async function callerFor(operation: Operation): Promise<Caller | undefined> {
    if (ENDS_SESSION.has(`${operation.method} ${operation.path}`)) return t.register();
    switch (operation.access.kind) {
      case 'public':
        return undefined;
      case 'staff':
        return staff;
      default:
        return { token: fixture.owner.token, organizationId: fixture.owner.organizationId };
    }
  }

  async function send(
    operation: Operation,
    as: Caller | undefined,
    request: HostileRequest,
  ): Promise<{ status: number; text: string }> {
    const headers: Record<string, string> = {};
    if (as !== undefined) headers.authorization = `Bearer ${as.token}`;
    if (as?.organizationId !== undefined) headers['x-organization-id'] = as.organizationId;
    if (request.payload !== undefined) headers['content-type'] = request.contentType;
    const path = fillPath(
      operation.path,
      (name) => fixtureValueFor(operation.path, name, fixture) ?? ANY_UUID,
    );
    const response = await fetch(`${t.url}${path}`, {
      method: operation.method,
      headers,
      ...(request.payload !== undefined && { body: request.payload }),
    });
    return { status: response.status, text: await response.text() };
  }

  it('answers no 5xx and writes nothing when it refuses', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let digest = await databaseDigest(t, tables);
    let sent = 0;
    for (const operation of operations) {
      const generated =
        operation.body === undefined
          ? []
          : fc.sample(hostileRequest(operation.body), { numRuns: GENERATED_PER_ROUTE, seed: SEED });
      for (const request of [...MALFORMED_REQUESTS, ...generated]) {
        const as = await callerFor(operation);
        if (as !== undefined && ENDS_SESSION.has(`${operation.method} ${operation.path}`))
          digest = await databaseDigest(t, tables);
        const response = await send(operation, as, request);
        sent += 1;
        const where = `${operation.method} ${operation.path} (${request.mutation}): ${String(response.status)} ${response.text.slice(0, 300)}`;
        if (response.status >= 500 && !isUnconfigured(response)) failures.push(where);
        if (mustRefuse(operation, request) && response.status < 400) failures.push(`accepted: ${where}`);
        if (response.status < 400) {
          // What a successful call started (a dispatch, a preflight) ends before the next refusal is judged.
          digest = await settledDigest(t, tables);
          continue;
        }
        const after = await databaseDigest(t, tables);
        const changed = changedTables(digest, after);
        if (changed.length > 0) failures.push(`wrote ${changed.join(', ')}: ${where}`);
        digest = after;
      }
    }
    expect(sent).toBeGreaterThan(1000);
    expect(failures).toEqual([]);
  }, 300_000);
});
