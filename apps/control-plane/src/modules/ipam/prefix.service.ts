import {
  FailedPreconditionError,
  formatIpAddress,
  formatIpPrefix,
  InvalidArgumentError,
  NotFoundError,
  parseIpAddress,
  parseIpPrefix,
  prefixContains,
  prefixesOverlap,
  prefixUse,
  type AddressPool,
  type AllocationStrategy,
  type IpAddress,
  type IpPrefix,
  type PoolUtilization,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import { capacityUnitLabel, poolOf } from './prefix-pool.js';
import type {
  Prefix,
  PrefixFields,
  PrefixFilter,
  PrefixNeighbour,
  PrefixRepository,
  PrefixUpdateContext,
} from './prefix.repository.js';
import { prefixOverlap } from './prefix.errors.js';

/**
 * Every allocation reads the prefix's reservations, so their number is bounded: a range is reserved with
 * one reserved prefix, not address by address.
 */
export const MAX_RESERVED_IPS = 4096;
export const MAX_RESERVED_PREFIXES = 256;
const DEFAULT_ALLOCATION_STRATEGY: AllocationStrategy = 'ALLOCATION_STRATEGY_SEQUENTIAL';
/** How many orphaned addresses a refusal names before it says "and N more". */
const NAMED_ADDRESSES = 10;

/** A prefix as the API writes it: addresses and CIDRs as text, already of the right syntax. */
export interface PrefixInput {
  readonly cidr: string;
  readonly gateway: string;
  readonly allocationStrategy?: AllocationStrategy | undefined;
  readonly description?: string | undefined;
  readonly networkId?: string | null | undefined;
  /** Null or left out: the default for the family (IPv4 only; IPv6 requires it). */
  readonly vmAssignmentPrefixLength?: number | null | undefined;
  readonly reservedIps?: readonly string[] | undefined;
  readonly reservedPrefixes?: readonly string[] | undefined;
}

export type PrefixChanges = Partial<PrefixInput>;

/** The numbers of the utilization and available-ips answers, counted in slots. */
export interface PrefixUsage extends PoolUtilization {
  readonly capacityUnitLabel: string;
}

export interface AvailableAddresses {
  readonly addresses: readonly IpAddress[];
  readonly usage: PrefixUsage;
}

/** A prefix's fields before the pool has settled its assignment length. */
type Draft = Omit<PrefixFields, 'vmAssignmentPrefixLength'> & {
  readonly vmAssignmentPrefixLength: number | undefined;
};

export class PrefixService {
  constructor(
    private readonly deps: {
      readonly prefixes: Pick<
        PrefixRepository,
        'list' | 'findById' | 'findWithActive' | 'networkExists' | 'insert' | 'update' | 'delete'
      >;
    },
  ) {}

  async list(organizationId: string, filter: PrefixFilter, page: Page): Promise<PageResult<Prefix>> {
    return this.deps.prefixes.list(organizationId, filter, page);
  }

  async get(organizationId: string, id: string): Promise<Prefix> {
    const prefix = await this.deps.prefixes.findById(organizationId, id);
    if (prefix === undefined) throw NotFoundError.of('Prefix', id);
    return prefix;
  }

  async create(organizationId: string, input: PrefixInput): Promise<Prefix> {
    const draft: Draft = {
      networkId: input.networkId ?? null,
      cidr: parseIpPrefix(input.cidr, 'cidr'),
      gateway: parseIpAddress(input.gateway, 'gateway'),
      allocationStrategy: input.allocationStrategy ?? DEFAULT_ALLOCATION_STRATEGY,
      description: input.description ?? '',
      vmAssignmentPrefixLength: input.vmAssignmentPrefixLength ?? undefined,
      reservedIps: parseAddresses(input.reservedIps ?? [], 'reservedIps'),
      reservedPrefixes: parsePrefixes(input.reservedPrefixes ?? [], 'reservedPrefixes'),
    };
    const { fields } = settle(draft);
    refuseUnusableSpace(fields.cidr);
    await this.#refuseUnknownNetwork(organizationId, fields.networkId);
    return await this.deps.prefixes.insert(organizationId, (neighbours) => {
      refuseOverlap(fields.cidr, neighbours);
      return fields;
    });
  }

  /**
   * Fields left out keep their values. The prefix as it would be afterwards is validated as a whole, must
   * not overlap another, and must still hold every address allocated from it.
   */
  async update(organizationId: string, id: string, changes: PrefixChanges): Promise<Prefix> {
    const parsed = {
      cidr: changes.cidr === undefined ? undefined : parseIpPrefix(changes.cidr, 'cidr'),
      gateway: changes.gateway === undefined ? undefined : parseIpAddress(changes.gateway, 'gateway'),
      reservedIps:
        changes.reservedIps === undefined ? undefined : parseAddresses(changes.reservedIps, 'reservedIps'),
      reservedPrefixes:
        changes.reservedPrefixes === undefined
          ? undefined
          : parsePrefixes(changes.reservedPrefixes, 'reservedPrefixes'),
    };
    if (changes.networkId !== undefined) await this.#refuseUnknownNetwork(organizationId, changes.networkId);
    return this.#change(organizationId, id, ({ current }) => {
      const cidr = parsed.cidr ?? current.cidr;
      const familyChanged = cidr.family !== current.cidr.family;
      return {
        networkId: changes.networkId === undefined ? current.networkId : changes.networkId,
        cidr,
        gateway: parsed.gateway ?? current.gateway,
        allocationStrategy: changes.allocationStrategy ?? current.allocationStrategy,
        description: changes.description ?? current.description,
        // A prefix of the other family cannot keep the old assignment length: it takes its own default.
        vmAssignmentPrefixLength:
          changes.vmAssignmentPrefixLength === undefined
            ? familyChanged
              ? undefined
              : current.vmAssignmentPrefixLength
            : (changes.vmAssignmentPrefixLength ?? undefined),
        reservedIps: parsed.reservedIps ?? current.reservedIps,
        reservedPrefixes: parsed.reservedPrefixes ?? current.reservedPrefixes,
      };
    });
  }

  async delete(organizationId: string, id: string): Promise<void> {
    const result = await this.deps.prefixes.delete(organizationId, id);
    switch (result.outcome) {
      case 'deleted':
        return;
      case 'not-found':
        throw NotFoundError.of('Prefix', id);
      case 'has-active-allocations':
        throw new FailedPreconditionError(
          `${String(result.activeCount)} address(es) of the prefix are still allocated: release them (delete their VMs) first.`,
        );
    }
  }

  async usage(organizationId: string, id: string): Promise<PrefixUsage> {
    const { pool, active } = await this.#poolWithActive(organizationId, id);
    return usageOf(pool, active);
  }

  /** The lowest `limit` free slots (each slot's first address) and the pool's counts. */
  async available(organizationId: string, id: string, limit: number): Promise<AvailableAddresses> {
    const { pool, active } = await this.#poolWithActive(organizationId, id);
    return { addresses: pool.available(active, limit), usage: usageOf(pool, active) };
  }

  /** Idempotent: an address already reserved is left as it is. */
  async reserveIp(organizationId: string, id: string, ipText: string): Promise<Prefix> {
    const ip = parseIpAddress(ipText, 'ip');
    return this.#change(organizationId, id, ({ current }) => {
      if (!prefixContains(current.cidr, ip))
        throw InvalidArgumentError.field('ip', `must lie inside the prefix ${formatIpPrefix(current.cidr)}`);
      if (current.reservedIps.some((r) => sameAddress(r, ip))) return undefined;
      return { ...current, reservedIps: [...current.reservedIps, ip] };
    });
  }

  async unreserveIp(organizationId: string, id: string, ipText: string): Promise<Prefix> {
    const ip = parseIpAddress(ipText, 'path.ip');
    return this.#change(organizationId, id, ({ current }) => {
      if (!current.reservedIps.some((r) => sameAddress(r, ip)))
        throw new NotFoundError(`${formatIpAddress(ip)} is not a reserved address of the prefix.`);
      return { ...current, reservedIps: current.reservedIps.filter((r) => !sameAddress(r, ip)) };
    });
  }

  async clearReservedIps(organizationId: string, id: string): Promise<Prefix> {
    return this.#change(organizationId, id, ({ current }) =>
      current.reservedIps.length === 0 ? undefined : { ...current, reservedIps: [] },
    );
  }

  /** Reserves every slot that is free now, so that nothing more is allocated until some are let go. */
  async reserveAllIps(organizationId: string, id: string): Promise<Prefix> {
    return this.#change(organizationId, id, ({ current, active }) => {
      const pool = poolOf(current);
      const free = pool.availableCount(active);
      if (free === 0n) return undefined;
      if (BigInt(current.reservedIps.length) + free > BigInt(MAX_RESERVED_IPS))
        throw new FailedPreconditionError(
          `The prefix has ${free.toString()} free ${capacityUnitLabel(pool)}, more than the ${String(MAX_RESERVED_IPS)} reserved addresses a prefix may hold: reserve ranges with reserved prefixes instead.`,
        );
      return { ...current, reservedIps: [...current.reservedIps, ...pool.available(active, Number(free))] };
    });
  }

  /** Idempotent: a prefix already reserved is left as it is. */
  async reservePrefix(organizationId: string, id: string, cidrText: string): Promise<Prefix> {
    const reserved = parseIpPrefix(cidrText, 'cidr');
    return this.#change(organizationId, id, ({ current }) => {
      if (!prefixContains(current.cidr, reserved))
        throw InvalidArgumentError.field(
          'cidr',
          `must lie inside the prefix ${formatIpPrefix(current.cidr)}`,
        );
      if (current.reservedPrefixes.some((r) => samePrefix(r, reserved))) return undefined;
      return { ...current, reservedPrefixes: [...current.reservedPrefixes, reserved] };
    });
  }

  async unreservePrefix(organizationId: string, id: string, cidrText: string): Promise<Prefix> {
    const reserved = parseIpPrefix(cidrText, 'cidr');
    return this.#change(organizationId, id, ({ current }) => {
      if (!current.reservedPrefixes.some((r) => samePrefix(r, reserved)))
        throw new NotFoundError(`${formatIpPrefix(reserved)} is not a reserved prefix of the prefix.`);
      return {
        ...current,
        reservedPrefixes: current.reservedPrefixes.filter((r) => !samePrefix(r, reserved)),
      };
    });
  }

  /**
   * One change under the prefix's lock: `next` gives the fields wanted (undefined: nothing to do); they
   * are validated as a whole, and refused if they overlap another prefix or orphan an allocation.
   */
  async #change(
    organizationId: string,
    id: string,
    next: (context: PrefixUpdateContext) => Draft | undefined,
  ): Promise<Prefix> {
    const updated = await this.deps.prefixes.update(organizationId, id, (context) => {
      const draft = next(context);
      if (draft === undefined) return undefined;
      const { fields, pool } = settle(draft);
      // A prefix stored before the address-space rule keeps working; it cannot move into such space.
      if (formatIpPrefix(fields.cidr) !== formatIpPrefix(context.current.cidr))
        refuseUnusableSpace(fields.cidr);
      refuseOverlap(fields.cidr, context.neighbours);
      refuseOrphans(pool, context);
      return fields;
    });
    if (updated === undefined) throw NotFoundError.of('Prefix', id);
    return updated;
  }

  async #poolWithActive(
    organizationId: string,
    id: string,
  ): Promise<{ pool: AddressPool; active: IpAddress[] }> {
    const found = await this.deps.prefixes.findWithActive(organizationId, id);
    if (found === undefined) throw NotFoundError.of('Prefix', id);
    return { pool: poolOf(found.prefix), active: found.active };
  }

  async #refuseUnknownNetwork(organizationId: string, networkId: string | null): Promise<void> {
    if (networkId !== null && !(await this.deps.prefixes.networkExists(organizationId, networkId)))
      throw NotFoundError.of('Network', networkId);
  }
}

