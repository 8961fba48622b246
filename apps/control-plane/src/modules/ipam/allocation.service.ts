import {
  formatIpAddress,
  type AddressPool,
  type IpAddress,
  type IpFamily,
  type RandomBelow,
} from '@noderings/domain';
import type { Transaction } from 'kysely';

import type { Database } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { AllocationFilter, AllocationRepository, IpAllocation } from './allocation.repository.js';
import { poolOf } from './prefix-pool.js';

export interface AllocateAddressInput {
  readonly organizationId: string;
  readonly networkId: string;
  readonly family: IpFamily;
  /** The claim (the VM) the address is for; `releaseClaimAddresses` lets it go. */
  readonly claimId: string;
}

/**
 * Hands out addresses for the order flow, inside the caller's transaction: the address is taken when
 * that transaction commits and free again if it rolls back, so a claim never holds half its resources.
 */
export class IpAllocationService {
  constructor(
    private readonly deps: {
      readonly allocations: Pick<
        AllocationRepository,
        'list' | 'prefixIdsOfNetwork' | 'lockPrefix' | 'activeOrdinals' | 'insert' | 'releaseClaim'
      >;
      /** RANDOM's source; the platform's cryptographic generator when left out. */
      readonly random?: RandomBelow;
    },
  ) {}

  list(organizationId: string, filter: AllocationFilter, page: Page): Promise<PageResult<IpAllocation>> {
    return this.deps.allocations.list(organizationId, filter, page);
  }

  /**
   * The next address of the family from the network's prefixes, oldest prefix first, by each prefix's
   * strategy; undefined when the network has no free one. Race-free: each prefix is read under its row
   * lock, held until the caller's transaction ends, so concurrent claims take turns per prefix and each
   * sees the others' committed allocations. A unique violation (which the lock makes impossible) is
   * reported as ABORTED; the caller's transaction is then unusable and the claim can be retried whole.
   */
  async allocateAddress(
    tx: Transaction<Database>,
    input: AllocateAddressInput,
  ): Promise<IpAllocation | undefined> {
    const { organizationId, networkId, family, claimId } = input;
    const prefixIds = await this.deps.allocations.prefixIdsOfNetwork(tx, organizationId, networkId, family);
    for (const prefixId of prefixIds) {
      const prefix = await this.deps.allocations.lockPrefix(tx, prefixId, networkId, family);
      if (prefix === undefined) continue;
      const pool = poolOf(prefix);
      const address = await pool.next(
        prefix.allocationStrategy,
        (range) => this.deps.allocations.activeOrdinals(tx, prefixId, range),
        { lastAllocated: prefix.lastAllocated, random: this.deps.random },
      );
      if (address === undefined) continue;
      return await this.deps.allocations.insert(tx, {
        prefixId,
        organizationId,
        claimId,
        address,
        allocatedCidr: allocatedCidr(pool, address),
        allocationKind: pool.allocationKind,
      });
    }
    return undefined;
  }

  /** Releases every address the claim holds (none: nothing happens); they can be allocated again at once. */
  releaseClaimAddresses(tx: Transaction<Database>, claimId: string): Promise<IpAllocation[]> {
    return this.deps.allocations.releaseClaim(tx, claimId);
  }
}

/** A host keeps the length of the subnet it sits in; a delegated sub-prefix is its own. */
function allocatedCidr(pool: AddressPool, address: IpAddress): string {
  const length = pool.allocationKind === 'ipv6_prefix' ? pool.assignmentLength : pool.prefix.length;
  return `${formatIpAddress(address)}/${String(length)}`;
}
