import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import {
  AddressPool,
  ALLOCATION_STRATEGIES,
  isAllocationStrategy,
  type AddressPoolInput,
  type AllocationStrategy,
  type NextAddressOptions,
} from './address-pool.js';
import { InvalidArgumentError } from './domain-error.js';
import {
  formatIpAddress,
  parseIpAddress,
  parseIpPrefix,
  type IpAddress,
  type IpFamily,
  type IpPrefix,
} from './ip-prefix.js';
import type { ReadTakenValues, TakenRuns, TakenValuesQuery } from './nearest-free-value.js';

const FIRST: AllocationStrategy = 'ALLOCATION_STRATEGY_FIRST_AVAILABLE';
const LAST: AllocationStrategy = 'ALLOCATION_STRATEGY_LAST_AVAILABLE';
const SEQUENTIAL: AllocationStrategy = 'ALLOCATION_STRATEGY_SEQUENTIAL';
const RANDOM: AllocationStrategy = 'ALLOCATION_STRATEGY_RANDOM';
const BITS = { ipv4: 32, ipv6: 128 } as const;

const ip = (text: string): IpAddress => parseIpAddress(text, 'ip');
const ips = (...texts: string[]): IpAddress[] => texts.map(ip);
const cidr = (text: string): IpPrefix => parseIpPrefix(text, 'cidr');
const text = (address: IpAddress | undefined): string | undefined =>
  address === undefined ? undefined : formatIpAddress(address);

function pool(prefix: string, rest: Omit<AddressPoolInput, 'prefix'> = {}): AddressPool {
  return new AddressPool({ prefix: cidr(prefix), ...rest });
}

/** The indexed range scan of the database, over an array; it keeps the queries it was asked. */
function readerOf(
  family: IpFamily,
  allocated: readonly IpAddress[],
): ReadTakenValues & { readonly queries: TakenValuesQuery[] } {
  // Distinct, as the unique index on active addresses keeps them (deduplicated after sorting: a Set of
  // 128-bit BigInts is slow to build).
  const values = allocated
    .filter((a) => a.family === family)
    .map((a) => a.value)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .filter((value, i, sorted) => i === 0 || value !== sorted[i - 1]);
  const queries: TakenValuesQuery[] = [];
  const read = (query: TakenValuesQuery): Promise<TakenRuns> => {
    queries.push(query);
    const inRange = values.filter((value) => value >= query.first && value <= query.last);
    const batch = (query.descending ? inRange.reverse() : inRange).slice(0, query.limit);
    const runs: [bigint, bigint][] = [];
    for (const value of batch) {
      const run = runs.at(-1);
      if (run !== undefined && value === (query.descending ? run[0] - 1n : run[1] + 1n)) {
        if (query.descending) run[0] = value;
        else run[1] = value;
      } else runs.push([value, value]);
    }
    return Promise.resolve({ runs, more: batch.length === query.limit });
  };
  return Object.assign(read, { queries });
}

function nextOf(
  p: AddressPool,
  allocated: readonly IpAddress[],
  strategy: AllocationStrategy,
  options?: NextAddressOptions,
): Promise<IpAddress | undefined> {
  return p.next(strategy, readerOf(p.prefix.family, allocated), options);
}

function violationOf(build: () => unknown): unknown {
  try {
    build();
    return undefined;
  } catch (e: unknown) {
    if (!(e instanceof InvalidArgumentError)) throw e;
    return e.fieldViolations;
  }
}

describe('allocation strategies', () => {
  it('names the four strategies of the API', () => {
    expect(ALLOCATION_STRATEGIES.every(isAllocationStrategy)).toBe(true);
    expect(isAllocationStrategy('ALLOCATION_STRATEGY_UNSPECIFIED')).toBe(false);
  });
});

