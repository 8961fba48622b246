import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createPrefix, violatedFields, type ErrorBody } from './ipam.test-support.js';

describe.each(DATABASE_KINDS)('the address space of IPAM prefixes on the %s database', (kind) => {
  let t: TestControlPlane;
  let a: Caller;
  let b: Caller;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    a = await t.register();
    b = await t.register();
  }, 60_000);
  afterAll(() => t.close());

  const post = (as: Caller, cidr: string, gateway: string) =>
    t.call<ErrorBody>('POST', '/v1/ipam/prefixes', {
      as,
      body: { cidr, gateway, ...(cidr.includes(':') && { vmAssignmentPrefixLength: 128 }) },
    });
  const count = async (as: Caller) =>
    (await t.call<{ total: number }>('GET', '/v1/ipam/prefixes', { as })).body.total;

  it.each([
    ['0.0.0.0/0', '1.0.0.1'],
    ['::/0', '2a01::1'],
    ['127.0.0.0/24', '127.0.0.1'],
    ['224.0.0.0/24', '224.0.0.1'],
    ['169.254.0.0/16', '169.254.0.1'],
    ['240.0.0.0/8', '240.0.0.1'],
    ['0.0.0.0/8', '0.0.0.1'],
    ['fe80::/64', 'fe80::1'],
    ['ff02::/64', 'ff02::1'],
    ['::ffff:0.0.0.0/96', '::ffff:0.0.0.1'],
    ['::ffff:192.0.2.0/120', '::ffff:192.0.2.1'],
  ])('refuses %s with a 400 on cidr, and stores nothing', async (cidr, gateway) => {
    const refused = await post(a, cidr, gateway);
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(violatedFields(refused.body)).toEqual(['cidr']);
    expect(await count(a)).toBe(0);
  });

  it('gives a public prefix to one organisation at a time, telling the other nothing about the holder', async () => {
    const held = await createPrefix(t, a, { cidr: '185.12.64.0/24', gateway: '185.12.64.1' });
    for (const [cidr, gateway] of [
      ['185.12.64.0/24', '185.12.64.1'],
      ['185.12.64.128/25', '185.12.64.129'],
      ['185.12.0.0/16', '185.12.0.1'],
    ] as const) {
      const refused = await post(b, cidr, gateway);
      expect(refused.status, JSON.stringify(refused.body)).toBe(409);
      expect(violatedFields(refused.body)).toEqual(['cidr']);
      expect(JSON.stringify(refused.body)).not.toContain(held.id);
      expect(JSON.stringify(refused.body)).not.toContain(held.organizationId);
    }
    expect(await count(b)).toBe(0);
    // Moving a prefix of one's own onto another organisation's public space is refused the same way.
    const own = await createPrefix(t, b, { cidr: '185.13.0.0/24', gateway: '185.13.0.1' });
    const moved = await t.call<ErrorBody>('PATCH', `/v1/ipam/prefixes/${own.id}`, {
      as: b,
      body: { cidr: '185.12.64.0/25', gateway: '185.12.64.1' },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    // Once the holder lets it go, the space is free for another.
    expect((await t.call('DELETE', `/v1/ipam/prefixes/${held.id}`, { as: a })).status).toBe(200);
    expect((await post(b, '185.12.64.0/24', '185.12.64.1')).status).toBe(201);
  });

  it('lets organisations use the same private and documentation space', async () => {
    for (const [cidr, gateway] of [
      ['10.20.0.0/16', '10.20.0.1'],
      ['100.64.0.0/24', '100.64.0.1'],
      ['fd00:1::/64', 'fd00:1::1'],
      ['198.51.100.0/24', '198.51.100.1'],
    ] as const) {
      expect((await post(a, cidr, gateway)).status).toBe(201);
      expect((await post(b, cidr, gateway)).status).toBe(201);
    }
  });

  it('lets one of two racing organisations have a public prefix, and the other a 409', async () => {
    const others = await Promise.all(Array.from({ length: 4 }, () => t.register()));
    for (let round = 0; round < 5; round += 1) {
      const cidr = `185.20.${String(round)}.0/24`;
      const answers = await Promise.all(
        others.map((as, i) =>
          post(as, i % 2 === 0 ? cidr : `185.20.${String(round)}.128/25`, `185.20.${String(round)}.129`),
        ),
      );
      expect(answers.map((r) => r.status).sort(), JSON.stringify(answers.map((r) => r.body))).toEqual([
        201, 409, 409, 409,
      ]);
    }
  });
});
