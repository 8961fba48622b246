import { randomUUID } from 'node:crypto';

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import {
  createTestDatabase,
  DATABASE_KINDS,
  type TestDatabase,
} from '../../db/test-database.test-support.js';
import { AllocationRepository } from './allocation.repository.js';
import { IpAllocationService } from './allocation.service.js';
import {
  allocateOne,
  allocationService,
  createNetwork,
  createPrefix,
  ipamProvider,
} from './ipam.test-support.js';
import { NetworkRepository } from './network.repository.js';
import { NetworkService } from './network.service.js';
import { PrefixRepository } from './prefix.repository.js';
import { PrefixService, type PrefixInput } from './prefix.service.js';

interface AllocationView {
  id: string;
  ipAddress: string;
  status: string;
  prefixId: string;
  virtualMachineId: string | null;
  allocatedCidr: string;
  allocationKind: string;
  createTime: string;
  releaseTime: string | null;
}

interface AllocationList {
  allocations: AllocationView[];
  total: number;
}

describe.each(DATABASE_KINDS)('IP allocation for claims on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  /** A provider with a network holding one prefix of `body`. */
  async function networkWithPrefix(
    body: Record<string, unknown>,
  ): Promise<{ p: Caller & { organizationId: string }; networkId: string; prefixId: string }> {
    const p = await ipamProvider(t);
    const network = await createNetwork(t, p);
    const prefix = await createPrefix(t, p, { ...body, networkId: network.id });
    return { p, networkId: network.id, prefixId: prefix.id };
  }

  async function addresses(
    count: number,
    input: { organizationId: string; networkId: string },
    service?: IpAllocationService,
  ): Promise<(string | undefined)[]> {
    const result: (string | undefined)[] = [];
    for (let i = 0; i < count; i++) {
      const allocation = await allocateOne(
        t.cp.db,
        { ...input, family: 'ipv4', claimId: randomUUID() },
        service,
      );
      result.push(allocation?.address);
    }
    return result;
  }

  const slash28 = { cidr: '192.0.2.0/28', gateway: '192.0.2.1' };

  it('hands out the lowest free address with FIRST_AVAILABLE and the highest with LAST_AVAILABLE', async () => {
    const first = await networkWithPrefix({
      ...slash28,
      allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
    });
    expect(
      await addresses(3, { organizationId: first.p.organizationId, networkId: first.networkId }),
    ).toEqual(['192.0.2.2', '192.0.2.3', '192.0.2.4']);
    const last = await networkWithPrefix({
      ...slash28,
      allocationStrategy: 'ALLOCATION_STRATEGY_LAST_AVAILABLE',
    });
    expect(await addresses(2, { organizationId: last.p.organizationId, networkId: last.networkId })).toEqual([
      '192.0.2.14',
      '192.0.2.13',
    ]);
  });

  it('lets a released address rest with SEQUENTIAL, continuing after the last one handed out', async () => {
    const { p, networkId } = await networkWithPrefix({
      ...slash28,
      allocationStrategy: 'ALLOCATION_STRATEGY_SEQUENTIAL',
    });
    const claim = { organizationId: p.organizationId, networkId, family: 'ipv4' as const };
    const a = await allocateOne(t.cp.db, { ...claim, claimId: randomUUID() });
    const bClaim = randomUUID();
    const b = await allocateOne(t.cp.db, { ...claim, claimId: bClaim });
    await t.cp.db.transaction().execute((tx) => allocationService(t.cp.db).releaseClaimAddresses(tx, bClaim));
    const c = await allocateOne(t.cp.db, { ...claim, claimId: randomUUID() });
    expect([a?.address, b?.address, c?.address]).toEqual(['192.0.2.2', '192.0.2.3', '192.0.2.4']);
  });

  it('takes the slot RANDOM draws, and walks on from it once draws keep hitting taken ones', async () => {
    const { p, networkId } = await networkWithPrefix({
      ...slash28,
      allocationStrategy: 'ALLOCATION_STRATEGY_RANDOM',
    });
    const drawn: bigint[] = [];
    const service = new IpAllocationService({
      allocations: new AllocationRepository(t.cp.db),
      random: (bound) => {
        drawn.push(bound);
        return 5n;
      },
    });
    expect(await addresses(2, { organizationId: p.organizationId, networkId }, service)).toEqual([
      '192.0.2.7',
      '192.0.2.8',
    ]);
    // Draws over the 13 host slots of the /28 besides the gateway's: one that lands on a free slot, then
    // eight on the taken .7 before the walk on from it.
    expect(drawn).toEqual(Array.from({ length: 9 }, () => 13n));
  });

  it("tries the network's prefixes of the family asked for, oldest first, and only the caller's", async () => {
    const p = await ipamProvider(t);
    const network = await createNetwork(t, p);
    await createPrefix(t, p, { cidr: '10.1.0.0/30', gateway: '10.1.0.1', networkId: network.id });
    await createPrefix(t, p, { cidr: '10.2.0.0/30', gateway: '10.2.0.1', networkId: network.id });
    await createPrefix(t, p, { cidr: '10.3.0.0/24', gateway: '10.3.0.1' });
    await createPrefix(t, p, {
      cidr: '2001:db8:5::/64',
      gateway: '2001:db8:5::1',
      vmAssignmentPrefixLength: 128,
      networkId: network.id,
    });
    const claim = { organizationId: p.organizationId, networkId: network.id };
    const stranger = await ipamProvider(t);
    expect(
      await allocateOne(t.cp.db, {
        organizationId: stranger.organizationId,
        networkId: network.id,
        family: 'ipv4',
        claimId: randomUUID(),
      }),
    ).toBeUndefined();

    const v4 = [];
    for (let i = 0; i < 3; i++)
      v4.push(await allocateOne(t.cp.db, { ...claim, family: 'ipv4', claimId: randomUUID() }));
    expect(v4.map((a) => a?.allocatedCidr)).toEqual(['10.1.0.2/30', '10.2.0.2/30', undefined]);
    expect(v4[0]?.kind).toBe('ipv4_host');
    const v6 = await allocateOne(t.cp.db, { ...claim, family: 'ipv6', claimId: randomUUID() });
    expect(v6).toMatchObject({
      address: '2001:db8:5::2',
      allocatedCidr: '2001:db8:5::2/64',
      kind: 'ipv6_host',
    });
  });

  it('frees a rolled-back claim’s address, releases a claim’s addresses for reuse, and lists them', async () => {
    const { p, networkId, prefixId } = await networkWithPrefix({ cidr: '10.9.0.0/30', gateway: '10.9.0.1' });
    const claim = { organizationId: p.organizationId, networkId, family: 'ipv4' as const };
    const service = allocationService(t.cp.db);

    const rolledBack = await t.cp.db
      .transaction()
      .execute(async (tx) => {
        expect(await service.allocateAddress(tx, { ...claim, claimId: randomUUID() })).toBeDefined();
        throw new Error('the claim failed later on');
      })
      .catch((e: unknown) => e);
    expect(rolledBack).toBeInstanceOf(Error);

    const holder = randomUUID();
    expect((await allocateOne(t.cp.db, { ...claim, claimId: holder }))?.address).toBe('10.9.0.2');
    const waiting = randomUUID();
    expect(await allocateOne(t.cp.db, { ...claim, claimId: waiting })).toBeUndefined();

    const released = await t.cp.db.transaction().execute((tx) => service.releaseClaimAddresses(tx, holder));
    expect(released.map((a) => [a.status, a.claimId])).toEqual([['IP_ALLOCATION_STATUS_RELEASED', holder]]);
    expect(await t.cp.db.transaction().execute((tx) => service.releaseClaimAddresses(tx, holder))).toEqual(
      [],
    );
    expect((await allocateOne(t.cp.db, { ...claim, claimId: waiting }))?.address).toBe('10.9.0.2');

    const list = await t.call<AllocationList>('GET', `/v1/ipam/allocations?prefixId=${prefixId}`, { as: p });
    expect(list.body.total).toBe(2);
    expect(list.body.allocations).toEqual([
      {
        id: expect.any(String) as unknown,
        ipAddress: '10.9.0.2',
        status: 'IP_ALLOCATION_STATUS_RELEASED',
        prefixId,
        virtualMachineId: holder,
        allocatedCidr: '10.9.0.2/30',
        allocationKind: 'IP_ALLOCATION_KIND_IPV4_HOST',
        createTime: expect.any(String) as unknown,
        releaseTime: expect.any(String) as unknown,
      },
      {
        id: expect.any(String) as unknown,
        ipAddress: '10.9.0.2',
        status: 'IP_ALLOCATION_STATUS_ACTIVE',
        prefixId,
        virtualMachineId: waiting,
        allocatedCidr: '10.9.0.2/30',
        allocationKind: 'IP_ALLOCATION_KIND_IPV4_HOST',
        createTime: expect.any(String) as unknown,
        releaseTime: null,
      },
    ]);
    const active = await t.call<AllocationList>(
      'GET',
      `/v1/ipam/allocations?status=IP_ALLOCATION_STATUS_ACTIVE&pageSize=1&page=0`,
      { as: p },
    );
    expect(active.body.allocations.map((a) => a.virtualMachineId)).toEqual([waiting]);
    expect(active.body.total).toBe(1);
    const stranger = await ipamProvider(t);
    expect((await t.call<AllocationList>('GET', '/v1/ipam/allocations', { as: stranger })).body).toEqual({
      allocations: [],
      total: 0,
    });
  });

  it('keeps a second active holder of an address out at the database, whatever the code does', async () => {
    const { p, prefixId } = await networkWithPrefix({ cidr: '10.8.0.0/30', gateway: '10.8.0.1' });
    const row = {
      prefix_id: prefixId,
      organization_id: p.organizationId,
      address: '10.8.0.2',
      allocated_cidr: '10.8.0.2/30',
      allocation_kind: 'ipv4_host',
      status: 'IP_ALLOCATION_STATUS_ACTIVE' as const,
    };
    await t.cp.db
      .insertInto('ip_allocations')
      .values({ ...row, claim_id: randomUUID() })
      .execute();
    await expect(
      t.cp.db
        .insertInto('ip_allocations')
        .values({ ...row, claim_id: randomUUID() })
        .execute(),
    ).rejects.toMatchObject({ code: '23505' });
  });
});

