import { InvalidArgumentError } from './domain-error.js';
import { IntervalSet, type Interval } from './interval-set.js';
import {
  addressBits,
  formatIpPrefix,
  gatewayProblem,
  lastAddress,
  prefixContains,
  usableHostRange,
  type IpAddress,
  type IpPrefix,
} from './ip-prefix.js';
import { nearestFreeValue, type ReadTakenValues, type TakenValuesQuery } from './nearest-free-value.js';

/**
 * An IPAM prefix seen as a pool of slots, one slot per VM assignment: a single address (IPv4, or IPv6 with
 * `vmAssignmentPrefixLength` 128) or a sub-prefix (IPv6 with, say, 64: a /48 then holds 65,536 /64 slots).
 * A slot is taken when it holds the gateway, a reserved address, part of a reserved prefix or an allocated
 * value; a shared subnet's network, broadcast and subnet-router anycast addresses are never slots at all.
 *
 * Nothing here lists the pool's addresses: every answer comes from the gaps between taken intervals, so a
 * /64 handing out single addresses (2^64 slots) costs what a /29 does. The next value is found by asking
 * the caller for the allocated values of the slots the strategy walks through, a batch at a time (an index
 * range scan), so it costs what the distance to a free slot costs, not what the allocations in the pool
 * do; the counts take every allocated value at once. The caller serialises concurrent allocations itself;
 * this only decides which value comes next. Exhaustion is an answer (undefined), not an error: the caller
 * decides whether it means RESOURCE_EXHAUSTED.
 */

export const ALLOCATION_STRATEGIES = [
  'ALLOCATION_STRATEGY_SEQUENTIAL',
  'ALLOCATION_STRATEGY_RANDOM',
  'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
  'ALLOCATION_STRATEGY_LAST_AVAILABLE',
] as const;
export type AllocationStrategy = (typeof ALLOCATION_STRATEGIES)[number];

export function isAllocationStrategy(value: string): value is AllocationStrategy {
  return (ALLOCATION_STRATEGIES as readonly string[]).includes(value);
}

/** What one allocation from the pool hands a VM (the API's `allocationKind`). */
export type AllocationKind = 'ipv4_host' | 'ipv6_host' | 'ipv6_prefix';

/** A uniformly random integer from 0 up to, not including, `bound` (at least 1). */
export type RandomBelow = (bound: bigint) => bigint;

/** A prefix's configuration, already parsed; the field names are the API's, and so are those in errors. */
export interface AddressPoolInput {
  readonly prefix: IpPrefix;
  /** Required for IPv6; IPv4 pools always hand out single addresses, so it may only be left out or 32. */
  readonly vmAssignmentPrefixLength?: number | undefined;
  readonly gateway?: IpAddress | undefined;
  readonly reservedIps?: readonly IpAddress[] | undefined;
  readonly reservedPrefixes?: readonly IpPrefix[] | undefined;
}

export interface NextAddressOptions {
  /**
   * Where SEQUENTIAL continues from: the value handed out last. Without it, the highest allocated value is
   * used, which hands a just-released top address out again at once; with it, released addresses rest
   * until the sequence wraps.
   */
  readonly lastAllocated?: IpAddress | undefined;
  /** RANDOM's source; the platform's cryptographic generator when left out. */
  readonly random?: RandomBelow | undefined;
}

/** The API's Utilization, counted in slots (addresses, or /64s for a pool assigning /64s). */
export interface PoolUtilization {
  /** Slots minus the reserved ones minus the gateway's: what VMs could hold at most. */
  readonly totalIps: bigint;
  readonly allocatedCount: bigint;
  /** Reserved slots not allocated: an allocation on a later-reserved address still counts as allocated. */
  readonly reservedCount: bigint;
  readonly availableCount: bigint;
  /** allocatedCount / totalIps in percent, rounded down to hundredths so that only a full pool shows 100. */
  readonly utilizationPercent: number;
  /** The capacity is beyond what a JSON number holds exactly: show it as unlimited rather than a number. */
  readonly capacityIsOpenEnded: boolean;
}