describe('an IPv4 /24 with its gateway on .1', () => {
  const v4 = pool('192.0.2.0/24', { gateway: ip('192.0.2.1'), reservedIps: ips('192.0.2.2', '192.0.2.3') });

  it('hands out the lowest, the highest, and the next after the last, never the network or broadcast', async () => {
    const allocated = ips('192.0.2.4', '192.0.2.5', '192.0.2.9');
    expect(text(await nextOf(v4, allocated, FIRST))).toBe('192.0.2.6');
    expect(text(await nextOf(v4, allocated, LAST))).toBe('192.0.2.254');
    expect(text(await nextOf(v4, allocated, SEQUENTIAL))).toBe('192.0.2.10');
    expect(text(await nextOf(v4, [], SEQUENTIAL))).toBe('192.0.2.4');
    expect(text(await nextOf(v4, allocated, SEQUENTIAL, { lastAllocated: ip('192.0.2.5') }))).toBe(
      '192.0.2.6',
    );
  });

  it('wraps SEQUENTIAL to the lowest free address once the top is taken', async () => {
    expect(text(await nextOf(v4, ips('192.0.2.10', '192.0.2.254'), SEQUENTIAL))).toBe('192.0.2.4');
    expect(text(await nextOf(v4, ips('192.0.2.4'), SEQUENTIAL, { lastAllocated: ip('192.0.2.254') }))).toBe(
      '192.0.2.5',
    );
  });

  it('keeps a released address resting when told which address went out last', async () => {
    // .20 was the last handed out, then released: the next one is .21, not .20 again.
    expect(text(await nextOf(v4, ips('192.0.2.19'), SEQUENTIAL, { lastAllocated: ip('192.0.2.20') }))).toBe(
      '192.0.2.21',
    );
  });

  it('draws RANDOM over the slots that are not reserved, and walks on from a draw that keeps hitting taken ones', async () => {
    // Draws count from .4, the first address neither the gateway's nor reserved, so 9 lands on .13.
    const draws: bigint[] = [];
    const random = (bound: bigint): bigint => {
      draws.push(bound);
      return 9n;
    };
    expect(text(await nextOf(v4, [], RANDOM, { random }))).toBe('192.0.2.13');
    expect(draws).toEqual([251n]);
    draws.length = 0;
    expect(text(await nextOf(v4, ips('192.0.2.13', '192.0.2.14'), RANDOM, { random }))).toBe('192.0.2.15');
    expect(draws).toEqual(Array.from({ length: 8 }, () => 251n));
    expect(text(await nextOf(v4, ips('192.0.2.254'), RANDOM, { random: (bound) => bound - 1n }))).toBe(
      '192.0.2.4',
    );
  });

  it('takes the first free draw, checking each with one lookup', async () => {
    const allocated = ips('192.0.2.13');
    const reader = readerOf('ipv4', allocated);
    const draws = [9n, 10n];
    const chosen = await v4.next(RANDOM, reader, { random: () => draws.shift() ?? 0n });
    expect(text(chosen)).toBe('192.0.2.14');
    expect(reader.queries.map((q) => [text({ family: 'ipv4', value: q.first }), q.limit])).toEqual([
      ['192.0.2.13', 1],
      ['192.0.2.14', 1],
    ]);
  });

  it('spreads RANDOM over the pool with the default source', async () => {
    const seen = new Set(
      await Promise.all(Array.from({ length: 200 }, async () => text(await nextOf(v4, [], RANDOM)))),
    );
    expect(seen.size).toBeGreaterThan(100);
    // Never the network, the gateway, the reserved .2 and .3, or the broadcast address.
    for (const address of seen) expect(address).not.toMatch(/\.(0|1|2|3|255)$/);
  });

  it('lists the first free addresses and counts the rest', () => {
    const allocated = ips('192.0.2.5', '192.0.2.7');
    expect(v4.available(allocated, 4).map(text)).toEqual([
      '192.0.2.4',
      '192.0.2.6',
      '192.0.2.8',
      '192.0.2.9',
    ]);
    expect(v4.available(allocated, 0)).toEqual([]);
    expect(v4.availableCount(allocated)).toBe(254n - 3n - 2n);
    expect(v4.utilization(allocated)).toEqual({
      totalIps: 251n,
      allocatedCount: 2n,
      reservedCount: 2n,
      availableCount: 249n,
      utilizationPercent: 0.79,
      capacityIsOpenEnded: false,
    });
  });

  it('counts an allocation on a reserved address as allocated, not twice', () => {
    const utilization = v4.utilization(ips('192.0.2.2', '192.0.2.40', '192.0.2.40', '198.51.100.7'));
    expect(utilization).toMatchObject({
      totalIps: 252n,
      allocatedCount: 2n,
      reservedCount: 1n,
      availableCount: 250n,
    });
  });

  it('answers undefined, not an error, when the pool is exhausted', async () => {
    const full = pool('192.0.2.0/29', { gateway: ip('192.0.2.1'), reservedPrefixes: [cidr('192.0.2.4/30')] });
    const allocated = ips('192.0.2.2', '192.0.2.3');
    for (const strategy of ALLOCATION_STRATEGIES)
      expect(await nextOf(full, allocated, strategy)).toBeUndefined();
    expect(full.available(allocated, 10)).toEqual([]);
    expect(full.utilization(allocated)).toEqual({
      totalIps: 2n,
      allocatedCount: 2n,
      reservedCount: 3n,
      availableCount: 0n,
      utilizationPercent: 100,
      capacityIsOpenEnded: false,
    });
  });
});

