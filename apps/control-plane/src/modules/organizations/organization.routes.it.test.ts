import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

const REGION = { cityCountryId: 'fr-par', datacenterId: 'equinix-pa3' };

describe.each(DATABASE_KINDS)('organizations, memberships and the audit log on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  it('selects the tenant with X-Organization-ID among the caller’s memberships only', async () => {
    const alice = await t.register('ORGANIZATION_TYPE_CLIENT');
    const created = await t.call<{ organization: { id: string } }>('POST', '/v1/organizations', {
      as: { token: alice.token },
      body: { name: 'Alice Hosting', type: 'ORGANIZATION_TYPE_PROVIDER' },
    });
    expect(created.status).toBe(201);
    const providerId = created.body.organization.id;

    const mine = await t.call<{ organizations: { id: string; role: string }[] }>('GET', '/v1/organizations', {
      as: { token: alice.token },
    });
    expect(mine.body.organizations.map((o) => [o.id, o.role])).toEqual([
      [alice.organizationId, 'MEMBER_ROLE_OWNER'],
      [providerId, 'MEMBER_ROLE_OWNER'],
    ]);
    // Without the header the first organization is the tenant; the header switches to the other.
    const first = await t.call<{ organization: { id: string } }>('GET', '/v1/organization', {
      as: { token: alice.token },
    });
    expect(first.body.organization.id).toBe(alice.organizationId);
    const second = await t.call<{ organization: { id: string } }>('GET', '/v1/organization', {
      as: { token: alice.token, organizationId: providerId },
    });
    expect(second.body.organization.id).toBe(providerId);

    const stranger = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const refused = await t.call('GET', '/v1/organization', {
      as: { token: alice.token, organizationId: stranger.organizationId },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PERMISSION_DENIED');
    const malformed = await t.call('GET', '/v1/organization', {
      as: { token: alice.token, organizationId: 'not-a-uuid' },
    });
    expect(malformed.status).toBe(400);
  });

  it('enforces roles: members read, admins write, only owners grant ownership, an owner always remains', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const admin = await t.register('ORGANIZATION_TYPE_CLIENT');
    const member = await t.register('ORGANIZATION_TYPE_CLIENT');
    const asOwner = { token: owner.token, organizationId: owner.organizationId };
    const asAdmin = { token: admin.token, organizationId: owner.organizationId };
    const asMember = { token: member.token, organizationId: owner.organizationId };
    await t.addMember(asOwner, admin, 'admin');
    await t.addMember(asOwner, member, 'member');

    expect((await t.call('GET', '/v1/regions', { as: asMember })).status).toBe(200);
    const memberWrite = await t.call('POST', '/v1/regions', { as: asMember, body: REGION });
    expect(memberWrite.status).toBe(403);
    expect((await t.call('POST', '/v1/regions', { as: asAdmin, body: REGION })).status).toBe(201);

    const adminGrantsOwner = await t.call('PATCH', `/v1/organization/members/${member.userId}`, {
      as: asAdmin,
      body: { role: 'MEMBER_ROLE_OWNER' },
    });
    expect(adminGrantsOwner.status).toBe(403);
    const adminRemovesOwner = await t.call('DELETE', `/v1/organization/members/${owner.userId}`, {
      as: asAdmin,
    });
    expect(adminRemovesOwner.status).toBe(403);
    const lastOwner = await t.call('PATCH', `/v1/organization/members/${owner.userId}`, {
      as: asOwner,
      body: { role: 'MEMBER_ROLE_ADMIN' },
    });
    expect(lastOwner.status).toBe(412);
    expect(
      (
        await t.call('PATCH', `/v1/organization/members/${member.userId}`, {
          as: asAdmin,
          body: { role: 'MEMBER_ROLE_ADMIN' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await t.call('DELETE', `/v1/organization/members/${member.userId}`, { as: asOwner })).status,
    ).toBe(200);
    expect((await t.call('GET', '/v1/regions', { as: asMember })).status).toBe(403);
  });

  it('records every mutating call in the audit log, readable by admins of that organization only', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const as = { token: owner.token, organizationId: owner.organizationId };
    const region = await t.call<{ id: string }>('POST', '/v1/regions', {
      as,
      body: { cityCountryId: 'gb-lon', datacenterId: 'equinix-ld8' },
    });
    await t.call('POST', '/v1/regions', {
      as,
      body: { cityCountryId: 'gb-lon', datacenterId: 'equinix-ld8' },
    });
    await t.call('DELETE', `/v1/regions/${region.body.id}`, { as });

    const log = await t.call<{
      events: {
        action: string;
        actorId: string;
        targetId: string | null;
        statusCode: number;
        actorKind: string;
      }[];
      totalCount: number;
    }>('GET', '/v1/audit-events?action=region.create', { as });
    expect(log.body.events.map((e) => [e.action, e.statusCode])).toEqual([
      ['region.create', 409],
      ['region.create', 201],
    ]);
    expect(log.body.events[1]).toMatchObject({
      actorKind: 'session',
      actorId: owner.userId,
      targetId: region.body.id,
    });
    const deletes = await t.call<{ events: { targetId: string }[] }>(
      'GET',
      '/v1/audit-events?action=region.delete',
      { as },
    );
    expect(deletes.body.events.map((e) => e.targetId)).toEqual([region.body.id]);

    const other = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const theirs = await t.call<{ totalCount: number; events: { action: string }[] }>(
      'GET',
      '/v1/audit-events',
      { as: { token: other.token } },
    );
    expect(theirs.body.events.map((e) => e.action)).toEqual(['user.register']);

    const member = await t.register('ORGANIZATION_TYPE_CLIENT');
    await t.addMember(as, member, 'member');
    expect(
      (
        await t.call('GET', '/v1/audit-events', {
          as: { token: member.token, organizationId: owner.organizationId },
        })
      ).status,
    ).toBe(403);
  });

  it('serves health, readiness, metrics, the OpenAPI document and request ids', async () => {
    expect((await t.call('GET', '/healthz')).status).toBe(200);
    expect((await t.call('GET', '/readyz')).body).toEqual({ status: 'ready' });
    const openapi = await t.call<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining(['/v1/regions', '/v1/organizations/{id}:verify']),
    );
    const metrics = await fetch(`${t.url}/metrics`);
    expect(await metrics.text()).toMatch(
      /nr_http_requests_total\{method="GET",route="\/readyz",status="200"\} 1/,
    );
    const traced = await fetch(`${t.url}/healthz`, { headers: { 'x-request-id': 'trace-123' } });
    expect(traced.headers.get('x-request-id')).toBe('trace-123');
    const unknownRoute = await t.call('GET', '/v1/nothing-here');
    expect(unknownRoute).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' } });
  });
});
