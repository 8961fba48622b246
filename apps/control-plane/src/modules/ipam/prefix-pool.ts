import { AddressPool } from '@noderings/domain';

import type { PrefixFields } from './prefix.repository.js';

/** A prefix's fields the pool is made of; the assignment length may be left to the family's default. */
type PoolFields = Pick<PrefixFields, 'cidr' | 'gateway' | 'reservedIps' | 'reservedPrefixes'> & {
  readonly vmAssignmentPrefixLength: number | undefined;
};

/** The prefix as a pool of slots; the constructor validates the configuration as a whole. */
export function poolOf(prefix: PoolFields): AddressPool {
  return new AddressPool({
    prefix: prefix.cidr,
    vmAssignmentPrefixLength: prefix.vmAssignmentPrefixLength,
    gateway: prefix.gateway,
    reservedIps: prefix.reservedIps,
    reservedPrefixes: prefix.reservedPrefixes,
  });
}

/** What the pool's counts count: single addresses, or the sub-prefixes each VM is given. */
export function capacityUnitLabel(pool: AddressPool): string {
  return pool.allocationKind === 'ipv6_prefix' ? `/${String(pool.assignmentLength)} prefixes` : 'addresses';
}
