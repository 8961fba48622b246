import { randomUUID } from 'node:crypto';

import {
  formatIpAddress,
  parseIpAddress,
  type AllocationKind,
  type AllocationStrategy,
  type IpFamily,
  type RandomBelow,
} from '@noderings/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { migrateToLatest, openDatabase, type Db } from '../../db/database.js';
import {
  createTestDatabase,
  DATABASE_KINDS,
  type TestDatabase,
} from '../../db/test-database.test-support.js';
import { AllocationRepository } from './allocation.repository.js';
import { IpAllocationService } from './allocation.service.js';
import { NetworkRepository } from './network.repository.js';
import { NetworkService } from './network.service.js';
import { PrefixRepository } from './prefix.repository.js';
import { PrefixService, type PrefixInput } from './prefix.service.js';

const FIRST: AllocationStrategy = 'ALLOCATION_STRATEGY_FIRST_AVAILABLE';
const LAST: AllocationStrategy = 'ALLOCATION_STRATEGY_LAST_AVAILABLE';
const SEQUENTIAL: AllocationStrategy = 'ALLOCATION_STRATEGY_SEQUENTIAL';
const RANDOM: AllocationStrategy = 'ALLOCATION_STRATEGY_RANDOM';
/** Rows per INSERT, well under PostgreSQL's 65,535 parameters a statement. */
const INSERT_CHUNK = 1000;

/**
 * A pool of 65,536 slots numbered from the prefix's network, with its addresses' arithmetic; the rules
 * before the index-driven search, restated over every slot, are what each allocation must match.
 */
interface SlotSpace {
  readonly family: IpFamily;
  readonly network: bigint;
  /** Address bits inside a slot: 0 for single addresses, 64 for /64s. */
  readonly shift: bigint;
  /** Slots no VM may hold: outside the usable range, the gateway's, reserved. */
  readonly excluded: ReadonlySet<number>;
  readonly first: number;
  readonly last: number;
}

function address(space: SlotSpace, slot: number): string {
  return formatIpAddress({ family: space.family, value: space.network + (BigInt(slot) << space.shift) });
}

/** What FIRST_AVAILABLE, LAST_AVAILABLE or SEQUENTIAL handed out before, reading every active allocation. */
function oldRule(
  space: SlotSpace,
  active: ReadonlySet<number>,
  strategy: AllocationStrategy,
  cursor: number | undefined,
): number | undefined {
  const free = (slot: number): boolean => !space.excluded.has(slot) && !active.has(slot);
  const lowestFrom = (from: number): number | undefined => {
    for (let slot = Math.max(from, space.first); slot <= space.last; slot++) if (free(slot)) return slot;
    return undefined;
  };
  if (strategy === FIRST) return lowestFrom(space.first);
  if (strategy === LAST) {
    for (let slot = space.last; slot >= space.first; slot--) if (free(slot)) return slot;
    return undefined;
  }
  const after = cursor ?? Math.max(...active);
  return lowestFrom(after + 1) ?? lowestFrom(space.first);
}

/** RANDOM: the index-th slot neither excluded nor the gateway's, or the next free one on from it. */
function randomRule(space: SlotSpace, active: ReadonlySet<number>, index: number): number | undefined {
  const candidates: number[] = [];
  for (let slot = space.first; slot <= space.last; slot++)
    if (!space.excluded.has(slot)) candidates.push(slot);
  const start = candidates[index];
  if (start === undefined) return undefined;
  const free = candidates.filter((slot) => !active.has(slot));
  return free.find((slot) => slot >= start) ?? free[0];
}

class RolledBack extends Error {}

