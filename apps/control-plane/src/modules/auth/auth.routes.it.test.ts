import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { argon2idHasher, type PasswordHasher } from '../../crypto/password-hasher.js';
import { ADMIN, startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { SIGN_IN_THROTTLE } from './auth-throttles.js';

const PASSWORD = 'correct horse battery';

/** The tests' requests come through 127.0.0.1, trusted as the proxy that says where each comes from. */
function from(address: string): Record<string, string> {
  return { 'x-forwarded-for': address };
}

describe.each(DATABASE_KINDS)('sign-up and sign-in on the %s database', (kind) => {
  let t: TestControlPlane;
  let clock = Date.parse('2026-11-30T10:00:00Z');
  /** How many passwords the control plane has checked: what a guesser gets to try. */
  let verifications = 0;
  const countingHasher: PasswordHasher = {
    hash: (password) => argon2idHasher.hash(password),
    verify: (hashed, password) => {
      verifications++;
      return argon2idHasher.verify(hashed, password);
    },
  };
  beforeAll(async () => {
    t = await startTestControlPlane(kind, {
      now: () => new Date(clock),
      passwords: countingHasher,
      trustedProxies: ['127.0.0.1'],
    });
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  async function rawLogin(
    email: string,
    password: string,
    headers: Record<string, string>,
  ): Promise<Response> {
    return fetch(`${t.url}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ email, password }),
    });
  }

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
    expect(again.body).toMatchObject({
      code: 'ALREADY_EXISTS',
      message: 'This email already has an account: sign in, or use another email.',
    });
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

  it('refuses guessable passwords (NIST SP 800-63B) with a message on the password field, and stores nothing', async () => {
    const refused = [
      'aaaaaaaaaaaaaaa',
      '123456789012345',
      'password1234567',
      ' '.repeat(15),
      'qwertyuiopasdfgh',
      'weak-pw@example.test',
      'weakpw-acme-corp',
      'noderings-123456',
      'password12',
    ];
    for (const password of refused) {
      const response = await t.call<{
        details: { fieldViolations: { field: string; description: string }[] }[];
      }>('POST', '/v1/auth/register', {
        body: {
          email: 'weak-pw@example.test',
          password,
          organizationName: 'Acme Corp',
          organizationType: 'ORGANIZATION_TYPE_CLIENT',
        },
      });
      expect(response.status, JSON.stringify(password)).toBe(400);
      const violations = response.body.details[0]?.fieldViolations ?? [];
      expect(
        violations.map((v) => v.field),
        JSON.stringify(password),
      ).toEqual(['password']);
      expect(violations[0]?.description, JSON.stringify(password)).toMatch(/guess|common|at least 15/);
    }
    expect(
      await t.cp.db.selectFrom('users').select('id').where('email', '=', 'weak-pw@example.test').execute(),
    ).toEqual([]);
    // No composition rule: a long phrase of plain words is fine.
    expect(
      (
        await t.call('POST', '/v1/auth/register', {
          body: {
            email: 'weak-pw@example.test',
            password: 'purple monkey dishwasher',
            organizationName: 'Acme Corp',
            organizationType: 'ORGANIZATION_TYPE_CLIENT',
          },
        })
      ).status,
    ).toBe(201);
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

  it('counts a sign-in before its password is checked: 40 at once for one account check only the free ones', async () => {
    await register('racer@example.test');
    const before = verifications;
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        t.call('POST', '/v1/auth/login', {
          body: { email: 'racer@example.test', password: `wrong guess ${String(i)}` },
          headers: from('198.51.100.40'),
        }),
      ),
    );
    const { freeAttempts } = SIGN_IN_THROTTLE.accountAddress;
    expect(answers.filter((a) => a.status === 401)).toHaveLength(freeAttempts);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(40 - freeAttempts);
    expect(verifications - before).toBe(freeAttempts);
  });

  it('slows a stranger with growing waits, and never locks the owner out from elsewhere', async () => {
    await register('erin@example.test');
    const stranger = from('198.51.100.66');
    const attempt = (password: string, headers = stranger) =>
      t.call('POST', '/v1/auth/login', { body: { email: 'erin@example.test', password }, headers });
    for (let i = 0; i < SIGN_IN_THROTTLE.accountAddress.freeAttempts; i++)
      expect((await attempt(`wrong ${String(i)}`)).status).toBe(401);
    const waits: (string | null)[] = [];
    for (let i = 0; i < 3; i++) {
      const limited = await rawLogin('erin@example.test', 'guess', stranger);
      expect(limited.status).toBe(429);
      expect(((await limited.json()) as { code: string }).code).toBe('RESOURCE_EXHAUSTED');
      const wait = limited.headers.get('retry-after');
      waits.push(wait);
      clock += Number(wait) * 1000;
      expect((await attempt('another wrong one')).status).toBe(401);
    }
    expect(waits).toEqual(['1', '2', '4']);
    // The stranger's address is still waiting; the owner, from an address never seen before, is not.
    expect((await attempt(PASSWORD)).status).toBe(429);
    expect((await attempt(PASSWORD, from('203.0.113.10'))).status).toBe(200);
  });

  it('locks an account guessed at from many addresses to strangers; a known address passes and lifts it', async () => {
    await register('frank@example.test');
    const home = from('203.0.113.20');
    const login = (password: string, headers: Record<string, string>) =>
      t.call('POST', '/v1/auth/login', { body: { email: 'frank@example.test', password }, headers });
    expect((await login(PASSWORD, home)).status).toBe(200);
    for (let i = 0; i < SIGN_IN_THROTTLE.account.freeAttempts; i++)
      expect((await login('guess', from(`198.18.0.${String(i + 1)}`))).status).toBe(401);
    // Even the right password from an address the account has never used waits now...
    expect((await login(PASSWORD, from('198.18.1.1'))).status).toBe(429);
    // ...but not from home, and signing in there lifts the lock.
    expect((await login(PASSWORD, home)).status).toBe(200);
    expect((await login(PASSWORD, from('198.18.1.1'))).status).toBe(200);
  });

  it('slows one address spraying many accounts, never locking out the people who sign in there', async () => {
    const office = from('198.51.100.99');
    await register('office-worker@example.test');
    expect(
      (
        await t.call('POST', '/v1/auth/login', {
          body: { email: 'office-worker@example.test', password: PASSWORD },
          headers: office,
        })
      ).status,
    ).toBe(200);
    await register('office-newcomer@example.test');
    for (let i = 0; i < SIGN_IN_THROTTLE.address.freeAttempts; i++) {
      const sprayed = await t.call('POST', '/v1/auth/login', {
        body: { email: `spray-${String(i)}@example.test`, password: 'Summer2026!' },
        headers: office,
      });
      expect(sprayed.status).toBe(401);
    }
    const slowed = await rawLogin('office-newcomer@example.test', PASSWORD, office);
    expect(slowed.status).toBe(429);
    const wait = Number(slowed.headers.get('retry-after'));
    expect(wait).toBeGreaterThan(0);
    expect(wait * 1000).toBeLessThanOrEqual(SIGN_IN_THROTTLE.address.maxDelayMs);
    // Someone who has signed in from the office before is not held up by the spray.
    expect(
      (
        await t.call('POST', '/v1/auth/login', {
          body: { email: 'office-worker@example.test', password: PASSWORD },
          headers: office,
        })
      ).status,
    ).toBe(200);
    clock += wait * 1000;
    expect(
      (
        await t.call('POST', '/v1/auth/login', {
          body: { email: 'office-newcomer@example.test', password: PASSWORD },
          headers: office,
        })
      ).status,
    ).toBe(200);
  });

  it('throttles an email without an account exactly like one with an account', async () => {
    await register('known@example.test');
    const statuses = async (email: string, headers: Record<string, string>) => {
      const seen: number[] = [];
      for (let i = 0; i <= SIGN_IN_THROTTLE.accountAddress.freeAttempts; i++)
        seen.push(
          (await t.call('POST', '/v1/auth/login', { body: { email, password: 'wrong' }, headers })).status,
        );
      return seen;
    };
    expect(await statuses('nobody-here@example.test', from('198.51.100.120'))).toEqual(
      await statuses('known@example.test', from('198.51.100.121')),
    );
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

describe.each(DATABASE_KINDS)('registration limits on the %s database', (kind) => {
  let t: TestControlPlane;
  let clock = Date.parse('2026-11-30T10:00:00Z');
  const limits = {
    perAddress: { kind: 'window', limit: 3, windowMs: 60 * 60_000 },
    overall: { kind: 'window', limit: 5, windowMs: 10 * 60_000 },
  } as const;
  beforeAll(async () => {
    t = await startTestControlPlane(kind, {
      now: () => new Date(clock),
      trustedProxies: ['127.0.0.1'],
      registrationLimits: limits,
    });
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  const register = (email: string, address: string) =>
    fetch(`${t.url}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from(address) },
      body: JSON.stringify({
        email,
        password: PASSWORD,
        organizationName: 'Scripted',
        organizationType: 'ORGANIZATION_TYPE_CLIENT',
      }),
    });

  it('throttles registrations per address, taken emails included, and overall', async () => {
    const a = '198.51.100.1';
    expect((await register('one@example.test', a)).status).toBe(201);
    // Probing whether an email is taken counts like a registration.
    expect((await register('one@example.test', a)).status).toBe(409);
    expect((await register('two@example.test', a)).status).toBe(201);
    const limited = await register('three@example.test', a);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe(String(limits.perAddress.windowMs / 1000));
    expect(((await limited.json()) as { message: string }).message).toMatch(/from this address/);
    // Another address still may, until the ceiling over all addresses.
    expect((await register('four@example.test', '198.51.100.2')).status).toBe(201);
    expect((await register('five@example.test', '198.51.100.3')).status).toBe(201);
    const ceiling = await register('six@example.test', '198.51.100.4');
    expect(ceiling.status).toBe(429);
    expect(((await ceiling.json()) as { message: string }).message).toMatch(/right now/);
    expect(
      await t.cp.db
        .selectFrom('users')
        .select('email')
        .where('email', 'in', ['three@example.test', 'six@example.test'])
        .execute(),
    ).toEqual([]);
    clock += limits.perAddress.windowMs;
    expect((await register('three@example.test', a)).status).toBe(201);
  });
});