describe('the smallest IPv4 prefixes', () => {
  it('uses both addresses of a /31 point-to-point link (RFC 3021)', async () => {
    const link = pool('192.0.2.0/31', { gateway: ip('192.0.2.0') });
    expect(text(await nextOf(link, [], FIRST))).toBe('192.0.2.1');
    expect(link.utilization([]).totalIps).toBe(1n);
  });

  it('hands out the one address of a /32, and reports a fully reserved pool as 0 % used', async () => {
    expect(text(await nextOf(pool('192.0.2.7/32'), [], FIRST))).toBe('192.0.2.7');
    const reserved = pool('192.0.2.7/32', { reservedIps: ips('192.0.2.7') });
    expect(await nextOf(reserved, [], FIRST)).toBeUndefined();
    expect(reserved.utilization([])).toMatchObject({
      totalIps: 0n,
      availableCount: 0n,
      utilizationPercent: 0,
    });
    const whole = pool('192.0.2.0/24', { reservedPrefixes: [cidr('192.0.2.0/24')] });
    expect(await nextOf(whole, [], FIRST)).toBeUndefined();
    expect(whole.utilization([])).toMatchObject({ totalIps: 0n, reservedCount: 254n });
  });
});

describe('IPv6 pools', () => {
  it('hands out single addresses of a /64 without listing 2^64 of them, skipping only the anycast ::', async () => {
    const v6 = pool('2001:db8::/64', { vmAssignmentPrefixLength: 128, gateway: ip('2001:db8::1') });
    expect(v6.allocationKind).toBe('ipv6_host');
    const allocated = Array.from({ length: 10_000 }, (_, i) => ip(`2001:db8::${(i + 2).toString(16)}`));
    expect(text(await nextOf(v6, allocated, FIRST))).toBe('2001:db8::2712');
    expect(text(await nextOf(v6, allocated, LAST))).toBe('2001:db8::ffff:ffff:ffff:ffff');
    expect(text(await nextOf(v6, allocated, SEQUENTIAL))).toBe('2001:db8::2712');
    expect(v6.utilization(allocated)).toEqual({
      totalIps: 2n ** 64n - 2n,
      allocatedCount: 10_000n,
      reservedCount: 0n,
      availableCount: 2n ** 64n - 2n - 10_000n,
      utilizationPercent: 0,
      capacityIsOpenEnded: true,
    });
  });

  it('hands out /64s of a /48, the gateway taking the /64 it sits in', async () => {
    const v6 = pool('2001:db8::/48', {
      vmAssignmentPrefixLength: 64,
      gateway: ip('2001:db8::1'),
      reservedIps: ips('2001:db8:0:5::17'),
      reservedPrefixes: [cidr('2001:db8:0:100::/56'), cidr('2001:db8:0:7:8000::/65')],
    });
    expect(v6.allocationKind).toBe('ipv6_prefix');
    expect(v6.assignmentLength).toBe(64);
    const allocated = ips('2001:db8:0:1::', '2001:db8:0:2::', '2001:db8:0:3:a::1');
    expect(v6.available(allocated, 4).map(text)).toEqual([
      '2001:db8:0:4::',
      '2001:db8:0:6::',
      '2001:db8:0:8::',
      '2001:db8:0:9::',
    ]);
    expect(text(await nextOf(v6, allocated, LAST))).toBe('2001:db8:0:ffff::');
    expect(v6.utilization(allocated)).toEqual({
      totalIps: 65_536n - 1n - 258n,
      allocatedCount: 3n,
      reservedCount: 258n,
      availableCount: 65_536n - 1n - 258n - 3n,
      utilizationPercent: 0,
      capacityIsOpenEnded: false,
    });
  });

  it('walks a /48 with all 65,535 free /64s handed out', async () => {
    const v6 = pool('2001:db8::/48', { vmAssignmentPrefixLength: 64, gateway: ip('2001:db8::1') });
    const allocated = Array.from({ length: 65_535 }, (_, i): IpAddress => ({
      family: 'ipv6',
      value: cidr('2001:db8::/48').network + (BigInt(i + 1) << 64n),
    }));
    for (const strategy of ALLOCATION_STRATEGIES)
      expect(await nextOf(v6, allocated, strategy)).toBeUndefined();
    expect(v6.utilization(allocated)).toMatchObject({ availableCount: 0n, utilizationPercent: 100 });
    expect(text(await nextOf(v6, allocated.slice(0, -1), RANDOM))).toBe('2001:db8:0:ffff::');
  });

  it('refuses assignment lengths that do not fit the prefix', () => {
    expect(violationOf(() => pool('2001:db8::/48'))).toEqual([
      {
        field: 'vmAssignmentPrefixLength',
        description: expect.stringMatching(/required for an IPv6/) as unknown,
      },
    ]);
    for (const length of [47, 129, 64.5])
      expect(violationOf(() => pool('2001:db8::/48', { vmAssignmentPrefixLength: length }))).toEqual([
        {
          field: 'vmAssignmentPrefixLength',
          description: "must be a whole number from 48 (the prefix's own length) to 128",
        },
      ]);
    expect(violationOf(() => pool('192.0.2.0/24', { vmAssignmentPrefixLength: 30 }))).toEqual([
      { field: 'vmAssignmentPrefixLength', description: 'must be left out or 32 for an IPv4 prefix' },
    ]);
    expect(pool('192.0.2.0/24', { vmAssignmentPrefixLength: 32 }).allocationKind).toBe('ipv4_host');
  });
});

