import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type Caller,
  type TestControlPlane,
} from '../control-plane.test-support.js';
import { DATABASE_KINDS } from '../db/test-database.test-support.js';
import { documentedOperations } from './openapi-operations.test-support.js';

/** The routes that create or widen a credential (ADR 0019): a signed-in user's, never a token's. */
const MINTING_ROUTES = [
  'PATCH /v1/organization/members/{userId}',
  'PATCH /v1/service-accounts/{id}',
  'POST /v1/organization/invitations',
  'POST /v1/service-accounts',
  'POST /v1/service-accounts/{id}/tokens',
];

describe.each(DATABASE_KINDS)('credentials only a signed-in user can create, on the %s database', (kind) => {
  let t: TestControlPlane;
  let owner: Caller & { organizationId: string; userId: string };
  let accountId: string;
  let adminToken: Caller;
  let member: { userId: string };
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    owner = await t.register();
    const account = await t.call<{ serviceAccount: { id: string } }>('POST', '/v1/service-accounts', {
      as: owner,
      body: { name: 'automation', role: 'MEMBER_ROLE_ADMIN' },
    });
    accountId = account.body.serviceAccount.id;
    const minted = await t.call<{ token: string }>('POST', `/v1/service-accounts/${accountId}/tokens`, {
      as: owner,
      body: { name: 'pipeline' },
    });
    adminToken = { token: minted.body.token };
    // A member made straight in the database: the invitation that normally does it has its own tests.
    member = await t.register();
    await t.cp.db
      .insertInto('memberships')
      .values({ organization_id: owner.organizationId, user_id: member.userId, role: 'member' })
      .execute();
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  function attempt(route: string, as: Caller) {
    const calls: Record<string, () => Promise<ApiResponse>> = {
      'POST /v1/service-accounts': () =>
        t.call('POST', '/v1/service-accounts', {
          as,
          body: { name: 'persistence', role: 'MEMBER_ROLE_ADMIN' },
        }),
      'PATCH /v1/service-accounts/{id}': () =>
        t.call('PATCH', `/v1/service-accounts/${accountId}`, { as, body: { allowedIps: [] } }),
      'POST /v1/service-accounts/{id}/tokens': () =>
        t.call('POST', `/v1/service-accounts/${accountId}/tokens`, { as, body: { name: 'spare' } }),
      'POST /v1/organization/invitations': () =>
        t.call('POST', '/v1/organization/invitations', {
          as,
          body: { email: 'accomplice@example.test', role: 'MEMBER_ROLE_ADMIN' },
        }),
      'PATCH /v1/organization/members/{userId}': () =>
        t.call('PATCH', `/v1/organization/members/${member.userId}`, {
          as,
          body: { role: 'MEMBER_ROLE_ADMIN' },
        }),
    };
    const call = calls[route];
    if (call === undefined) throw new Error(`no call for ${route}`);
    return call();
  }

  it('marks exactly the credential-minting routes in the API document', async () => {
    const { operations } = await documentedOperations(t);
    const marked = operations
      .filter((o) => o.access.kind === 'tenant' && o.access.signedInUser === true)
      .map((o) => `${o.method} ${o.path}`)
      .sort();
    expect(marked).toEqual(MINTING_ROUTES);
  });

  it('refuses them to an admin service-account token and creates nothing', async () => {
    const before = await counts();
    const answers: string[] = [];
    for (const route of MINTING_ROUTES) {
      const refused = await attempt(route, adminToken);
      answers.push(`${route} → ${String(refused.status)} ${String(refused.body.message)}`);
    }
    expect(answers).toEqual(
      MINTING_ROUTES.map(
        (route) =>
          `${route} → 403 Only a signed-in user can do this: a token may not create or widen credentials.`,
      ),
    );
    expect(await counts()).toEqual(before);
    const log = await t.call<{ events: { actorKind: string; statusCode: number }[] }>(
      'GET',
      '/v1/audit-events?action=serviceAccount.create',
      { as: owner },
    );
    expect(log.body.events[0]).toMatchObject({ actorKind: 'service_account', statusCode: 403 });
  });

  it('lets the signed-in owner do them, and still lets a token revoke', async () => {
    for (const route of MINTING_ROUTES) {
      const done = await attempt(route, owner);
      expect([200, 201], `${route} → ${JSON.stringify(done.body)}`).toContain(done.status);
    }
    const spare = await t.call<{ tokenId: string }>('POST', `/v1/service-accounts/${accountId}/tokens`, {
      as: owner,
      body: { name: 'to revoke' },
    });
    const revoked = await t.call('DELETE', `/v1/service-accounts/tokens/${spare.body.tokenId}`, {
      as: adminToken,
    });
    expect(revoked.status).toBe(200);
  });

  async function counts(): Promise<Record<string, number | undefined>> {
    const count = async (table: 'service_accounts' | 'access_tokens') =>
      Number(
        (
          await t.cp.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const memberRole = await t.cp.db
      .selectFrom('memberships')
      .select('role')
      .where('user_id', '=', member.userId)
      .executeTakeFirstOrThrow();
    return {
      serviceAccounts: await count('service_accounts'),
      tokens: await count('access_tokens'),
      invitations: (
        await t.call<{ totalCount: number }>('GET', '/v1/organization/invitations', { as: owner })
      ).body.totalCount,
      memberIsAdmin: memberRole.role === 'admin' ? 1 : 0,
    };
  }
});
