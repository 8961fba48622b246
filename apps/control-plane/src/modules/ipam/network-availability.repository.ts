import type { Db } from '../../db/database.js';
import { poolOf } from './prefix-pool.js';
import { toPrefix } from './prefix.repository.js';

/** How many more VMs a network can give an address to, per family. */
export interface NetworkFreeAddresses {
  readonly ipv4: bigint;
  /** Undefined when the network has no IPv6 prefix: its VMs get no IPv6, which is not a shortage. */
  readonly ipv6: bigint | undefined;
}

/**
 * Free addresses counted, not listed: each prefix's allocatable slots minus its active allocations, so a
 * /48 costs what a /29 does. An allocation on an address reserved after it was made counts twice (once
 * reserved, once allocated), which can only understate what is free, never promise an address that is not.
 */
export class NetworkAvailabilityRepository {
  constructor(private readonly db: Db) {}

  async ofOrganization(organizationId: string): Promise<Map<string, NetworkFreeAddresses>> {
    const [prefixes, counts] = await Promise.all([
      this.db
        .selectFrom('ipam_prefixes')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('network_id', 'is not', null)
        .execute(),
      this.db
        .selectFrom('ip_allocations')
        .select((eb) => ['prefix_id', eb.fn.countAll<string | number>().as('active')])
        .where('organization_id', '=', organizationId)
        .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
        .groupBy('prefix_id')
        .execute(),
    ]);
    const active = new Map(counts.map((c) => [c.prefix_id, BigInt(c.active)]));
    const free = new Map<string, { ipv4: bigint; ipv6: bigint | undefined }>();
    for (const row of prefixes) {
      if (row.network_id === null) continue;
      const prefix = toPrefix(row);
      const left = poolOf(prefix).availableCount([]) - (active.get(prefix.id) ?? 0n);
      const counted = free.get(row.network_id) ?? { ipv4: 0n, ipv6: undefined };
      const more = left > 0n ? left : 0n;
      if (prefix.cidr.family === 'ipv4') counted.ipv4 += more;
      else counted.ipv6 = (counted.ipv6 ?? 0n) + more;
      free.set(row.network_id, counted);
    }
    return free;
  }
}