describe('configuration errors', () => {
  it('names the bad gateway, reserved address or reserved prefix', () => {
    expect(violationOf(() => pool('192.0.2.0/24', { gateway: ip('192.0.2.255') }))).toEqual([
      { field: 'gateway', description: expect.stringMatching(/broadcast/) as unknown },
    ]);
    expect(violationOf(() => pool('192.0.2.0/24', { reservedIps: ips('192.0.2.9', '192.0.3.9') }))).toEqual([
      { field: 'reservedIps.1', description: 'must lie inside the prefix 192.0.2.0/24' },
    ]);
    expect(violationOf(() => pool('192.0.2.0/24', { reservedPrefixes: [cidr('192.0.0.0/16')] }))).toEqual([
      { field: 'reservedPrefixes.0', description: 'must lie inside the prefix 192.0.2.0/24' },
    ]);
  });
});

describe('a /16 with 60,000 addresses allocated', () => {
  const v4 = pool('10.0.0.0/16', { gateway: ip('10.0.0.1') });
  const base = cidr('10.0.0.0/16').network;
  const allocated = Array.from({ length: 60_000 }, (_, i): IpAddress => ({
    family: 'ipv4',
    value: base + BigInt(2 + i),
  }));
  const rowsAsked = (queries: readonly TakenValuesQuery[]): number =>
    queries.reduce((sum, q) => sum + q.limit, 0);

  it('answers from the gaps, in any input order', async () => {
    const shuffled = [...allocated].reverse();
    expect(text(await nextOf(v4, allocated, SEQUENTIAL))).toBe('10.0.234.98');
    expect(text(await nextOf(v4, shuffled, FIRST))).toBe('10.0.234.98');
    expect(v4.availableCount(shuffled)).toBe(65_534n - 1n - 60_000n);
  });

  it('reads only as far as the first free slot', async () => {
    const sequential = readerOf('ipv4', allocated);
    const after = await v4.next(SEQUENTIAL, sequential, { lastAllocated: ip('10.0.234.97') });
    expect(text(after)).toBe('10.0.234.98');
    expect(sequential.queries).toEqual([
      { first: ip('10.0.234.98').value, last: ip('10.0.255.254').value, descending: false, limit: 64 },
    ]);

    // A hole early on: two small reads, whatever follows it.
    const holed = readerOf('ipv4', [...allocated.slice(0, 100), ...allocated.slice(101)]);
    expect(text(await v4.next(FIRST, holed))).toBe('10.0.0.102');
    expect(rowsAsked(holed.queries)).toBe(64 + 256);

    // No hole: the batches grow, so 60,000 taken addresses cost dozens of reads rather than a thousand.
    const dense = readerOf('ipv4', allocated);
    expect(text(await v4.next(FIRST, dense))).toBe('10.0.234.98');
    expect(dense.queries.length).toBeLessThan(70);
  });
});