/** Validates the draft as a pool and gives the fields their stored form (reservations unique, in order). */
function settle(draft: Draft): { fields: PrefixFields; pool: AddressPool } {
  const pool = poolOf(draft);
  const reservedIps = uniqueSorted(draft.reservedIps, (a) => [a.value, 0]);
  const reservedPrefixes = uniqueSorted(draft.reservedPrefixes, (p) => [p.network, p.length]);
  if (reservedIps.length > MAX_RESERVED_IPS)
    throw new FailedPreconditionError(
      `A prefix holds at most ${String(MAX_RESERVED_IPS)} reserved addresses: reserve ranges with reserved prefixes instead.`,
    );
  if (reservedPrefixes.length > MAX_RESERVED_PREFIXES)
    throw new FailedPreconditionError(
      `A prefix holds at most ${String(MAX_RESERVED_PREFIXES)} reserved prefixes: reserve a larger one instead.`,
    );
  return {
    fields: { ...draft, vmAssignmentPrefixLength: pool.assignmentLength, reservedIps, reservedPrefixes },
    pool,
  };
}

/**
 * Reserved space (loopback, multicast, link-local, IPv4-mapped, the default route, …) is no network's:
 * no VM can be given an address there.
 */
function refuseUnusableSpace(cidr: IpPrefix): void {
  const space = prefixUse(cidr);
  if (space.use !== 'reserved') return;
  throw InvalidArgumentError.field(
    'cidr',
    `must be a network's address space; it reaches into ${space.what ?? 'reserved space'}`,
  );
}

