import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ADMIN, startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { LOGIN_LIMITS } from './auth.service.js';

const PASSWORD = 'correct horse battery';

describe.each(DATABASE_KINDS)('sign-up and sign-in on the %s database', (kind) => {
  let t: TestControlPlane;
  let clock = Date.parse('2026-11-30T10:00:00Z');
  beforeAll(async () => {
    t = await startTestControlPlane(kind, { now: () => new Date(clock) });
  });
  afterAll(() => t.close());

  async function register(email: string, type = 'ORGANIZATION_TYPE_CLIENT') {
    return t.call<{
      token: string;
      user: { id: string; email: string };
      organization: { id: string; type: string; isVerified: boolean };
    }>('POST', '/v1/auth/register', {
      body: { email, password: PASSWORD, organizationName: 'Acme', organizationType: type },
    });
  }

  it('registers a user with their first organization and signs them in', async () => {
    const response = await register('Alice@Example.test', 'ORGANIZATION_TYPE_PROVIDER');
    expect(response.status).toBe(201);
    expect(response.body.user.email).toBe('alice@example.test');
    expect(response.body.organization).toMatchObject({
      type: 'ORGANIZATION_TYPE_PROVIDER',
      isVerified: false,
    });
    const me = await t.call<{ organization: { id: string } }>('GET', '/v1/organization', {
      as: { token: response.body.token },
    });
    expect(me.status).toBe(200);
    expect(me.body.organization.id).toBe(response.body.organization.id);

    const stored = await t.cp.db
      .selectFrom('users')
      .select('password_hash')
      .where('email', '=', 'alice@example.test')
      .executeTakeFirstOrThrow();
    expect(stored.password_hash).toMatch(/^\$argon2id\$/);
    const tokens = await t.cp.db.selectFrom('access_tokens').select('token_hash').execute();
    for (const row of tokens)
      expect(Buffer.from(row.token_hash).toString('latin1')).not.toContain(response.body.token);
  });

  it('refuses a second account with the same email, whatever its case', async () => {
    expect((await register('bob@example.test')).status).toBe(201);
    const again = await register('BOB@example.test');
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'ALREADY_EXISTS' });
  });

  it('refuses weak passwords and unknown organization types with field paths', async () => {
    const response = await t.call<{ details: { fieldViolations: { field: string }[] }[] }>(
      'POST',
      '/v1/auth/register',
      {
        body: {
          email: 'carol@example.test',
          password: 'short',
          organizationName: 'C',
          organizationType: 'ORGANIZATION_TYPE_ROBOT',
        },
      },
    );
    expect(response.status).toBe(400);
    expect(response.body.details[0]?.fieldViolations.map((v) => v.field).sort()).toEqual([
      'organizationType',
      'password',
    ]);
    expect(
      await t.cp.db.selectFrom('users').select('id').where('email', '=', 'carol@example.test').execute(),
    ).toEqual([]);
  });

  it('signs in with the right password only, with one message for a wrong password and an unknown account', async () => {
    const registered = await register('dave@example.test');
    const ok = await t.call<{ token: string; organizationId: string; mfaRequired: boolean }>(
      'POST',
      '/v1/auth/login',
      {
        body: { email: 'DAVE@example.test', password: PASSWORD },
      },
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ organizationId: registered.body.organization.id, mfaRequired: false });
    const wrong = await t.call('POST', '/v1/auth/login', {
      body: { email: 'dave@example.test', password: 'not the password' },
    });
    const unknown = await t.call('POST', '/v1/auth/login', {
      body: { email: 'nobody@example.test', password: PASSWORD },
    });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.body.message).toBe(unknown.body.message);
  });

  it('rate-limits failed sign-ins per account, even for the right password afterwards', async () => {
    await register('erin@example.test');
    for (let i = 0; i < LOGIN_LIMITS.perAccount; i++) {
      expect(
        (
          await t.call('POST', '/v1/auth/login', {
            body: { email: 'erin@example.test', password: `wrong ${String(i)}` },
          })
        ).status,
      ).toBe(401);
    }
    const limited = await t.call('POST', '/v1/auth/login', {
      body: { email: 'erin@example.test', password: PASSWORD },
    });
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('RESOURCE_EXHAUSTED');
    clock += LOGIN_LIMITS.windowMs + 1000;
    expect(
      (await t.call('POST', '/v1/auth/login', { body: { email: 'erin@example.test', password: PASSWORD } }))
        .status,
    ).toBe(200);
  });

  it('rate-limits failed sign-ins per address across accounts', async () => {
    clock += LOGIN_LIMITS.windowMs + 1000;
    await register('frank@example.test');
    for (let i = 0; i < LOGIN_LIMITS.perAddress; i++) {
      await t.call('POST', '/v1/auth/login', {
        body: { email: `spray-${String(i)}@example.test`, password: 'guess' },
      });
    }
    const limited = await t.call('POST', '/v1/auth/login', {
      body: { email: 'frank@example.test', password: PASSWORD },
    });
    expect(limited.status).toBe(429);
    clock += LOGIN_LIMITS.windowMs + 1000;
  });

  it('revokes the token on logout, and expires sessions', async () => {
    const { body } = await register('grace@example.test');
    const as = { token: body.token };
    expect((await t.call('POST', '/v1/auth/logout', { as })).status).toBe(200);
    expect((await t.call('GET', '/v1/organization', { as })).status).toBe(401);

    const login = await t.call<{ token: string }>('POST', '/v1/auth/login', {
      body: { email: 'grace@example.test', password: PASSWORD },
    });
    clock += 13 * 60 * 60_000;
    const expired = await t.call('GET', '/v1/organization', { as: { token: login.body.token } });
    expect(expired.status).toBe(401);
    expect(expired.body.code).toBe('UNAUTHENTICATED');
  });

  it('answers 401 without a token and for a malformed or unknown one', async () => {
    expect((await t.call('GET', '/v1/organization')).status).toBe(401);
    expect(
      (await t.call('GET', '/v1/organization', { headers: { authorization: 'Basic abc' } })).status,
    ).toBe(401);
    expect((await t.call('GET', '/v1/organization', { as: { token: 'nrs_not-a-real-token' } })).status).toBe(
      401,
    );
  });

  it('bootstraps the staff account, who verifies provider organizations', async () => {
    const provider = await register('heidi@example.test', 'ORGANIZATION_TYPE_PROVIDER');
    const staffLogin = await t.call<{ token: string }>('POST', '/v1/auth/login', { body: ADMIN });
    const staff = { token: staffLogin.body.token };
    const pending = await t.call<{ organizations: { id: string }[] }>(
      'GET',
      '/v1/staff/organizations?type=ORGANIZATION_TYPE_PROVIDER&isVerified=false&pageSize=100',
      { as: staff },
    );
    expect(pending.body.organizations.map((o) => o.id)).toContain(provider.body.organization.id);

    const byProvider = await t.call('POST', `/v1/organizations/${provider.body.organization.id}:verify`, {
      as: { token: provider.body.token },
    });
    expect(byProvider.status).toBe(403);
    const verified = await t.call<{ organization: { isVerified: boolean } }>(
      'POST',
      `/v1/organizations/${provider.body.organization.id}:verify`,
      { as: staff },
    );
    expect(verified.status).toBe(200);
    expect(verified.body.organization.isVerified).toBe(true);

    const client = await register('ivan@example.test');
    const notProvider = await t.call('POST', `/v1/organizations/${client.body.organization.id}:verify`, {
      as: staff,
    });
    expect(notProvider.status).toBe(412);
    expect(notProvider.body.code).toBe('FAILED_PRECONDITION');
  });
});