// Brute force over every slot of a small pool: the rules restated in the plainest form, to compare against.
interface Case {
  readonly input: AddressPoolInput;
  readonly allocated: readonly IpAddress[];
  readonly lastAllocated: IpAddress | undefined;
  readonly draw: bigint;
}

interface Oracle {
  /** Slot start addresses, lowest first: those a VM may hold, and those of them no one holds. */
  readonly usable: bigint[];
  readonly free: bigint[];
  /** The usable slots by what takes them, each slot counted once: gateway, then allocation, then reservation. */
  readonly gateway: bigint[];
  readonly allocated: bigint[];
  readonly reserved: bigint[];
  /** The usable slots that are neither the gateway's nor reserved, allocated or not: what RANDOM draws from. */
  readonly unexcluded: bigint[];
  readonly slotSize: bigint;
}

function oracle({ input, allocated }: Pick<Case, 'input' | 'allocated'>): Oracle {
  const { prefix } = input;
  const bits = BITS[prefix.family];
  const assignment = input.vmAssignmentPrefixLength ?? bits;
  const slotSize = 2n ** BigInt(bits - assignment);
  const end = prefix.network + 2n ** BigInt(bits - prefix.length);
  const hostAssignment = assignment === bits;
  const shared = prefix.length <= (prefix.family === 'ipv4' ? 30 : 126);
  const inSlot = (slot: bigint, value: bigint): boolean => value >= slot && value < slot + slotSize;
  const result: Oracle = {
    usable: [],
    free: [],
    gateway: [],
    allocated: [],
    reserved: [],
    unexcluded: [],
    slotSize,
  };
  for (let slot = prefix.network; slot < end; slot += slotSize) {
    if (hostAssignment && shared && slot === prefix.network) continue;
    if (hostAssignment && shared && prefix.family === 'ipv4' && slot === end - 1n) continue;
    result.usable.push(slot);
    const isGateway = input.gateway !== undefined && inSlot(slot, input.gateway.value);
    const isReserved =
      (input.reservedIps ?? []).some((r) => inSlot(slot, r.value)) ||
      (input.reservedPrefixes ?? []).some(
        (r) => r.network < slot + slotSize && slot <= r.network + 2n ** BigInt(bits - r.length) - 1n,
      );
    if (!isGateway && !isReserved) result.unexcluded.push(slot);
    if (isGateway) result.gateway.push(slot);
    else if (allocated.some((a) => a.family === prefix.family && inSlot(slot, a.value)))
      result.allocated.push(slot);
    else if (isReserved) result.reserved.push(slot);
    else result.free.push(slot);
  }
  return result;
}

