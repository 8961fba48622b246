import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import {
  allocateOne,
  allocationService,
  createNetwork,
  createPrefix,
  ipamProvider,
  violatedFields,
  type ErrorBody,
  type PrefixView,
} from './ipam.test-support.js';

interface Usage {
  totalIps: string;
  allocatedCount: string;
  reservedCount: string;
  availableCount: string;
}

interface Utilization extends Usage {
  utilizationPercent: number;
  capacityUnitLabel: string;
  capacityIsOpenEnded: boolean;
}

interface AvailableIps extends Usage {
  availableIps: string[];
}

describe.each(DATABASE_KINDS)('IPAM prefixes on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function prefixCount(as: Caller): Promise<number> {
    return (await t.call<{ total: number }>('GET', '/v1/ipam/prefixes', { as })).body.total;
  }

  async function utilization(as: Caller, id: string): Promise<Utilization> {
    const response = await t.call<Utilization>('GET', `/v1/ipam/prefixes/${id}/utilization`, { as });
    expect(response.status).toBe(200);
    return response.body;
  }

  async function available(as: Caller, id: string, limit?: number): Promise<AvailableIps> {
    const query = limit === undefined ? '' : `?limit=${String(limit)}`;
    const response = await t.call<AvailableIps>('GET', `/v1/ipam/prefixes/${id}/available-ips${query}`, {
      as,
    });
    expect(response.status).toBe(200);
    return response.body;
  }

  it('creates a prefix in its canonical spelling, with the defaults filled in', async () => {
    const p = await ipamProvider(t);
    const network = await createNetwork(t, p);
    const created = await t.call<{ prefix: PrefixView }>('POST', '/v1/ipam/prefixes', {
      as: p,
      body: {
        cidr: '2001:DB8:0:0::/48',
        gateway: '2001:db8:0:0:0:0:0:1',
        vmAssignmentPrefixLength: 64,
        networkId: network.id,
        reservedIps: ['2001:db8:0:ff::', '2001:db8:0:10::', '2001:db8:0:10::'],
        reservedPrefixes: ['2001:db8:0:8000::/49'],
        description: 'customer /64s',
      },
    });
    expect(created.status).toBe(201);
    expect(created.body.prefix).toEqual({
      id: expect.any(String) as unknown,
      organizationId: p.organizationId,
      networkId: network.id,
      cidr: '2001:db8::/48',
      family: 'IP_FAMILY_IPV6',
      gateway: '2001:db8::1',
      allocationStrategy: 'ALLOCATION_STRATEGY_SEQUENTIAL',
      description: 'customer /64s',
      vmAssignmentPrefixLength: 64,
      reservedIps: ['2001:db8:0:10::', '2001:db8:0:ff::'],
      reservedPrefixes: ['2001:db8:0:8000::/49'],
      createTime: expect.any(String) as unknown,
      updateTime: expect.any(String) as unknown,
    });
    const v4 = await createPrefix(t, p, { cidr: '192.0.2.0/24', gateway: '192.0.2.1' });
    expect(v4).toMatchObject({ family: 'IP_FAMILY_IPV4', vmAssignmentPrefixLength: 32, networkId: null });

    const all = await t.call<{ prefixes: PrefixView[]; total: number }>('GET', '/v1/ipam/prefixes', {
      as: p,
    });
    expect(all.body.total).toBe(2);
    const filtered = await t.call<{ prefixes: PrefixView[]; total: number }>(
      'GET',
      `/v1/ipam/prefixes?filterNetworkId=${network.id}`,
      { as: p },
    );
    expect(filtered.body).toEqual({ prefixes: [created.body.prefix], total: 1 });
  });

  it.each([
    ['a gateway outside the CIDR', { cidr: '192.0.2.0/24', gateway: '198.51.100.1' }, 'gateway'],
    ['the broadcast address as gateway', { cidr: '192.0.2.0/24', gateway: '192.0.2.255' }, 'gateway'],
    ['an IPv6 gateway for an IPv4 prefix', { cidr: '192.0.2.0/24', gateway: '2001:db8::1' }, 'gateway'],
    ['host bits set', { cidr: '192.0.2.1/24', gateway: '192.0.2.1' }, 'cidr'],
    ['an address for a CIDR', { cidr: '192.0.2.0', gateway: '192.0.2.1' }, 'cidr'],
    [
      'IPv6 without vmAssignmentPrefixLength',
      { cidr: '2001:db8::/48', gateway: '2001:db8::1' },
      'vmAssignmentPrefixLength',
    ],
    [
      'an assignment longer than an address',
      { cidr: '2001:db8::/48', gateway: '2001:db8::1', vmAssignmentPrefixLength: 129 },
      'vmAssignmentPrefixLength',
    ],
    [
      'an assignment shorter than the prefix',
      { cidr: '2001:db8::/48', gateway: '2001:db8::1', vmAssignmentPrefixLength: 40 },
      'vmAssignmentPrefixLength',
    ],
    [
      'an assignment length on IPv4',
      { cidr: '192.0.2.0/24', gateway: '192.0.2.1', vmAssignmentPrefixLength: 30 },
      'vmAssignmentPrefixLength',
    ],
    [
      'a reserved address outside the CIDR',
      { cidr: '192.0.2.0/24', gateway: '192.0.2.1', reservedIps: ['192.0.2.9', '192.0.3.9'] },
      'reservedIps.1',
    ],
    [
      'a reserved address that is not one',
      { cidr: '192.0.2.0/24', gateway: '192.0.2.1', reservedIps: ['192.0.2.09'] },
      'reservedIps.0',
    ],
    [
      'a reserved prefix larger than the CIDR',
      { cidr: '192.0.2.0/24', gateway: '192.0.2.1', reservedPrefixes: ['192.0.2.0/23'] },
      'reservedPrefixes.0',
    ],
    [
      'a reserved prefix with host bits set',
      { cidr: '192.0.2.0/24', gateway: '192.0.2.1', reservedPrefixes: ['192.0.2.1/28'] },
      'reservedPrefixes.0',
    ],
    [
      'an unknown strategy',
      { cidr: '192.0.2.0/24', gateway: '192.0.2.1', allocationStrategy: 'ALLOCATION_STRATEGY_UNSPECIFIED' },
      'allocationStrategy',
    ],
  ])('refuses %s with 400 naming the field, and writes nothing', async (_what, body, field) => {
    const p = await ipamProvider(t);
    const response = await t.call<ErrorBody>('POST', '/v1/ipam/prefixes', { as: p, body });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(violatedFields(response.body)).toContain(field);
    expect(await prefixCount(p)).toBe(0);
  });

  it('refuses overlapping prefixes of one organization with 409 naming the other, and writes nothing', async () => {
    const p = await ipamProvider(t);
    const wide = await createPrefix(t, p, { cidr: '10.0.0.0/16', gateway: '10.0.0.1' });
    for (const cidr of ['10.0.5.0/24', '10.0.0.0/8', '10.0.0.0/16']) {
      const response = await t.call<ErrorBody>('POST', '/v1/ipam/prefixes', {
        as: p,
        body: { cidr, gateway: cidr.replace(/0\/\d+$/, '1') },
      });
      expect(response.status, cidr).toBe(409);
      expect(response.body.message).toContain('10.0.0.0/16');
      expect(response.body.message).toContain(wide.id);
      expect(violatedFields(response.body)).toEqual(['cidr']);
    }
    expect(await prefixCount(p)).toBe(1);
    // Another family, a neighbour and another organization's same prefix are all fine.
    await createPrefix(t, p, { cidr: '10.1.0.0/16', gateway: '10.1.0.1' });
    await createPrefix(t, p, {
      cidr: '2001:db8::/64',
      gateway: '2001:db8::1',
      vmAssignmentPrefixLength: 128,
    });
    await createPrefix(t, await ipamProvider(t), { cidr: '10.0.0.0/16', gateway: '10.0.0.1' });
    // Growing into a neighbour is an overlap too.
    const grown = await t.call('PATCH', `/v1/ipam/prefixes/${wide.id}`, {
      as: p,
      body: { cidr: '10.0.0.0/15', gateway: '10.0.0.1' },
    });
    expect(grown.status).toBe(409);
  });

  it("refuses another organization's network with 404", async () => {
    const p = await ipamProvider(t);
    const foreign = await createNetwork(t, await ipamProvider(t));
    const response = await t.call('POST', '/v1/ipam/prefixes', {
      as: p,
      body: { cidr: '192.0.2.0/24', gateway: '192.0.2.1', networkId: foreign.id },
    });
    expect(response.status).toBe(404);
    expect(await prefixCount(p)).toBe(0);
  });

  it('counts an IPv4 /24 without its network, broadcast, gateway and reservations', async () => {
    const p = await ipamProvider(t);
    const network = await createNetwork(t, p);
    const prefix = await createPrefix(t, p, {
      cidr: '203.0.113.0/24',
      gateway: '203.0.113.1',
      networkId: network.id,
      allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
      reservedIps: ['203.0.113.2', '203.0.113.3'],
      // .240-.254 are hosts; .255 is the broadcast address and never counted.
      reservedPrefixes: ['203.0.113.240/28'],
    });
    expect(await utilization(p, prefix.id)).toEqual({
      totalIps: '236',
      allocatedCount: '0',
      reservedCount: '17',
      availableCount: '236',
      utilizationPercent: 0,
      capacityUnitLabel: 'addresses',
      capacityIsOpenEnded: false,
    });
    expect((await available(p, prefix.id, 3)).availableIps).toEqual([
      '203.0.113.4',
      '203.0.113.5',
      '203.0.113.6',
    ]);

    const claim = { organizationId: p.organizationId, networkId: network.id, family: 'ipv4' as const };
    await allocateOne(t.cp.db, { ...claim, claimId: randomUUID() });
    await allocateOne(t.cp.db, { ...claim, claimId: randomUUID() });
    expect(await utilization(p, prefix.id)).toMatchObject({
      totalIps: '236',
      allocatedCount: '2',
      availableCount: '234',
      // 2 / 236 = 0.847…%, rounded down.
      utilizationPercent: 0.84,
    });
    const after = await available(p, prefix.id, 2);
    expect(after).toEqual({
      availableIps: ['203.0.113.6', '203.0.113.7'],
      totalIps: '236',
      allocatedCount: '2',
      reservedCount: '17',
      availableCount: '234',
    });
    expect((await available(p, prefix.id)).availableIps).toHaveLength(100);
    expect(
      (await t.call('GET', `/v1/ipam/prefixes/${prefix.id}/available-ips?limit=1001`, { as: p })).status,
    ).toBe(400);
  });

  it('counts a /16', async () => {
    const p = await ipamProvider(t);
    const prefix = await createPrefix(t, p, { cidr: '10.20.0.0/16', gateway: '10.20.0.1' });
    expect(await utilization(p, prefix.id)).toEqual({
      totalIps: '65533',
      allocatedCount: '0',
      reservedCount: '0',
      availableCount: '65533',
      utilizationPercent: 0,
      capacityUnitLabel: 'addresses',
      capacityIsOpenEnded: false,
    });
    const last = await available(p, prefix.id, 1000);
    expect(last.availableIps[0]).toBe('10.20.0.2');
    expect(last.availableIps[999]).toBe('10.20.3.233');
  });

  it('counts an IPv6 /48 assigning /64s in /64s: 65,536 slots, one the gateway’s', async () => {
    const p = await ipamProvider(t);
    const network = await createNetwork(t, p);
    const prefix = await createPrefix(t, p, {
      cidr: '2001:db8:100::/48',
      gateway: '2001:db8:100::1',
      vmAssignmentPrefixLength: 64,
      networkId: network.id,
    });
    expect(await utilization(p, prefix.id)).toEqual({
      totalIps: '65535',
      allocatedCount: '0',
      reservedCount: '0',
      availableCount: '65535',
      utilizationPercent: 0,
      capacityUnitLabel: '/64 prefixes',
      capacityIsOpenEnded: false,
    });
    expect((await available(p, prefix.id, 2)).availableIps).toEqual(['2001:db8:100:1::', '2001:db8:100:2::']);
    const allocation = await allocateOne(t.cp.db, {
      organizationId: p.organizationId,
      networkId: network.id,
      family: 'ipv6',
      claimId: randomUUID(),
    });
    expect(allocation).toMatchObject({
      address: '2001:db8:100:1::',
      allocatedCidr: '2001:db8:100:1::/64',
      kind: 'ipv6_prefix',
    });
    expect(await utilization(p, prefix.id)).toMatchObject({ allocatedCount: '1', availableCount: '65534' });
  });

  it('counts a /64 assigning single addresses as open-ended, exactly', async () => {
    const p = await ipamProvider(t);
    const prefix = await createPrefix(t, p, {
      cidr: '2001:db8:200::/64',
      gateway: '2001:db8:200::1',
      vmAssignmentPrefixLength: 128,
    });
    expect(await utilization(p, prefix.id)).toEqual({
      // 2^64 addresses, less the subnet-router anycast address and the gateway.
      totalIps: '18446744073709551614',
      allocatedCount: '0',
      reservedCount: '0',
      availableCount: '18446744073709551614',
      utilizationPercent: 0,
      capacityUnitLabel: 'addresses',
      capacityIsOpenEnded: true,
    });
    expect((await available(p, prefix.id, 2)).availableIps).toEqual(['2001:db8:200::2', '2001:db8:200::3']);
  });

  it('reserves and lets go of addresses and ranges one by one, all at once, and idempotently', async () => {
    const p = await ipamProvider(t);
    const prefix = await createPrefix(t, p, { cidr: '192.0.2.0/29', gateway: '192.0.2.1' });
    const base = `/v1/ipam/prefixes/${prefix.id}`;
    const reserve = (ip: string) =>
      t.call<{ prefix: PrefixView }>('POST', `${base}/reserved-ips`, { as: p, body: { ip } });

    expect((await reserve('192.0.2.4')).body.prefix.reservedIps).toEqual(['192.0.2.4']);
    expect((await reserve('192.0.2.4')).body.prefix.reservedIps).toEqual(['192.0.2.4']);
    const outside = await reserve('192.0.2.9');
    expect(outside.status).toBe(400);
    expect(violatedFields(outside.body)).toEqual(['ip']);
    expect((await utilization(p, prefix.id)).availableCount).toBe('4');

    const unreserved = await t.call<{ prefix: PrefixView }>('DELETE', `${base}/reserved-ips/192.0.2.4`, {
      as: p,
    });
    expect(unreserved.status).toBe(200);
    expect(unreserved.body.prefix.reservedIps).toEqual([]);
    expect((await t.call('DELETE', `${base}/reserved-ips/192.0.2.4`, { as: p })).status).toBe(404);
    const badPath = await t.call<ErrorBody>('DELETE', `${base}/reserved-ips/192.0.2.400`, { as: p });
    expect(badPath.status).toBe(400);
    expect(violatedFields(badPath.body)).toEqual(['path.ip']);

    const all = await t.call<{ prefix: PrefixView }>('POST', `${base}/reserved-ips/reserve-all`, {
      as: p,
      body: {},
    });
    expect(all.body.prefix.reservedIps).toEqual([
      '192.0.2.2',
      '192.0.2.3',
      '192.0.2.4',
      '192.0.2.5',
      '192.0.2.6',
    ]);
    expect(await utilization(p, prefix.id)).toMatchObject({ totalIps: '0', availableCount: '0' });
    const cleared = await t.call<{ prefix: PrefixView }>('POST', `${base}/reserved-ips/clear-all`, { as: p });
    expect(cleared.body.prefix.reservedIps).toEqual([]);

    const range = await t.call<{ prefix: PrefixView }>('POST', `${base}/reserved-prefixes`, {
      as: p,
      body: { cidr: '192.0.2.4/30' },
    });
    expect(range.body.prefix.reservedPrefixes).toEqual(['192.0.2.4/30']);
    expect((await utilization(p, prefix.id)).availableCount).toBe('2');
    const gone = await t.call<{ prefix: PrefixView }>('DELETE', `${base}/reserved-prefixes`, {
      as: p,
      body: { cidr: '192.0.2.4/30' },
    });
    expect(gone.body.prefix.reservedPrefixes).toEqual([]);
    expect(
      (await t.call('DELETE', `${base}/reserved-prefixes`, { as: p, body: { cidr: '192.0.2.4/30' } })).status,
    ).toBe(404);
  });

  it('reserves IPv6 addresses given in any spelling, in a path too', async () => {
    const p = await ipamProvider(t);
    const prefix = await createPrefix(t, p, {
      cidr: '2001:db8:300::/64',
      gateway: '2001:db8:300::1',
      vmAssignmentPrefixLength: 128,
    });
    const base = `/v1/ipam/prefixes/${prefix.id}`;
    const reserved = await t.call<{ prefix: PrefixView }>('POST', `${base}/reserved-ips`, {
      as: p,
      body: { ip: '2001:DB8:300:0::A' },
    });
    expect(reserved.body.prefix.reservedIps).toEqual(['2001:db8:300::a']);
    const removed = await t.call<{ prefix: PrefixView }>(
      'DELETE',
      `${base}/reserved-ips/${encodeURIComponent('2001:db8:300:0:0::a')}`,
      { as: p },
    );
    expect(removed.status).toBe(200);
    expect(removed.body.prefix.reservedIps).toEqual([]);
    // reserve-all on 2^64 addresses is refused: a range is reserved with a reserved prefix.
    expect((await t.call('POST', `${base}/reserved-ips/reserve-all`, { as: p, body: {} })).status).toBe(412);
  });

  it('never orphans an allocated address: edits and deletes that would are refused with 412', async () => {
    const p = await ipamProvider(t);
    const network = await createNetwork(t, p);
    const prefix = await createPrefix(t, p, {
      cidr: '192.0.2.0/24',
      gateway: '192.0.2.1',
      networkId: network.id,
      allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
    });
    const base = `/v1/ipam/prefixes/${prefix.id}`;
    const claimId = randomUUID();
    const allocation = await allocateOne(t.cp.db, {
      organizationId: p.organizationId,
      networkId: network.id,
      family: 'ipv4',
      claimId,
    });
    expect(allocation?.address).toBe('192.0.2.2');

    const refusals: [string, string, unknown][] = [
      ['PATCH', base, { cidr: '192.0.2.128/25', gateway: '192.0.2.129' }],
      ['PATCH', base, { cidr: '2001:db8::/48', gateway: '2001:db8::1', vmAssignmentPrefixLength: 64 }],
      ['PATCH', base, { reservedIps: ['192.0.2.2'] }],
      ['PATCH', base, { reservedPrefixes: ['192.0.2.0/30'] }],
      ['PATCH', base, { gateway: '192.0.2.2' }],
      ['POST', `${base}/reserved-ips`, { ip: '192.0.2.2' }],
      ['POST', `${base}/reserved-prefixes`, { cidr: '192.0.2.0/28' }],
      ['DELETE', base, undefined],
    ];
    for (const [method, path, body] of refusals) {
      const response = await t.call<ErrorBody>(method, path, { as: p, body });
      expect(response.status, `${method} ${path} ${JSON.stringify(body)}`).toBe(412);
      if (method === 'PATCH') expect(response.body.message).toContain('192.0.2.2');
    }
    const unchanged = await t.call<{ prefix: PrefixView }>('GET', base, { as: p });
    expect(unchanged.body.prefix).toEqual(prefix);

    // Growing the prefix, or reserving around the address, keeps it and is fine.
    const grown = await t.call<{ prefix: PrefixView }>('PATCH', base, {
      as: p,
      body: { cidr: '192.0.2.0/23', reservedIps: ['192.0.2.3'], description: 'grown' },
    });
    expect(grown.status).toBe(200);
    expect(grown.body.prefix).toMatchObject({ cidr: '192.0.2.0/23', reservedIps: ['192.0.2.3'] });

    await t.cp.db
      .transaction()
      .execute((tx) => allocationService(t.cp.db).releaseClaimAddresses(tx, claimId));
    expect((await t.call('DELETE', base, { as: p })).status).toBe(200);
    expect((await t.call('GET', base, { as: p })).status).toBe(404);
  });

  it('may move a prefix between networks and change its strategy and description', async () => {
    const p = await ipamProvider(t);
    const [a, b] = [await createNetwork(t, p), await createNetwork(t, p)];
    const prefix = await createPrefix(t, p, { cidr: '192.0.2.0/24', gateway: '192.0.2.1', networkId: a.id });
    const patched = await t.call<{ prefix: PrefixView }>('PATCH', `/v1/ipam/prefixes/${prefix.id}`, {
      as: p,
      body: { networkId: b.id, allocationStrategy: 'ALLOCATION_STRATEGY_RANDOM', description: 'moved' },
    });
    expect(patched.body.prefix).toMatchObject({
      networkId: b.id,
      allocationStrategy: 'ALLOCATION_STRATEGY_RANDOM',
      description: 'moved',
      cidr: '192.0.2.0/24',
    });
    // A prefix of the other family takes that family's assignment default unless told.
    const v6 = await t.call<ErrorBody>('PATCH', `/v1/ipam/prefixes/${prefix.id}`, {
      as: p,
      body: { cidr: '2001:db8::/48', gateway: '2001:db8::1' },
    });
    expect(v6.status).toBe(400);
    expect(violatedFields(v6.body)).toEqual(['vmAssignmentPrefixLength']);
  });
});