/**
 * Invariant 1 under load: real PostgreSQL (the embedded database runs one transaction at a time), many
 * connections, every allocation in a transaction of its own.
 */
describe('concurrent allocations on PostgreSQL', () => {
  const CALLS = 200;
  const FREE = 150;
  let database: TestDatabase;
  let db: Db;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    const { location } = database;
    if (!('url' in location)) throw new Error('the postgres test database has no URL');
    db = await openDatabase({ url: location.url, poolSize: 30 });
    await migrateToLatest(db);
    const organization = await db
      .insertInto('organizations')
      .values({ name: 'concurrency', type: 'ORGANIZATION_TYPE_PROVIDER' })
      .returning('id')
      .executeTakeFirstOrThrow();
    organizationId = organization.id;
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  async function race(prefix: Omit<PrefixInput, 'networkId'>, family: 'ipv4' | 'ipv6'): Promise<void> {
    const network = await new NetworkService({ networks: new NetworkRepository(db) }).create(organizationId, {
      name: `race ${family}`,
    });
    const prefixes = new PrefixService({ prefixes: new PrefixRepository(db) });
    const created = await prefixes.create(organizationId, { ...prefix, networkId: network.id });
    expect((await prefixes.usage(organizationId, created.id)).availableCount).toBe(BigInt(FREE));

    const service = allocationService(db);
    const results = await Promise.all(
      Array.from({ length: CALLS }, () =>
        allocateOne(db, { organizationId, networkId: network.id, family, claimId: randomUUID() }, service),
      ),
    );
    const granted = results.flatMap((r) => (r === undefined ? [] : [r.address]));
    expect(granted).toHaveLength(FREE);
    expect(new Set(granted).size).toBe(FREE);
    expect(results.filter((r) => r === undefined)).toHaveLength(CALLS - FREE);

    const usage = await prefixes.usage(organizationId, created.id);
    expect([usage.allocatedCount, usage.availableCount]).toEqual([BigInt(FREE), 0n]);
    const stored = await sql<{ n: string; distinct_addresses: string }>`
      SELECT count(*) AS n, count(DISTINCT address) AS distinct_addresses FROM ip_allocations
      WHERE prefix_id = ${created.id} AND status = 'IP_ALLOCATION_STATUS_ACTIVE'`.execute(db);
    expect(stored.rows).toEqual([{ n: String(FREE), distinct_addresses: String(FREE) }]);
  }

  it(`gives ${String(FREE)} distinct addresses of an IPv4 /24 to ${String(CALLS)} concurrent claims, and none to the rest`, async () => {
    // 253 hosts besides the gateway, less 95 in the reserved ranges (.255 is the broadcast) and 8 single ones.
    await race(
      {
        cidr: '10.0.0.0/24',
        gateway: '10.0.0.1',
        allocationStrategy: 'ALLOCATION_STRATEGY_SEQUENTIAL',
        reservedPrefixes: ['10.0.0.160/27', '10.0.0.192/26'],
        reservedIps: [
          '10.0.0.2',
          '10.0.0.3',
          '10.0.0.4',
          '10.0.0.5',
          '10.0.0.6',
          '10.0.0.7',
          '10.0.0.8',
          '10.0.0.9',
        ],
      },
      'ipv4',
    );
  });

  it(`gives ${String(FREE)} distinct /64s of an IPv6 /48 to ${String(CALLS)} concurrent claims, and none to the rest`, async () => {
    // /64s 1-150 stay free (0 holds the gateway); 151-65535 are reserved in aligned ranges.
    await race(
      {
        cidr: '2001:db8::/48',
        gateway: '2001:db8::1',
        vmAssignmentPrefixLength: 64,
        allocationStrategy: 'ALLOCATION_STRATEGY_RANDOM',
        reservedPrefixes: [
          '2001:db8:0:97::/64',
          '2001:db8:0:98::/61',
          '2001:db8:0:a0::/59',
          '2001:db8:0:c0::/58',
          '2001:db8:0:100::/56',
          '2001:db8:0:200::/55',
          '2001:db8:0:400::/54',
          '2001:db8:0:800::/53',
          '2001:db8:0:1000::/52',
          '2001:db8:0:2000::/51',
          '2001:db8:0:4000::/50',
          '2001:db8:0:8000::/49',
        ],
      },
      'ipv6',
    );
  });
});