function refuseOverlap(cidr: IpPrefix, neighbours: readonly PrefixNeighbour[]): void {
  const other = neighbours.find((n) => prefixesOverlap(cidr, n.cidr));
  if (other !== undefined)
    throw prefixOverlap(cidr, other.cidr, `the prefix ${formatIpPrefix(other.cidr)} (${other.id})`);
}

/** Every address allocated from the prefix must still be a slot of it, neither reserved nor the gateway. */
function refuseOrphans(pool: AddressPool, { current, active }: PrefixUpdateContext): void {
  if (active.length === 0) return;
  if (
    pool.prefix.family === current.cidr.family &&
    pool.assignmentLength !== current.vmAssignmentPrefixLength
  )
    throw new FailedPreconditionError(
      `vmAssignmentPrefixLength cannot change while ${String(active.length)} allocation(s) of /${String(current.vmAssignmentPrefixLength)} hold addresses of the prefix.`,
    );
  const free = pool.availableCount([]);
  if (pool.availableCount(active) === free - BigInt(active.length)) return;
  const orphans = active.filter((a) => pool.availableCount([a]) !== free - 1n).map(formatIpAddress);
  const more =
    orphans.length > NAMED_ADDRESSES ? ` and ${String(orphans.length - NAMED_ADDRESSES)} more` : '';
  throw new FailedPreconditionError(
    `The change would leave allocated address(es) ${orphans.slice(0, NAMED_ADDRESSES).join(', ')}${more} outside the prefix, reserved or on the gateway: release them first.`,
  );
}

