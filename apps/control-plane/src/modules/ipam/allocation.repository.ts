import {
  AbortedError,
  type AllocationKind,
  formatIpAddress,
  type IpAddress,
  type IpFamily,
  parseIpAddress,
  type TakenRuns,
  type TakenValuesQuery,
} from '@noderings/domain';
import { sql, type Selectable, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database, IpAllocationStatus } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';
import { offsetOf, type Page, type PageResult } from '../../http/pagination.js';
import { toPrefix, type Prefix } from './prefix.repository.js';

export const IP_ALLOCATION_STATUSES = [
  'IP_ALLOCATION_STATUS_ACTIVE',
  'IP_ALLOCATION_STATUS_RELEASED',
] as const satisfies readonly IpAllocationStatus[];

/** One address (or, for a pool assigning sub-prefixes, one sub-prefix) handed to a claim. */
export interface IpAllocation {
  readonly id: string;
  readonly prefixId: string;
  readonly organizationId: string;
  /** The claim (the VM) holding it; null only for rows written outside the claim flow. */
  readonly claimId: string | null;
  /** The address, or the sub-prefix's first address. */
  readonly address: IpAddress;
  /** What the VM is configured with: `203.0.113.10/24` (a host in its subnet) or `2001:db8:0:1::/64`. */
  readonly allocatedCidr: string;
  readonly allocationKind: AllocationKind;
  readonly status: IpAllocationStatus;
  readonly createdAt: Date;
  readonly releasedAt: Date | undefined;
}

export interface NewIpAllocation {
  readonly prefixId: string;
  readonly organizationId: string;
  readonly claimId: string;
  readonly address: IpAddress;
  readonly allocatedCidr: string;
  readonly allocationKind: AllocationKind;
}

export interface AllocationFilter {
  readonly prefixId?: string | undefined;
  readonly status?: IpAllocationStatus | undefined;
}

const ALLOCATION_KINDS: readonly string[] = [
  'ipv4_host',
  'ipv6_host',
  'ipv6_prefix',
] satisfies AllocationKind[];

type AllocationRow = Selectable<Database['ip_allocations']>;

function isAllocationKind(value: string): value is AllocationKind {
  return ALLOCATION_KINDS.includes(value);
}

function toAllocation(r: AllocationRow): IpAllocation {
  const kind = r.allocation_kind;
  if (!isAllocationKind(kind))
    throw new Error(`ip_allocations.allocation_kind holds an unknown value: ${kind}`);
  return {
    id: r.id,
    prefixId: r.prefix_id,
    organizationId: r.organization_id,
    claimId: r.claim_id,
    address: parseIpAddress(r.address, 'ip_allocations.address'),
    allocatedCidr: r.allocated_cidr,
    allocationKind: kind,
    status: r.status,
    createdAt: r.created_at,
    releasedAt: r.released_at ?? undefined,
  };
}

/**
 * Allocations are written only inside the caller's transaction (the claim's), so that an address is
 * taken exactly when the claim commits; the listing is the one query that runs on its own.
 */
export class AllocationRepository {
  constructor(private readonly db: Db) {}

  async list(
    organizationId: string,
    filter: AllocationFilter,
    page: Page,
  ): Promise<PageResult<IpAllocation>> {
    let base = this.db.selectFrom('ip_allocations').where('organization_id', '=', organizationId);
    if (filter.prefixId !== undefined) base = base.where('prefix_id', '=', filter.prefixId);
    if (filter.status !== undefined) base = base.where('status', '=', filter.status);
    const [count, rows] = await Promise.all([
      base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      base
        .selectAll()
        .orderBy('created_at')
        .orderBy('id')
        .limit(page.pageSize)
        .offset(offsetOf(page))
        .execute(),
    ]);
    return { items: rows.map(toAllocation), totalCount: Number(count.n) };
  }

  /** The network's prefixes of one family, oldest first: the order allocations try them in. */
  async prefixIdsOfNetwork(
    tx: Transaction<Database>,
    organizationId: string,
    networkId: string,
    family: IpFamily,
  ): Promise<string[]> {
    const rows = await tx
      .selectFrom('ipam_prefixes')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('network_id', '=', networkId)
      .where('family', '=', family)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map((r) => r.id);
  }