function expected(strategy: AllocationStrategy, c: Case, o: Oracle): bigint | undefined {
  const slotOf = (value: bigint): bigint => value - ((value - c.input.prefix.network) % o.slotSize);
  const lowestFrom = (from: bigint): bigint | undefined => o.free.find((slot) => slot >= from);
  switch (strategy) {
    case FIRST:
      return o.free[0];
    case LAST:
      return o.free.at(-1);
    case SEQUENTIAL: {
      const allocatedSlots = c.allocated
        .filter((a) => a.family === c.input.prefix.family)
        .map((a) => slotOf(a.value))
        .filter((slot) => o.usable.includes(slot));
      const cursor =
        c.lastAllocated !== undefined
          ? slotOf(c.lastAllocated.value)
          : allocatedSlots.reduce<bigint | undefined>(
              (max, s) => (max === undefined || s > max ? s : max),
              undefined,
            );
      return (cursor === undefined ? undefined : lowestFrom(cursor + 1n)) ?? o.free[0];
    }
    case RANDOM: {
      // Every draw is the same here: the drawn slot if free, else the walk on from it, wrapping.
      const start = o.unexcluded[Number(c.draw % BigInt(Math.max(o.unexcluded.length, 1)))];
      return start === undefined ? undefined : (lowestFrom(start) ?? o.free[0]);
    }
  }
}

function arbitraryCase(): fc.Arbitrary<Case> {
  const shapes = fc.oneof(
    fc.record({
      family: fc.constant<IpFamily>('ipv4'),
      length: fc.integer({ min: 24, max: 32 }),
      assignment: fc.constant(32),
    }),
    fc.record({
      family: fc.constant<IpFamily>('ipv6'),
      length: fc.integer({ min: 120, max: 128 }),
      assignment: fc.constant(128),
    }),
    fc.integer({ min: 112, max: 124 }).chain((length) =>
      fc.record({
        family: fc.constant<IpFamily>('ipv6'),
        length: fc.constant(length),
        assignment: fc.integer({ min: length, max: Math.min(length + 8, 128) }),
      }),
    ),
  );
  return shapes.chain(({ family, length, assignment }) => {
    const bits = BITS[family];
    const size = 2n ** BigInt(bits - length);
    return fc.bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n }).chain((seed) => {
      const network = (seed / size) * size;
      const prefix: IpPrefix = { family, network, length };
      const inside = fc
        .bigInt({ min: 0n, max: size - 1n })
        .map((offset): IpAddress => ({ family, value: network + offset }));
      // Mostly small reservations, so that a pool is rarely reserved whole.
      const subPrefix = fc.integer({ min: Math.min(length + 2, bits), max: bits }).chain((subLength) => {
        const subSize = 2n ** BigInt(bits - subLength);
        return fc
          .bigInt({ min: 0n, max: size / subSize - 1n })
          .map((index): IpPrefix => ({ family, network: network + index * subSize, length: subLength }));
      });
      // The gateway is a host on the link whatever the pool hands out, so the address-level rule applies.
      const shared = length <= (family === 'ipv4' ? 30 : 126);
      const gateway = inside.filter(
        (a) => !shared || (a.value !== network && (family === 'ipv6' || a.value !== network + size - 1n)),
      );
      const outside = fc
        .bigInt({ min: 0n, max: 2n ** BigInt(bits) - 1n })
        .filter((value) => value < network || value >= network + size)
        .map((value): IpAddress => ({ family, value }));
      return fc.record({
        input: fc.record({
          prefix: fc.constant(prefix),
          vmAssignmentPrefixLength: fc.constant(family === 'ipv6' ? assignment : undefined),
          gateway: fc.option(gateway, { nil: undefined }),
          reservedIps: fc.array(inside, { maxLength: 20 }),
          reservedPrefixes: fc.array(subPrefix, { maxLength: 3 }),
        }),
        allocated: fc.array(fc.oneof({ weight: 9, arbitrary: inside }, { weight: 1, arbitrary: outside }), {
          maxLength: 80,
        }),
        lastAllocated: fc.option(inside, { nil: undefined }),
        draw: fc.bigInt({ min: 0n, max: 2n ** 64n }),
      });
    });
  });
}