const OPEN_ENDED_CAPACITY = BigInt(Number.MAX_SAFE_INTEGER);
const HUNDREDTHS_OF_A_PERCENT = 10_000n;
const RANDOM_WORD_BITS = 32;
/**
 * RANDOM's draws before it walks on from the last one: a pool 90 % full still gets a random slot more
 * often than not, and a nearly full one is not left to luck.
 */
const RANDOM_DRAWS = 8;

export class AddressPool {
  readonly prefix: IpPrefix;
  /** The length of the prefix each VM gets: 32 for IPv4, `vmAssignmentPrefixLength` for IPv6. */
  readonly assignmentLength: number;
  /** Address bits inside one slot. */
  readonly #slotShift: bigint;
  /** Slots are numbered from the prefix's network address; these bound the usable ones. */
  readonly #firstSlot: bigint;
  readonly #lastSlot: bigint;
  readonly #gateway: IntervalSet;
  /** The gateway's slot and every reserved one: taken whatever is allocated. */
  readonly #excluded: IntervalSet;

  /** Validates the configuration as a whole, so the same call serves creating a prefix and loading one. */
  constructor(input: AddressPoolInput) {
    const { prefix } = input;
    this.prefix = prefix;
    this.assignmentLength = validAssignmentLength(prefix, input.vmAssignmentPrefixLength);
    const bits = addressBits(prefix.family);
    this.#slotShift = BigInt(bits - this.assignmentLength);
    if (this.assignmentLength === bits) {
      const { first, last } = usableHostRange(prefix);
      this.#firstSlot = first.value - prefix.network;
      this.#lastSlot = last.value - prefix.network;
    } else {
      // A delegated sub-prefix is routed to the VM, not shared on a link, so no slot of it is off limits.
      this.#firstSlot = 0n;
      this.#lastSlot = this.#slotOf(lastAddress(prefix));
    }
    this.#gateway = IntervalSet.of(input.gateway === undefined ? [] : [this.#gatewaySlot(input.gateway)]);
    const reserved = IntervalSet.of([
      ...(input.reservedIps ?? []).map((address, i) => this.#reservedIpSlots(address, i)),
      ...(input.reservedPrefixes ?? []).map((reserved, i) => this.#reservedPrefixSlots(reserved, i)),
    ]).clip(this.#firstSlot, this.#lastSlot);
    this.#excluded = reserved.union(this.#gateway);
  }

  get allocationKind(): AllocationKind {
    if (this.prefix.family === 'ipv4') return 'ipv4_host';
    return this.#slotShift === 0n ? 'ipv6_host' : 'ipv6_prefix';
  }

  /**
   * The value to allocate next (a sub-prefix's first address when slots are sub-prefixes), or undefined
   * when the pool is exhausted. `readAllocated` answers with the values held now in a range of addresses
   * (an indexed range scan); it is asked only about the slots the strategy walks through, a batch at a
   * time, never about what lies outside the pool.
   */
  async next(
    strategy: AllocationStrategy,
    readAllocated: ReadTakenValues,
    options: NextAddressOptions = {},
  ): Promise<IpAddress | undefined> {
    const read: ReadTakenValues = async (slots) => {
      const { runs, more } = await readAllocated(this.#addressRange(slots));
      return { runs: runs.map(([low, high]): Interval => [this.#slotOf(low), this.#slotOf(high)]), more };
    };
    const first = this.#firstSlot;
    const last = this.#lastSlot;
    let slot: bigint | undefined;
    switch (strategy) {
      case 'ALLOCATION_STRATEGY_FIRST_AVAILABLE':
        slot = await this.#nearestFree(first, last, false, read);
        break;
      case 'ALLOCATION_STRATEGY_LAST_AVAILABLE':
        slot = await this.#nearestFree(first, last, true, read);
        break;
      case 'ALLOCATION_STRATEGY_SEQUENTIAL': {
        const after = options.lastAllocated;
        const cursor =
          after !== undefined && prefixContains(this.prefix, after)
            ? this.#slotOf(after.value)
            : (await read({ first, last, descending: true, limit: 1 })).runs[0]?.[1];
        // Everything after the cursor is taken when the first walk fails, so the wrap stops at the cursor.
        slot =
          cursor === undefined
            ? await this.#nearestFree(first, last, false, read)
            : ((await this.#nearestFree(cursor + 1n, last, false, read)) ??
              (await this.#nearestFree(first, cursor, false, read)));
        break;
      }
      case 'ALLOCATION_STRATEGY_RANDOM':
        slot = await this.#randomFree(options.random ?? cryptoRandomBelow, read);
        break;
    }
    return slot === undefined ? undefined : this.#addressOf(slot);
  }

  /** The lowest free values, at most `limit` of them (the `available-ips` listing). */
  available(allocated: readonly IpAddress[], limit: number): IpAddress[] {
    const taken = this.#excluded.union(this.#allocatedSlots(allocated));
    const result: IpAddress[] = [];
    for (const [first, last] of taken.gaps(this.#firstSlot, this.#lastSlot)) {
      for (let slot = first; slot <= last && result.length < limit; slot++)
        result.push(this.#addressOf(slot));
      if (result.length >= limit) break;
    }
    return result;
  }

  availableCount(allocated: readonly IpAddress[]): bigint {
    return this.#slotCount() - this.#excluded.union(this.#allocatedSlots(allocated)).size;
  }

  utilization(allocated: readonly IpAddress[]): PoolUtilization {
    const allocatedSlots = this.#allocatedSlots(allocated);
    const gatewayCount = this.#gateway.size;
    const allocatedCount = allocatedSlots.union(this.#gateway).size - gatewayCount;
    const takenCount = this.#excluded.union(allocatedSlots).size;
    const reservedCount = takenCount - gatewayCount - allocatedCount;
    const totalIps = this.#slotCount() - reservedCount - gatewayCount;
    return {
      totalIps,
      allocatedCount,
      reservedCount,
      availableCount: totalIps - allocatedCount,
      utilizationPercent:
        totalIps === 0n ? 0 : Number((allocatedCount * HUNDREDTHS_OF_A_PERCENT) / totalIps) / 100,
      capacityIsOpenEnded: totalIps > OPEN_ENDED_CAPACITY,
    };
  }

  /** The free slot of [from, to] nearest `from`, or nearest `to` when descending; reserved slots are skipped. */
  async #nearestFree(
    from: bigint,
    to: bigint,
    descending: boolean,
    read: ReadTakenValues,
  ): Promise<bigint | undefined> {
    const unexcluded = [
      ...this.#excluded.gaps(
        from > this.#firstSlot ? from : this.#firstSlot,
        to < this.#lastSlot ? to : this.#lastSlot,
      ),
    ];
    return nearestFreeValue(descending ? unexcluded.reverse() : unexcluded, descending, read);
  }

  /**
   * Uniform over the slots neither reserved nor the gateway's, each draw checked with one lookup; after
   * RANDOM_DRAWS taken ones, the free slot at or after the last draw (wrapping), so a nearly full pool still
   * gets an answer.
   */
  async #randomFree(random: RandomBelow, read: ReadTakenValues): Promise<bigint | undefined> {
    const candidates = this.#slotCount() - this.#excluded.size;
    if (candidates <= 0n) return undefined;
    let slot = this.#firstSlot;
    for (let draw = 0; draw < RANDOM_DRAWS; draw++) {
      slot = this.#unexcludedSlot(random(candidates));
      const held = await read({ first: slot, last: slot, descending: false, limit: 1 });
      if (held.runs.length === 0) return slot;
    }
    return (
      (await this.#nearestFree(slot, this.#lastSlot, false, read)) ??
      (await this.#nearestFree(this.#firstSlot, slot - 1n, false, read))
    );
  }

  /** The index-th slot, lowest first, of those neither reserved nor the gateway's. */
  #unexcludedSlot(index: bigint): bigint {
    let rest = index;
    for (const [first, last] of this.#excluded.gaps(this.#firstSlot, this.#lastSlot)) {
      const size = last - first + 1n;
      if (rest < size) return first + rest;
      rest -= size;
    }
    throw new RangeError(`the random source drew ${index.toString()}, beyond the pool's unreserved slots`);
  }

  /** The addresses a range of slots covers: all of each sub-prefix. */
  #addressRange(slots: TakenValuesQuery): TakenValuesQuery {
    return {
      ...slots,
      first: this.#addressOf(slots.first).value,
      last: this.#addressOf(slots.last + 1n).value - 1n,
    };
  }

  #slotCount(): bigint {
    return this.#lastSlot - this.#firstSlot + 1n;
  }

  #slotOf(address: bigint): bigint {
    return (address - this.prefix.network) >> this.#slotShift;
  }

  #addressOf(slot: bigint): IpAddress {
    return { family: this.prefix.family, value: this.prefix.network + (slot << this.#slotShift) };
  }

  #allocatedSlots(allocated: readonly IpAddress[]): IntervalSet {
    const { family, network } = this.prefix;
    const first = network + (this.#firstSlot << this.#slotShift);
    const last = network + ((this.#lastSlot + 1n) << this.#slotShift) - 1n;
    const slots: bigint[] = [];
    for (const { family: f, value } of allocated)
      if (f === family && value >= first && value <= last) slots.push(this.#slotOf(value));
    return IntervalSet.ofValues(slots);
  }

  #gatewaySlot(gateway: IpAddress): Interval {
    const problem = gatewayProblem(this.prefix, gateway);
    if (problem !== undefined) throw InvalidArgumentError.field('gateway', problem);
    const slot = this.#slotOf(gateway.value);
    return [slot, slot];
  }

  #reservedIpSlots(address: IpAddress, index: number): Interval {
    if (!prefixContains(this.prefix, address))
      throw InvalidArgumentError.field(
        `reservedIps.${index}`,
        `must lie inside the prefix ${formatIpPrefix(this.prefix)}`,
      );
    const slot = this.#slotOf(address.value);
    return [slot, slot];
  }

  #reservedPrefixSlots(reserved: IpPrefix, index: number): Interval {
    if (!prefixContains(this.prefix, reserved))
      throw InvalidArgumentError.field(
        `reservedPrefixes.${index}`,
        `must lie inside the prefix ${formatIpPrefix(this.prefix)}`,
      );
    return [this.#slotOf(reserved.network), this.#slotOf(lastAddress(reserved))];
  }
}

function validAssignmentLength(prefix: IpPrefix, requested: number | undefined): number {
  const field = 'vmAssignmentPrefixLength';
  const bits = addressBits(prefix.family);
  if (prefix.family === 'ipv4') {
    if (requested === undefined || requested === bits) return bits;
    throw InvalidArgumentError.field(field, `must be left out or ${bits} for an IPv4 prefix`);
  }
  if (requested === undefined)
    throw InvalidArgumentError.field(
      field,
      'is required for an IPv6 prefix: 64 to give each VM a /64, 128 for one address',
    );
  if (!Number.isInteger(requested) || requested < prefix.length || requested > bits)
    throw InvalidArgumentError.field(
      field,
      `must be a whole number from ${prefix.length} (the prefix's own length) to ${bits}`,
    );
  return requested;
}

/** Rejection sampling over just enough random bits, so every value below `bound` is equally likely. */
function cryptoRandomBelow(bound: bigint): bigint {
  const bits = (bound - 1n).toString(2).length;
  const words = new Uint32Array(Math.ceil(bits / RANDOM_WORD_BITS));
  const surplus = BigInt(words.length * RANDOM_WORD_BITS - bits);
  for (;;) {
    crypto.getRandomValues(words);
    const value =
      words.reduce((sum, word) => (sum << BigInt(RANDOM_WORD_BITS)) | BigInt(word), 0n) >> surplus;
    if (value < bound) return value;
  }
}
