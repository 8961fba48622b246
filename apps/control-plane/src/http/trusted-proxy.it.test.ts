import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { parseOptions } from '../control-plane-options.js';
import { startTestControlPlane, type Caller, type TestControlPlane } from '../control-plane.test-support.js';
import { DATABASE_KINDS } from '../db/test-database.test-support.js';
import { SIGN_IN_THROTTLE } from '../modules/auth/auth-throttles.js';

/** What a load balancer in front would be, by its address; the tests' own connections come from 127.0.0.1. */
const ELSEWHERE = '10.9.9.9';

/** An admin token that may be used from 192.0.2.0/24 only. */
async function officeToken(t: TestControlPlane): Promise<Caller> {
  const owner = await t.register();
  const as = { token: owner.token, organizationId: owner.organizationId };
  const account = await t.call<{ serviceAccount: { id: string } }>('POST', '/v1/service-accounts', {
    as,
    body: { name: 'office', role: 'MEMBER_ROLE_ADMIN', allowedIps: ['192.0.2.0/24'] },
  });
  const minted = await t.call<{ token: string }>(
    'POST',
    `/v1/service-accounts/${account.body.serviceAccount.id}/tokens`,
    { as, body: { name: 'ci' } },
  );
  return { token: minted.body.token };
}

function regionsFrom(t: TestControlPlane, as: Caller, forwardedFor: string) {
  return t.call('GET', '/v1/regions', { as, headers: { 'x-forwarded-for': forwardedFor } });
}

describe.each(DATABASE_KINDS)('the client address behind trusted proxies on the %s database', (kind) => {
  describe('when the proxy in front is not the caller', () => {
    let t: TestControlPlane;
    let office: Caller;
    beforeAll(async () => {
      // As an operator configures it: `--trust-proxy` naming the load balancer.
      const { trustedProxies } = parseOptions(['--trust-proxy', ELSEWHERE], {});
      t = await startTestControlPlane(kind, { trustedProxies });
      office = await officeToken(t);
    }, 60_000);
    afterAll(() => t.close(), 60_000);

    it('ignores X-Forwarded-For from a peer that is not a trusted proxy', async () => {
      const spoofed = await regionsFrom(t, office, '192.0.2.5');
      expect(spoofed.status).toBe(403);
      expect(spoofed.body.message).toMatch(/may not be used from this address/);
    });

    it('keeps counting sign-ins under the real address however the header rotates', async () => {
      const { freeAttempts } = SIGN_IN_THROTTLE.address;
      for (let i = 0; i < freeAttempts; i++) {
        const failed = await t.call('POST', '/v1/auth/login', {
          body: { email: `spray-${String(i)}@example.test`, password: 'not the password' },
          headers: { 'x-forwarded-for': `198.51.100.${String(i + 1)}` },
        });
        expect(failed.status).toBe(401);
      }
      const next = await t.call('POST', '/v1/auth/login', {
        body: { email: 'spray-last@example.test', password: 'not the password' },
        headers: { 'x-forwarded-for': '198.51.100.250' },
      });
      expect(next.status).toBe(429);
    });

    it('never sends HSTS on the word of an untrusted X-Forwarded-Proto', async () => {
      const response = await fetch(`${t.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(response.headers.get('strict-transport-security')).toBeNull();
    });
  });

  describe('when the caller is the trusted proxy', () => {
    let t: TestControlPlane;
    let office: Caller;
    beforeAll(async () => {
      const { trustedProxies } = parseOptions(['--trust-proxy', '127.0.0.1,10.0.0.0/8'], {});
      t = await startTestControlPlane(kind, { trustedProxies });
      office = await officeToken(t);
    }, 60_000);
    afterAll(() => t.close(), 60_000);

    it('takes the client from the right end: the address the proxy appended, not one the client wrote', async () => {
      expect((await regionsFrom(t, office, '192.0.2.5')).status).toBe(200);
      // The client sent "X-Forwarded-For: 192.0.2.5"; the proxy appended the address it saw.
      expect((await regionsFrom(t, office, '192.0.2.5, 198.51.100.7')).status).toBe(403);
      // Two trusted hops (10.1.1.1 in front of 127.0.0.1): the client is the address before them.
      expect((await regionsFrom(t, office, '198.51.100.7, 192.0.2.9, 10.1.1.1')).status).toBe(200);
      expect((await regionsFrom(t, office, '192.0.2.9, 198.51.100.7, 10.1.1.1')).status).toBe(403);
    });

    it('records the same derived address in the audit log', async () => {
      const owner = await t.register();
      const as = { token: owner.token, organizationId: owner.organizationId };
      await t.call('POST', '/v1/regions', {
        as,
        body: { cityCountryId: 'fr-par', datacenterId: 'equinix-pa3' },
        headers: { 'x-forwarded-for': '203.0.113.77, 198.51.100.8' },
      });
      const log = await t.call<{ events: { action: string; ip: string }[] }>(
        'GET',
        '/v1/audit-events?action=region.create',
        { as },
      );
      expect(log.body.events.map((e) => e.ip)).toEqual(['198.51.100.8']);
    });

    it('sends HSTS when the trusted proxy says the request came over TLS, and only then', async () => {
      const overTls = await fetch(`${t.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(overTls.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      const plain = await fetch(`${t.url}/healthz`, { headers: { 'x-forwarded-proto': 'http' } });
      expect(plain.headers.get('strict-transport-security')).toBeNull();
      expect((await fetch(`${t.url}/healthz`)).headers.get('strict-transport-security')).toBeNull();
    });
  });
});