function usageOf(pool: AddressPool, active: readonly IpAddress[]): PrefixUsage {
  return { ...pool.utilization(active), capacityUnitLabel: capacityUnitLabel(pool) };
}

function parseAddresses(texts: readonly string[], field: string): IpAddress[] {
  return texts.map((text, i) => parseIpAddress(text, `${field}.${String(i)}`));
}

function parsePrefixes(texts: readonly string[], field: string): IpPrefix[] {
  return texts.map((text, i) => parseIpPrefix(text, `${field}.${String(i)}`));
}

function sameAddress(a: IpAddress, b: IpAddress): boolean {
  return a.family === b.family && a.value === b.value;
}

function samePrefix(a: IpPrefix, b: IpPrefix): boolean {
  return a.family === b.family && a.network === b.network && a.length === b.length;
}

/** Duplicates dropped, in address order (one family per prefix: the pool has refused any other). */
function uniqueSorted<T>(values: readonly T[], key: (value: T) => readonly [bigint, number]): T[] {
  const sorted = [...values].sort((x, y) => {
    const [a, la] = key(x);
    const [b, lb] = key(y);
    return a < b ? -1 : a > b ? 1 : la - lb;
  });
  return sorted.filter((value, i) => {
    const previous = sorted[i - 1];
    if (previous === undefined) return true;
    const [a, la] = key(value);
    const [b, lb] = key(previous);
    return a !== b || la !== lb;
  });
}
