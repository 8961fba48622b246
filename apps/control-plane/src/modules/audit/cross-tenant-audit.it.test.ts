import { randomUUID } from 'node:crypto';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { CROSS_TENANT_ACTION } from './cross-tenant-audit.js';
import { TENANT_OBJECT_TABLES } from './tenant-objects.js';

interface AuditEventView {
  action: string;
  actorKind: string;
  actorId: string | null;
  actorOrganizationId: string | null;
  targetType: string | null;
  targetId: string | null;
  statusCode: number;
  route: string | null;
}

/** Tables with an organisation's rows that no route names by id, or that belong to no single tenant. */
const NOT_NAMED_BY_ID = new Set([
  'organizations',
  'users',
  'audit_events',
  'install_tokens',
  'plan_prices',
  // Listed only, at GET /v1/provider/order-refusals.
  'order_refusals',
]);

describe.each(DATABASE_KINDS)('attempts on another organization’s objects on the %s database', (kind) => {
  let t: TestControlPlane;
  let victim: Caller & { organizationId: string; userId: string };
  let attacker: Caller & { organizationId: string; userId: string };
  let secretId: string;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    victim = await t.register();
    attacker = await t.register();
    const secret = await t.call<{ id?: string; secret?: { id: string } }>('POST', '/v1/secrets', {
      as: victim,
      body: { key: 'DB_PASSWORD', value: 'hunter2-hunter2' },
    });
    secretId = secret.body.secret?.id ?? secret.body.id ?? '';
    expect(secretId).not.toBe('');
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  const crossTenantEvents = async (of: Caller) =>
    (
      await t.call<{ events: AuditEventView[] }>('GET', `/v1/audit-events?action=${CROSS_TENANT_ACTION}`, {
        as: of,
      })
    ).body.events;

  async function eventually<T>(read: () => Promise<T[]>, count: number): Promise<T[]> {
    for (let i = 0; i < 100; i++) {
      const found = await read();
      if (found.length >= count) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    return read();
  }

  it('records the attempt where the victim’s admins read it, and the caller sees only a 404', async () => {
    const randomId = randomUUID();
    const unknown = await t.call('GET', `/v1/secrets/${randomId}`, { as: attacker });
    const foreign = await t.call('GET', `/v1/secrets/${secretId}`, { as: attacker });
    expect([unknown.status, foreign.status]).toEqual([404, 404]);
    // Same answer for an id of another organisation as for one that exists nowhere, but for the id itself.
    expect(foreign.body).toEqual(
      JSON.parse(JSON.stringify(unknown.body).replaceAll(randomId, secretId)) as Record<string, unknown>,
    );
    const events = await eventually(() => crossTenantEvents(victim), 1);
    expect(events).toEqual([
      expect.objectContaining({
        actorKind: 'session',
        actorId: attacker.userId,
        actorOrganizationId: attacker.organizationId,
        targetType: 'secret',
        targetId: secretId,
        statusCode: 404,
        route: 'GET /v1/secrets/{id}',
      }),
    ]);
    // Nothing about it in the attacker's own log, and nothing anywhere about the id that exists nowhere.
    expect(await crossTenantEvents(attacker)).toEqual([]);
    const stray = await t.cp.db
      .selectFrom('audit_events')
      .select('id')
      .where('target_id', '=', randomId)
      .execute();
    expect(stray).toEqual([]);
  });

  it('records a service-account token’s attempt, on a mutating route too', async () => {
    const account = await t.call<{ serviceAccount: { id: string } }>('POST', '/v1/service-accounts', {
      as: attacker,
      body: { name: 'scanner', role: 'MEMBER_ROLE_ADMIN' },
    });
    const minted = await t.call<{ token: string }>(
      'POST',
      `/v1/service-accounts/${account.body.serviceAccount.id}/tokens`,
      { as: attacker, body: { name: 'scan' } },
    );
    const before = (await crossTenantEvents(victim)).length;
    const attempt = await t.call('PATCH', `/v1/secrets/${secretId}`, {
      as: { token: minted.body.token },
      body: { value: 'overwritten' },
    });
    expect(attempt.status).toBe(404);
    const events = await eventually(() => crossTenantEvents(victim), before + 1);
    expect(events[0]).toMatchObject({
      actorKind: 'service_account',
      actorId: account.body.serviceAccount.id,
      actorOrganizationId: attacker.organizationId,
      route: 'PATCH /v1/secrets/{id}',
      targetId: secretId,
    });
  });

  it('does not count a member of both organizations who chose the other one', async () => {
    const both = await t.register();
    await t.addMember(victim, both, 'admin');
    const before = (await crossTenantEvents(victim)).length;
    // Their own organisation selected: the victim's secret is not found there.
    expect((await t.call('GET', `/v1/secrets/${secretId}`, { as: { token: both.token } })).status).toBe(404);
    // A real attempt after it, to know the first one's turn has passed.
    expect((await t.call('GET', `/v1/secrets/${secretId}`, { as: attacker })).status).toBe(404);
    const events = await eventually(() => crossTenantEvents(victim), before + 1);
    expect(events.slice(0, events.length - before).map((e) => e.actorId)).toEqual([attacker.userId]);
  });

  it('looks ids up in every table whose rows belong to an organization', async () => {
    const tables = await sql<{ table_name: string }>`
      SELECT c.table_name FROM information_schema.columns c
      JOIN information_schema.columns o ON o.table_schema = c.table_schema AND o.table_name = c.table_name
        AND o.column_name LIKE '%organization_id'
      WHERE c.table_schema = 'public' AND c.column_name = 'id' AND c.data_type = 'uuid'
      GROUP BY c.table_name ORDER BY c.table_name`.execute(t.cp.db);
    const listed = new Set(TENANT_OBJECT_TABLES.map((o) => o.table as string));
    expect(
      tables.rows.map((r) => r.table_name).filter((n) => !listed.has(n) && !NOT_NAMED_BY_ID.has(n)),
    ).toEqual([]);
  });
});
