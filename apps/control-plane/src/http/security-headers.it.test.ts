import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../control-plane.test-support.js';
import { DATABASE_KINDS } from '../db/test-database.test-support.js';

describe.each(DATABASE_KINDS)('security headers on the %s database', (kind) => {
  let t: TestControlPlane;
  let token: string;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    token = (await t.register()).token;
  }, 60_000);
  afterAll(() => t.close(), 60_000);

  it('tells browsers not to sniff, frame or refer, on answers, errors and health alike', async () => {
    const answers = await Promise.all([
      fetch(`${t.url}/healthz`),
      fetch(`${t.url}/openapi.json`),
      fetch(`${t.url}/v1/organization`, { headers: { authorization: `Bearer ${token}` } }),
      fetch(`${t.url}/v1/organization`),
      fetch(`${t.url}/v1/nothing-here`),
      fetch(`${t.url}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{not json',
      }),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 401, 404, 400]);
    for (const response of answers) {
      expect(response.headers.get('x-content-type-options'), response.url).toBe('nosniff');
      expect(response.headers.get('x-frame-options'), response.url).toBe('DENY');
      expect(response.headers.get('referrer-policy'), response.url).toBe('no-referrer');
      expect(response.headers.get('content-security-policy'), response.url).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
      // Plain HTTP from a client that is no trusted proxy: no HSTS (see trusted-proxy.it.test.ts).
      expect(response.headers.get('strict-transport-security'), response.url).toBeNull();
    }
  });
});