const strategies = fc.constantFrom(...ALLOCATION_STRATEGIES);

describe('against a brute-force oracle on small pools', () => {
  it('every strategy picks what the oracle picks', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryCase(), strategies, async (c, strategy) => {
        const o = oracle(c);
        const unexcludedSlots = BigInt(o.unexcluded.length);
        const chosen = await nextOf(new AddressPool(c.input), c.allocated, strategy, {
          lastAllocated: c.lastAllocated,
          // The oracle indexes the slots RANDOM draws from the same way: draw modulo their count.
          random: (bound) => {
            expect(bound).toBe(unexcludedSlots);
            return c.draw % bound;
          },
        });
        expect(chosen?.value).toBe(expected(strategy, c, o));
        if (chosen !== undefined) expect(chosen.family).toBe(c.input.prefix.family);
      }),
      { numRuns: 500 },
    );
  });

  it('counts and lists what the oracle counts and lists', () => {
    fc.assert(
      fc.property(arbitraryCase(), fc.integer({ min: 0, max: 300 }), (c, limit) => {
        const o = oracle(c);
        const p = new AddressPool(c.input);
        expect(p.available(c.allocated, limit).map((a) => a.value)).toEqual(o.free.slice(0, limit));
        expect(p.availableCount(c.allocated)).toBe(BigInt(o.free.length));
        const u = p.utilization(c.allocated);
        expect(u).toMatchObject({
          totalIps: BigInt(o.allocated.length + o.free.length),
          allocatedCount: BigInt(o.allocated.length),
          reservedCount: BigInt(o.reserved.length),
          availableCount: BigInt(o.free.length),
          capacityIsOpenEnded: false,
        });
        const total = o.allocated.length + o.free.length;
        expect(u.utilizationPercent).toBe(
          total === 0 ? 0 : Math.floor((o.allocated.length * 10_000) / total) / 100,
        );
      }),
      { numRuns: 300 },
    );
  });

  it('allocating until exhaustion hands out distinct, free, usable values, exactly as many as were available', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryCase(),
        strategies,
        fc.bigInt({ min: 0n, max: 2n ** 32n }),
        async (c, strategy, seed) => {
          const p = new AddressPool(c.input);
          const initiallyFree = new Set(oracle(c).free);
          const allocated = [...c.allocated];
          const handedOut = new Set<bigint>();
          let lastAllocated: IpAddress | undefined;
          let draw = seed;
          const random = (bound: bigint): bigint => {
            draw = (draw * 6_364_136_223_846_793_005n + 1n) % 2n ** 64n;
            return (draw >> 16n) % bound;
          };
          for (;;) {
            const next = await nextOf(p, allocated, strategy, { lastAllocated, random });
            if (next === undefined) break;
            expect(initiallyFree.has(next.value)).toBe(true);
            expect(handedOut.has(next.value)).toBe(false);
            handedOut.add(next.value);
            allocated.push(next);
            lastAllocated = next;
          }
          expect(handedOut.size).toBe(initiallyFree.size);
          expect(p.availableCount(allocated)).toBe(0n);
        },
      ),
      { numRuns: 100 },
    );
  });
});
