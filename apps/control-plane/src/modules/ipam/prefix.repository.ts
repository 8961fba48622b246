import {
  formatIpAddress,
  formatIpPrefix,
  isAllocationStrategy,
  parseIpAddress,
  parseIpPrefix,
  type AllocationStrategy,
  type IpAddress,
  type IpPrefix,
} from '@noderings/domain';
import { sql, type Selectable, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { prefixOverlap, publicSpaceHeldElsewhere } from './prefix.errors.js';

/** An IPAM prefix (the API's "pool"), its text columns parsed. */
export interface Prefix {
  readonly id: string;
  readonly organizationId: string;
  readonly networkId: string | null;
  readonly cidr: IpPrefix;
  readonly gateway: IpAddress;
  readonly allocationStrategy: AllocationStrategy;
  readonly description: string;
  /** 32 for every IPv4 prefix. */
  readonly vmAssignmentPrefixLength: number;
  readonly reservedIps: readonly IpAddress[];
  readonly reservedPrefixes: readonly IpPrefix[];
  /** The value handed out last, where SEQUENTIAL continues from. */
  readonly lastAllocated: IpAddress | undefined;
  /** Counts every write, allocations included. */
  readonly generation: number;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a provider sets on a prefix. */
export type PrefixFields = Pick<
  Prefix,
  | 'networkId'
  | 'cidr'
  | 'gateway'
  | 'allocationStrategy'
  | 'description'
  | 'vmAssignmentPrefixLength'
  | 'reservedIps'
  | 'reservedPrefixes'
>;

/** The organisation's other prefixes, which a new or changed one must not overlap. */
export interface PrefixNeighbour {
  readonly id: string;
  readonly cidr: IpPrefix;
}

/** What an update decides on: the prefix, the addresses held in it now, and its neighbours. */
export interface PrefixUpdateContext {
  readonly current: Prefix;
  readonly active: readonly IpAddress[];
  readonly neighbours: readonly PrefixNeighbour[];
}

export type PrefixDeletion =
  | { readonly outcome: 'deleted' | 'not-found' }
  | { readonly outcome: 'has-active-allocations'; readonly activeCount: number };

export interface PrefixFilter {
  readonly networkId?: string | undefined;
}

type PrefixRow = Selectable<Database['ipam_prefixes']>;

export function toPrefix(r: PrefixRow): Prefix {
  const strategy = r.allocation_strategy;
  if (!isAllocationStrategy(strategy))
    throw new Error(`ipam_prefixes.allocation_strategy holds an unknown value: ${strategy}`);
  return {
    id: r.id,
    organizationId: r.organization_id,
    networkId: r.network_id,
    cidr: parseIpPrefix(r.cidr, 'ipam_prefixes.cidr'),
    gateway: parseIpAddress(r.gateway, 'ipam_prefixes.gateway'),
    allocationStrategy: strategy,
    description: r.description,
    vmAssignmentPrefixLength: r.vm_assignment_prefix_length,
    reservedIps: r.reserved_ips.map((ip) => parseIpAddress(ip, 'ipam_prefixes.reserved_ips')),
    reservedPrefixes: r.reserved_prefixes.map((p) => parseIpPrefix(p, 'ipam_prefixes.reserved_prefixes')),
    lastAllocated:
      r.last_allocated === null
        ? undefined
        : parseIpAddress(r.last_allocated, 'ipam_prefixes.last_allocated'),
    generation: r.generation,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toColumns(f: PrefixFields) {
  return {
    network_id: f.networkId,
    cidr: formatIpPrefix(f.cidr),
    family: f.cidr.family,
    gateway: formatIpAddress(f.gateway),
    allocation_strategy: f.allocationStrategy,
    description: f.description,
    vm_assignment_prefix_length: f.vmAssignmentPrefixLength,
    reserved_ips: f.reservedIps.map(formatIpAddress),
    reserved_prefixes: f.reservedPrefixes.map(formatIpPrefix),
  };
}

/** The addresses held by active allocations of a prefix, in no particular order. */
async function activeAddresses(db: Db, prefixId: string): Promise<IpAddress[]> {
  const rows = await db
    .selectFrom('ip_allocations')
    .select('address')
    .where('prefix_id', '=', prefixId)
    .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
    .execute();
  return rows.map((r) => parseIpAddress(r.address, 'ip_allocations.address'));
}

/**
 * Serialises the changes that could make two prefixes of one organisation overlap (creates and CIDR
 * edits), so that each one's overlap check sees the others. A transaction-scoped advisory lock: it
 * blocks nothing else and is let go at commit or rollback.
 */
async function lockOrganizationPrefixes(tx: Transaction<Database>, organizationId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`ipam_prefixes:${organizationId}`}, 0))`.execute(
    tx,
  );
}

async function neighboursOf(
  tx: Transaction<Database>,
  organizationId: string,
  exceptId?: string,
): Promise<PrefixNeighbour[]> {
  let query = tx
    .selectFrom('ipam_prefixes')
    .select(['id', 'cidr'])
    .where('organization_id', '=', organizationId);
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId);
  const rows = await query.orderBy('created_at').orderBy('id').execute();
  return rows.map((r) => ({ id: r.id, cidr: parseIpPrefix(r.cidr, 'ipam_prefixes.cidr') }));
}

/** The database's guarantee that public space belongs to one organisation (migration 0016). */
const PUBLIC_SPACE_CONSTRAINT = 'ipam_prefixes_public_space';

/** Every query is scoped to one organisation: another tenant's prefix or network is simply not found. */
export class PrefixRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, filter: PrefixFilter, page: Page): Promise<PageResult<Prefix>> {
    let base = this.db.selectFrom('ipam_prefixes').where('organization_id', '=', organizationId);
    if (filter.networkId !== undefined) base = base.where('network_id', '=', filter.networkId);
    return listPage(base.selectAll().orderBy('created_at').orderBy('id'), page, (rows) => rows.map(toPrefix));
  }

  async findById(organizationId: string, id: string): Promise<Prefix | undefined> {
    const row = await this.db
      .selectFrom('ipam_prefixes')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toPrefix(row);
  }

  /** The prefix and the addresses held in it, read from one snapshot. */
  async findWithActive(
    organizationId: string,
    id: string,
  ): Promise<{ prefix: Prefix; active: IpAddress[] } | undefined> {
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (tx) => {
        const row = await tx
          .selectFrom('ipam_prefixes')
          .selectAll()
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .executeTakeFirst();
        if (row === undefined) return undefined;
        return { prefix: toPrefix(row), active: await activeAddresses(tx, id) };
      });
  }

  async networkExists(organizationId: string, networkId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('ipam_networks')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', networkId)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Asks `decide` for the new prefix (it may throw to refuse it) while no other prefix can change. */
  async insert(
    organizationId: string,
    decide: (neighbours: readonly PrefixNeighbour[]) => PrefixFields,
  ): Promise<Prefix> {
    return this.db.transaction().execute(async (tx) => {
      await lockOrganizationPrefixes(tx, organizationId);
      const fields = decide(await neighboursOf(tx, organizationId));
      const row = await translateViolations(
        tx
          .insertInto('ipam_prefixes')
          .values({ ...toColumns(fields), organization_id: organizationId, updated_at: sql<Date>`now()` })
          .returningAll()
          .executeTakeFirstOrThrow(),
        {
          exclusion: { [PUBLIC_SPACE_CONSTRAINT]: () => publicSpaceHeldElsewhere(fields.cidr) },
          // Only when two creates of the same CIDR raced past the lock (they cannot): the constraint's answer.
          unique: () => prefixOverlap(fields.cidr, fields.cidr, 'an existing prefix'),
        },
      );
      return toPrefix(row);
    });
  }

  /**
   * Reads the prefix under a row lock, with the addresses allocated from it and its neighbours, and asks
   * `decide` for its next fields (it may throw to refuse them, or answer undefined to change nothing). The
   * row lock is the one allocations take, so no address can be handed out from the old configuration
   * while the new one is checked. Undefined when the prefix does not exist in this organisation.
   */
  async update(
    organizationId: string,
    id: string,
    decide: (context: PrefixUpdateContext) => PrefixFields | undefined,
  ): Promise<Prefix | undefined> {
    return this.db.transaction().execute(async (tx) => {
      await lockOrganizationPrefixes(tx, organizationId);
      const row = await tx
        .selectFrom('ipam_prefixes')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const current = toPrefix(row);
      const next = decide({
        current,
        active: await activeAddresses(tx, id),
        neighbours: await neighboursOf(tx, organizationId, id),
      });
      if (next === undefined) return current;
      const updated = await translateViolations(
        tx
          .updateTable('ipam_prefixes')
          .set((eb) => ({
            ...toColumns(next),
            generation: eb('generation', '+', 1),
            updated_at: sql<Date>`now()`,
          }))
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow(),
        { exclusion: { [PUBLIC_SPACE_CONSTRAINT]: () => publicSpaceHeldElsewhere(next.cidr) } },
      );
      return toPrefix(updated);
    });
  }

  /** Refused while an address of the prefix is allocated; the released history goes with the prefix. */
  async delete(organizationId: string, id: string): Promise<PrefixDeletion> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('ipam_prefixes')
        .select('id')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) return { outcome: 'not-found' };
      const active = await tx
        .selectFrom('ip_allocations')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('prefix_id', '=', id)
        .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
        .executeTakeFirstOrThrow();
      const activeCount = Number(active.n);
      if (activeCount > 0) return { outcome: 'has-active-allocations', activeCount };
      await tx
        .deleteFrom('ip_allocations')
        .where('prefix_id', '=', id)
        .where('status', '=', 'IP_ALLOCATION_STATUS_RELEASED')
        .execute();
      await tx.deleteFrom('ipam_prefixes').where('id', '=', id).execute();
      return { outcome: 'deleted' };
    });
  }
}