describe.each(DATABASE_KINDS)('allocation from large prefixes on the %s database', (kind) => {
  let database: TestDatabase;
  let db: Db;
  let organizationId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = await openDatabase(database.location);
    await migrateToLatest(db);
    const organization = await db
      .insertInto('organizations')
      .values({ name: 'at scale', type: 'ORGANIZATION_TYPE_PROVIDER' })
      .returning('id')
      .executeTakeFirstOrThrow();
    organizationId = organization.id;
  });
  afterAll(async () => {
    await db.destroy();
    await database.drop();
  });

  interface Seeded {
    readonly networkId: string;
    readonly prefixId: string;
    readonly family: IpFamily;
  }

  /**
   * A prefix on a network of its own holding `active` slots as they were written before, plus a released
   * row (history) on each of `released`, which must not keep the address from being handed out again.
   */
  async function seed(
    space: SlotSpace,
    prefix: Omit<PrefixInput, 'networkId'>,
    active: readonly number[],
    released: readonly number[],
    allocationKind: AllocationKind,
  ): Promise<Seeded> {
    const network = await new NetworkService({ networks: new NetworkRepository(db) }).create(organizationId, {
      name: `at scale ${prefix.cidr}`,
    });
    const created = await new PrefixService({ prefixes: new PrefixRepository(db) }).create(organizationId, {
      ...prefix,
      networkId: network.id,
    });
    const rows = [
      ...active.map((slot) => ({ slot, released: false })),
      ...released.map((slot) => ({ slot, released: true })),
    ].map(({ slot, released: isReleased }) => ({
      prefix_id: created.id,
      organization_id: organizationId,
      claim_id: randomUUID(),
      address: address(space, slot),
      allocated_cidr: `${address(space, slot)}/${allocationKind === 'ipv6_prefix' ? '64' : (prefix.cidr.split('/')[1] ?? '')}`,
      allocation_kind: allocationKind,
      status: isReleased
        ? ('IP_ALLOCATION_STATUS_RELEASED' as const)
        : ('IP_ALLOCATION_STATUS_ACTIVE' as const),
      released_at: isReleased ? new Date() : null,
    }));
    for (let i = 0; i < rows.length; i += INSERT_CHUNK)
      await db
        .insertInto('ip_allocations')
        .values(rows.slice(i, i + INSERT_CHUNK))
        .execute();
    return { networkId: network.id, prefixId: created.id, family: space.family };
  }

  /** What the prefix would hand out by `strategy`, rolled back so that every case sees the same allocations. */
  async function allocation(
    seeded: Seeded,
    strategy: AllocationStrategy,
    options: { lastAllocated?: string | null; random?: RandomBelow } = {},
  ): Promise<{ address: string | undefined; reads: number; rows: number; addresses: number }> {
    const repository = new AllocationRepository(db);
    const seen = { reads: 0, rows: 0, addresses: 0 };
    const service = new IpAllocationService({
      allocations: {
        list: (...args) => repository.list(...args),
        prefixIdsOfNetwork: (...args) => repository.prefixIdsOfNetwork(...args),
        lockPrefix: (...args) => repository.lockPrefix(...args),
        insert: (...args) => repository.insert(...args),
        releaseClaim: (...args) => repository.releaseClaim(...args),
        activeOrdinals: async (...args) => {
          const taken = await repository.activeOrdinals(...args);
          seen.reads++;
          seen.rows += taken.runs.length;
          for (const [low, high] of taken.runs) seen.addresses += Number(high - low + 1n);
          return taken;
        },
      },
      random: options.random,
    });
    let chosen: string | undefined;
    await db
      .transaction()
      .execute(async (tx) => {
        await tx
          .updateTable('ipam_prefixes')
          .set({ allocation_strategy: strategy, last_allocated: options.lastAllocated ?? null })
          .where('id', '=', seeded.prefixId)
          .execute();
        const allocated = await service.allocateAddress(tx, {
          organizationId,
          networkId: seeded.networkId,
          family: seeded.family,
          claimId: randomUUID(),
        });
        chosen = allocated && formatIpAddress(allocated.address);
        throw new RolledBack();
      })
      .catch((e: unknown) => {
        if (!(e instanceof RolledBack)) throw e;
      });
    return { address: chosen, ...seen };
  }

  function range(from: number, to: number): number[] {
    return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  }

  describe('an IPv4 /16 holding about 6,000 addresses, with released holes', () => {
    // 10.20.4.0/24 is reserved (slots 1024-1279), and so are 10.20.10.10 and 10.20.255.200.
    const space: SlotSpace = {
      family: 'ipv4',
      network: parseIpAddress('10.20.0.0', 'ip').value,
      shift: 0n,
      excluded: new Set([1, ...range(1024, 1279), 2570, 65480]),
      first: 1,
      last: 65534,
    };
    const holes = [3001, 3002, 4500, 65000];
    const activeSlots = [...range(2, 5199), ...range(64500, 65534)].filter(
      (slot) => !space.excluded.has(slot) && !holes.includes(slot),
    );
    const active = new Set(activeSlots);
    let seeded: Seeded;
    beforeAll(async () => {
      seeded = await seed(
        space,
        {
          cidr: '10.20.0.0/16',
          gateway: '10.20.0.1',
          reservedPrefixes: ['10.20.4.0/24'],
          reservedIps: ['10.20.10.10', '10.20.255.200'],
        },
        activeSlots,
        holes,
        'ipv4_host',
      );
    });

    it('picks what the old rule picked for FIRST_AVAILABLE, LAST_AVAILABLE and SEQUENTIAL', async () => {
      expect(active.size).toBeGreaterThan(5000);
      const cases = [
        { strategy: FIRST, cursor: undefined },
        { strategy: LAST, cursor: undefined },
        { strategy: SEQUENTIAL, cursor: 2999 },
        { strategy: SEQUENTIAL, cursor: 4000 },
        // Past the top's last hole: the sequence wraps to the lowest free address.
        { strategy: SEQUENTIAL, cursor: 65001 },
        // Never handed out anything: it goes on after the highest active address, and so wraps too.
        { strategy: SEQUENTIAL, cursor: undefined },
      ] as const;
      for (const { strategy, cursor } of cases) {
        const expected = oldRule(space, active, strategy, cursor);
        const lastAllocated = cursor === undefined ? null : address(space, cursor);
        const { address: chosen } = await allocation(seeded, strategy, { lastAllocated });
        expect({ strategy, cursor, chosen }).toEqual({
          strategy,
          cursor,
          chosen: expected === undefined ? undefined : address(space, expected),
        });
      }
      expect(holes.map((slot) => address(space, slot))).toEqual([
        '10.20.11.185',
        '10.20.11.186',
        '10.20.17.148',
        '10.20.253.232',
      ]);
    });

    it('reads the allocations next to where it looks, a run of them as one row', async () => {
      const afterHole = await allocation(seeded, SEQUENTIAL, { lastAllocated: address(space, 64999) });
      expect(afterHole).toEqual({ address: '10.20.253.232', reads: 1, rows: 1, addresses: 64 });
      // About 2,750 addresses below the hole, cut into three runs by the reservations: a few short reads.
      const first = await allocation(seeded, FIRST);
      expect(first.address).toBe('10.20.11.185');
      expect(first.reads).toBeLessThan(6);
      expect(first.rows).toBeLessThan(12);
    });

    it('takes the slot RANDOM draws when it is free, and walks on from one that stays taken', async () => {
      // Index 5,000 of the unexcluded slots lies above the dense start; index 100 inside it.
      for (const index of [5000, 100]) {
        const expected = randomRule(space, active, index);
        const { address: chosen } = await allocation(seeded, RANDOM, { random: () => BigInt(index) });
        expect(chosen).toBe(expected === undefined ? undefined : address(space, expected));
      }
    });

    it('keeps every row’s ordinal equal to its address', async () => {
      const rows = await db
        .selectFrom('ip_allocations')
        .select(['address', 'address_ordinal'])
        .where('prefix_id', '=', seeded.prefixId)
        .execute();
      expect(rows).toHaveLength(activeSlots.length + holes.length);
      for (const r of rows) expect(BigInt(r.address_ordinal)).toBe(parseIpAddress(r.address, 'ip').value);
    });
  });

  describe('an IPv6 /48 handing out /64s, about 5,000 of them held', () => {
    // /64 0 holds the gateway; 2001:db8:100:8000::/52 is reserved (slots 0x8000-0x8fff).
    const space: SlotSpace = {
      family: 'ipv6',
      network: parseIpAddress('2001:db8:100::', 'ip').value,
      shift: 64n,
      excluded: new Set([0, ...range(0x8000, 0x8fff)]),
      first: 0,
      last: 65535,
    };
    const holes = [2500, 2501, 65300];
    const activeSlots = [...range(1, 4999), ...range(65000, 65535)].filter((slot) => !holes.includes(slot));
    const active = new Set(activeSlots);
    let seeded: Seeded;
    beforeAll(async () => {
      seeded = await seed(
        space,
        {
          cidr: '2001:db8:100::/48',
          gateway: '2001:db8:100::1',
          vmAssignmentPrefixLength: 64,
          reservedPrefixes: ['2001:db8:100:8000::/52'],
        },
        activeSlots,
        holes,
        'ipv6_prefix',
      );
    });

    it('picks what the old rule picked for FIRST_AVAILABLE, LAST_AVAILABLE and SEQUENTIAL', async () => {
      const cases = [
        { strategy: FIRST, cursor: undefined },
        { strategy: LAST, cursor: undefined },
        { strategy: SEQUENTIAL, cursor: 3000 },
        { strategy: SEQUENTIAL, cursor: 65535 },
      ] as const;
      for (const { strategy, cursor } of cases) {
        const expected = oldRule(space, active, strategy, cursor);
        const lastAllocated = cursor === undefined ? null : address(space, cursor);
        const { address: chosen } = await allocation(seeded, strategy, { lastAllocated });
        expect({ strategy, cursor, chosen }).toEqual({
          strategy,
          cursor,
          chosen: expected === undefined ? undefined : address(space, expected),
        });
      }
      expect(address(space, 2500)).toBe('2001:db8:100:9c4::');
    });

    it('counts an address anywhere inside a /64 as holding it', async () => {
      // Written while the prefix handed out single addresses, say: it still takes its whole /64.
      await db
        .insertInto('ip_allocations')
        .values({
          prefix_id: seeded.prefixId,
          organization_id: organizationId,
          claim_id: randomUUID(),
          address: '2001:db8:100:9c4:a::1',
          allocated_cidr: '2001:db8:100:9c4:a::1/48',
          allocation_kind: 'ipv6_host',
          status: 'IP_ALLOCATION_STATUS_ACTIVE',
        })
        .execute();
      const { address: chosen } = await allocation(seeded, FIRST);
      expect(chosen).toBe('2001:db8:100:9c5::');
      expect((await allocation(seeded, LAST)).address).toBe(address(space, 65300));
    });
  });
});