  /**
   * Locks the prefix row until the transaction ends, which serialises every allocation from it and every
   * change to it, then reads it. Undefined when it has since left the network or changed family.
   */
  async lockPrefix(
    tx: Transaction<Database>,
    prefixId: string,
    networkId: string,
    family: IpFamily,
  ): Promise<Prefix | undefined> {
    const row = await tx
      .selectFrom('ipam_prefixes')
      .selectAll()
      .where('id', '=', prefixId)
      .where('network_id', '=', networkId)
      .where('family', '=', family)
      .forUpdate()
      .executeTakeFirst();
    return row && toPrefix(row);
  }

  /**
   * The prefix's active addresses, as integers, in [first, last], at most `limit` of them from the end the
   * query starts at, grouped into runs of consecutive addresses: a range scan of the partial unique index
   * on (prefix_id, address_ordinal) that stops at the limit, so allocation reads only the allocations next
   * to where it looks, and a long run of them costs one row.
   */
  async activeOrdinals(
    tx: Transaction<Database>,
    prefixId: string,
    query: TakenValuesQuery,
  ): Promise<TakenRuns> {
    const direction = query.descending ? 'desc' : 'asc';
    const batch = tx
      .selectFrom('ip_allocations')
      .select('address_ordinal as ordinal')
      .where('prefix_id', '=', prefixId)
      .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
      .where('address_ordinal', '>=', query.first.toString())
      .where('address_ordinal', '<=', query.last.toString())
      .orderBy('address_ordinal', direction)
      .limit(query.limit);
    // A prefix's active addresses are distinct (the index is unique), so the address minus its rank is
    // the same exactly along a run of consecutive ones.
    const numbered = tx
      .selectFrom(batch.as('batch'))
      .select(['ordinal', sql<string>`ordinal - row_number() OVER (ORDER BY ordinal)`.as('run')]);
    const rows = await tx
      .selectFrom(numbered.as('numbered'))
      .select((eb) => [
        eb.fn.min('ordinal').as('low'),
        eb.fn.max('ordinal').as('high'),
        eb.fn.countAll().as('count'),
      ])
      .groupBy('run')
      .orderBy('run', direction)
      .execute();
    const runs = rows.map((r): [bigint, bigint] => [BigInt(r.low), BigInt(r.high)]);
    const read = rows.reduce((sum, r) => sum + Number(r.count), 0);
    return { runs, more: read === query.limit };
  }

  /**
   * Records the allocation and moves the prefix's cursor and generation (not its update time, which says
   * when the provider last changed it). The partial unique index on
   * active (prefix, address) refuses a second holder whatever happened before.
   */
  async insert(tx: Transaction<Database>, allocation: NewIpAllocation): Promise<IpAllocation> {
    const address = formatIpAddress(allocation.address);
    const row = await translateViolations(
      tx
        .insertInto('ip_allocations')
        .values({
          prefix_id: allocation.prefixId,
          organization_id: allocation.organizationId,
          claim_id: allocation.claimId,
          address,
          allocated_cidr: allocation.allocatedCidr,
          allocation_kind: allocation.allocationKind,
          status: 'IP_ALLOCATION_STATUS_ACTIVE',
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      {
        // The prefix's row lock makes this impossible; the caller's transaction is unusable afterwards.
        unique: () => new AbortedError(`${address} was allocated concurrently; retry the claim.`),
      },
    );
    await tx
      .updateTable('ipam_prefixes')
      .set((eb) => ({ last_allocated: address, generation: eb('generation', '+', 1) }))
      .where('id', '=', allocation.prefixId)
      .execute();
    return toAllocation(row);
  }

  /** Marks the claim's active allocations released; their addresses may be allocated again. */
  async releaseClaim(tx: Transaction<Database>, claimId: string): Promise<IpAllocation[]> {
    const rows = await tx
      .updateTable('ip_allocations')
      .set({ status: 'IP_ALLOCATION_STATUS_RELEASED', released_at: sql<Date>`now()` })
      .where('claim_id', '=', claimId)
      .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
      .returningAll()
      .execute();
    return rows.map(toAllocation);
  }
}
