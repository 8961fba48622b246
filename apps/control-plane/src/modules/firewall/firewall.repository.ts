import type { FirewallRuleSpec, PositionedFirewallRule } from '@noderings/domain';
import { sql, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { bumpVmGenerations } from '../virtual-machines/index.js';

type Tx = Transaction<Database>;

export interface Attachment {
  readonly vmId: string;
  readonly rulesetId: string;
  readonly organizationId: string;
}

export type StoredRule = PositionedFirewallRule & { readonly rulesetId: string };

function lockKey(organizationId: string): string {
  return `firewall/${organizationId}`;
}

/**
 * What every firewall change shares: the organisation's lock, the reads a compilation needs, which VMs a
 * change can reach, and the generation bump that has the dispatcher apply it.
 */
export class FirewallRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /** One snapshot for every read of `work`, so that a compilation never mixes two states. */
  snapshot<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().setIsolationLevel('repeatable read').execute(work);
  }

  /**
   * Serialises the organisation's firewall changes (and VM tag changes, see FirewallService.vmTagsChanged)
   * until the transaction ends, so that each sees every earlier one when it works out whom it affects.
   */
  async lockOrganization(tx: Tx, organizationId: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${lockKey(organizationId)}, 0))`.execute(tx);
  }

  async attachmentsOf(db: Tx, vmIds: readonly string[]): Promise<Attachment[]> {
    if (vmIds.length === 0) return [];
    const rows = await db
      .selectFrom('firewall_attachments as a')
      .innerJoin('firewall_rulesets as s', 's.id', 'a.ruleset_id')
      .select(['a.vm_id', 'a.ruleset_id', 's.organization_id'])
      .where('a.vm_id', 'in', vmIds)
      .execute();
    return rows.map((r) => ({ vmId: r.vm_id, rulesetId: r.ruleset_id, organizationId: r.organization_id }));
  }

  async rulesOf(db: Tx, rulesetIds: readonly string[]): Promise<StoredRule[]> {
    if (rulesetIds.length === 0) return [];
    const rows = await db
      .selectFrom('firewall_rules')
      .select(['id', 'ruleset_id', 'position', 'rule'])
      .where('ruleset_id', 'in', rulesetIds)
      .execute();
    return rows.map((r) => ({
      id: r.id,
      rulesetId: r.ruleset_id,
      position: r.position,
      rule: r.rule as unknown as FirewallRuleSpec,
    }));
  }

  async addressGroupPrefixes(db: Tx, ids: readonly string[]): Promise<Map<string, string[]>> {
    if (ids.length === 0) return new Map();
    const rows = await db
      .selectFrom('firewall_address_groups')
      .select(['id', 'prefixes'])
      .where('id', 'in', ids)
      .execute();
    return new Map(rows.map((r) => [r.id, r.prefixes]));
  }

  /**
   * The addresses of the organisation's live VMs by tag: a host address as a /32 or /128, a delegated
   * IPv6 prefix as the whole prefix the VM holds.
   */
  async tagAddresses(
    db: Tx,
    organizationId: string,
    tags: readonly string[],
  ): Promise<Map<string, string[]>> {
    const byTag = new Map<string, string[]>();
    if (tags.length === 0) return byTag;
    const rows = await sql<{ tag: string; address: string; allocated_cidr: string; allocation_kind: string }>`
      SELECT t.tag, a.address, a.allocated_cidr, a.allocation_kind
      FROM virtual_machines v
      CROSS JOIN LATERAL unnest(v.tags) AS t (tag)
      JOIN vm_claims c ON c.id = v.id
      JOIN ip_allocations a ON a.id = c.ipv4_allocation_id OR a.id = c.ipv6_allocation_id
      WHERE v.client_organization_id = ${organizationId}
        AND v.desired_state = 'PRESENT'
        AND a.status = 'IP_ALLOCATION_STATUS_ACTIVE'
        AND t.tag IN (${sql.join(tags)})`.execute(db);
    for (const r of rows.rows) {
      const cidr =
        r.allocation_kind === 'ipv6_prefix'
          ? r.allocated_cidr
          : `${r.address}/${r.address.includes(':') ? 128 : 32}`;
      byTag.set(r.tag, [...(byTag.get(r.tag) ?? []), cidr]);
    }
    return byTag;
  }

  /** The live VMs the ruleset is attached to. */
  async liveVmsAttachedTo(tx: Tx, rulesetId: string): Promise<string[]> {
    const rows = await tx
      .selectFrom('firewall_attachments as a')
      .innerJoin('virtual_machines as v', 'v.id', 'a.vm_id')
      .select('a.vm_id')
      .where('a.ruleset_id', '=', rulesetId)
      .where('v.desired_state', '=', 'PRESENT')
      .execute();
    return rows.map((r) => r.vm_id);
  }

  /** The live VMs whose ruleset has a rule naming the address group. */
  async liveVmsNamingAddressGroup(tx: Tx, addressGroupId: string): Promise<string[]> {
    const rows = await tx
      .selectFrom('firewall_rule_address_groups as g')
      .innerJoin('firewall_rules as r', 'r.id', 'g.rule_id')
      .innerJoin('firewall_attachments as a', 'a.ruleset_id', 'r.ruleset_id')
      .innerJoin('virtual_machines as v', 'v.id', 'a.vm_id')
      .select('a.vm_id')
      .distinct()
      .where('g.address_group_id', '=', addressGroupId)
      .where('v.desired_state', '=', 'PRESENT')
      .execute();
    return rows.map((r) => r.vm_id);
  }

  /** The organisation's live VMs whose ruleset has a rule naming any of the tags. */
  async liveVmsNamingTags(tx: Tx, organizationId: string, tags: readonly string[]): Promise<string[]> {
    if (tags.length === 0) return [];
    const rows = await tx
      .selectFrom('firewall_rules as r')
      .innerJoin('firewall_attachments as a', 'a.ruleset_id', 'r.ruleset_id')
      .innerJoin('virtual_machines as v', 'v.id', 'a.vm_id')
      .select('a.vm_id')
      .distinct()
      .where('r.organization_id', '=', organizationId)
      .where(sql<boolean>`r.vm_tags && ARRAY[${sql.join(tags)}]::text[]`)
      .where('v.desired_state', '=', 'PRESENT')
      .execute();
    return rows.map((r) => r.vm_id);
  }

  bumpGenerations(tx: Tx, vmIds: readonly string[]): Promise<string[]> {
    return bumpVmGenerations(tx, vmIds);
  }
}
