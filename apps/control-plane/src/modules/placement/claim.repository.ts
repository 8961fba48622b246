import { AbortedError, NotFoundError } from '@noderings/domain';
import { sql, type Selectable, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database, VmClaimStatus } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';
import {
  activeNodeUsage,
  lockCandidateNodes,
  type CandidateNode,
  type NodeUsage,
} from './candidate-node.repository.js';

type Tx = Transaction<Database>;

/** What a claim copies from the plan it is for. */
export interface ClaimPlan {
  readonly id: string;
  readonly organizationId: string;
  /** Where the plan sells, at least one. */
  readonly regionIds: readonly string[];
  readonly revision: number;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
  /** In the plan's order, each with the region it takes orders in. */
  readonly nodes: readonly { readonly id: string; readonly regionId: string }[];
}

export interface ClaimAddress {
  readonly allocationId: string;
  /** Canonical, like 203.0.113.10 or 2001:db8::. */
  readonly address: string;
  /** What the VM is configured with, like 203.0.113.10/24 or 2001:db8:0:1::/64. */
  readonly allocatedCidr: string;
}

export interface VmClaim {
  readonly id: string;
  readonly clientOrganizationId: string;
  readonly providerOrganizationId: string;
  readonly planId: string;
  readonly planRevision: number;
  /** Null only on a released claim whose node or platform has since been deleted. */
  readonly nodeId: string | null;
  readonly platformId: string | null;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
  readonly vmid: number;
  readonly macAddress: string;
  /** Undefined only on a released claim whose prefix has since been deleted. */
  readonly ipv4: ClaimAddress | undefined;
  readonly ipv6: ClaimAddress | undefined;
  readonly status: VmClaimStatus;
  readonly createdAt: Date;
  readonly releasedAt: Date | undefined;
}

export type NewVmClaim = Omit<VmClaim, 'ipv4' | 'status' | 'createdAt' | 'releasedAt'> & {
  readonly ipv4: ClaimAddress;
};

/** The VM's MAC prefix lock: every claim under one prefix takes turns, wherever its node is. */
function macPrefixLockKey(prefix: string): string {
  return `vm_claims/mac_address/${prefix}`;
}

type ClaimRow = Selectable<Database['vm_claims']> & {
  ipv4_address: string | null;
  ipv4_cidr: string | null;
  ipv6_address: string | null;
  ipv6_cidr: string | null;
};

function addressOf(id: string | null, address: string | null, cidr: string | null): ClaimAddress | undefined {
  return id === null || address === null || cidr === null
    ? undefined
    : { allocationId: id, address, allocatedCidr: cidr };
}

function toClaim(r: ClaimRow): VmClaim {
  return {
    id: r.id,
    clientOrganizationId: r.client_organization_id,
    providerOrganizationId: r.provider_organization_id,
    planId: r.plan_id,
    planRevision: r.plan_revision,
    nodeId: r.node_id,
    platformId: r.platform_id,
    vcpus: r.vcpus,
    ramGb: r.ram_gb,
    diskGb: r.disk_gb,
    vmid: r.vmid,
    macAddress: r.mac_address,
    ipv4: addressOf(r.ipv4_allocation_id, r.ipv4_address, r.ipv4_cidr),
    ipv6: addressOf(r.ipv6_allocation_id, r.ipv6_address, r.ipv6_cidr),
    status: r.status,
    createdAt: r.created_at,
    releasedAt: r.released_at ?? undefined,
  };
}

/**
 * The claim's reads and writes, each inside the caller's transaction: the claim is one transaction from
 * the plan to the inserted row, so that capacity, VMID, MAC and addresses are taken together or not at all.
 */
export class ClaimRepository {
  constructor(private readonly db: Db) {}

  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(work);
  }

  /**
   * Runs `work` as the claim's one transaction. Losing a race to a concurrent claim (a unique violation,
   * a deadlock, a serialization failure) is ABORTED: the claim can be retried whole. Every other reference
   * is read under lock first; only the client organisation is taken on trust, so a foreign-key violation
   * means it is gone.
   */
  claimTransaction<T>(
    claim: { readonly claimId: string; readonly clientOrganizationId: string },
    work: (tx: Tx) => Promise<T>,
  ): Promise<T> {
    const collided = () =>
      new AbortedError(`Claim ${claim.claimId} collided with a concurrent claim; retry it.`);
    return translateViolations(this.db.transaction().execute(work), {
      unique: collided,
      transactionConflict: collided,
      foreignKey: () => NotFoundError.of('Organization', claim.clientOrganizationId),
    });
  }

  /** A plan that is not deleted, with its regions and nodes in order. */
  async findPlan(tx: Tx, planId: string): Promise<ClaimPlan | undefined> {
    const plan = await tx
      .selectFrom('plans')
      .select(['id', 'organization_id', 'revision', 'vcpus', 'ram_gb', 'disk_gb'])
      .where('id', '=', planId)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (plan === undefined) return undefined;
    const [regions, nodes] = await Promise.all([
      tx
        .selectFrom('plan_regions')
        .select('region_id')
        .where('plan_id', '=', planId)
        .orderBy('position')
        .execute(),
      tx
        .selectFrom('plan_nodes as pn')
        .innerJoin('nodes as n', 'n.id', 'pn.node_id')
        .select(['pn.node_id', 'n.region_id'])
        .where('pn.plan_id', '=', planId)
        .orderBy('pn.position')
        .execute(),
    ]);
    return {
      id: plan.id,
      organizationId: plan.organization_id,
      regionIds: regions.map((r) => r.region_id),
      revision: plan.revision,
      vcpus: plan.vcpus,
      ramGb: plan.ram_gb,
      diskGb: plan.disk_gb,
      nodes: nodes.map((n) => ({ id: n.node_id, regionId: n.region_id })),
    };
  }

  /** The plan's nodes under row locks: see `lockCandidateNodes`. */
  lockNodes(tx: Tx, organizationId: string, nodeIds: readonly string[]): Promise<CandidateNode[]> {
    return lockCandidateNodes(tx, organizationId, nodeIds);
  }

  activeUsage(tx: Tx, nodeIds: readonly string[]): Promise<Map<string, NodeUsage>> {
    return activeNodeUsage(tx, nodeIds);
  }

  /** ROUND_ROBIN's place for the plan: the node its last claim went to. */
  async lastNodeOf(tx: Tx, planId: string): Promise<string | undefined> {
    const row = await tx
      .selectFrom('node_placement_cursors')
      .select('last_node_id')
      .where('plan_id', '=', planId)
      .executeTakeFirst();
    return row?.last_node_id;
  }

  async moveCursor(tx: Tx, planId: string, nodeId: string): Promise<void> {
    await tx
      .insertInto('node_placement_cursors')
      .values({ plan_id: planId, last_node_id: nodeId, updated_at: sql<Date>`now()` })
      .onConflict((oc) =>
        oc.column('plan_id').doUpdateSet({ last_node_id: nodeId, updated_at: sql<Date>`now()` }),
      )
      .execute();
  }

  /**
   * Locks the platform until the transaction ends: a Proxmox cluster has one VMID space, so claims on any
   * of its nodes take turns choosing a VMID.
   */
  async lockPlatform(tx: Tx, platformId: string): Promise<void> {
    await tx.selectFrom('platforms').select('id').where('id', '=', platformId).forNoKeyUpdate().execute();
  }

  /** The VMIDs from `from` up that active claims hold on the platform. */
  async claimedVmids(tx: Tx, platformId: string, from: number): Promise<number[]> {
    const rows = await tx
      .selectFrom('vm_claims')
      .select('vmid')
      .where('platform_id', '=', platformId)
      .where('status', '=', 'ACTIVE')
      .where('vmid', '>=', from)
      .orderBy('vmid')
      .execute();
    return rows.map((r) => r.vmid);
  }

  /** The VMIDs from `from` up that guests NodeRings did not create hold on the platform's nodes. */
  async foreignVmids(tx: Tx, platformId: string, from: number): Promise<number[]> {
    const rows = await sql<{ vmid: unknown }>`
      SELECT jsonb_path_query(inventory, '$.foreignVmids[*] ? (@.type() == "number" && @ >= $from)',
        jsonb_build_object('from', ${from}::integer)) AS vmid
      FROM nodes WHERE platform_id = ${platformId}`.execute(tx);
    return rows.rows.map((r) => Number(r.vmid));
  }

  /** Locks the MAC prefix until the transaction ends (across organisations: MACs are unique everywhere). */
  async lockMacAddressPrefix(tx: Tx, prefix: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${macPrefixLockKey(prefix)}, 0))`.execute(tx);
  }

  /** The MACs under the prefix that active claims hold. */
  async activeMacAddresses(tx: Tx, prefix: string): Promise<string[]> {
    const rows = await tx
      .selectFrom('vm_claims')
      .select('mac_address')
      .where('status', '=', 'ACTIVE')
      .where('mac_address', 'like', `${prefix}:%`)
      .execute();
    return rows.map((r) => r.mac_address);
  }

  /** The MACs guests NodeRings did not create hold on the network's nodes, as the sync reported them. */
  async foreignMacAddresses(tx: Tx, networkId: string): Promise<string[]> {
    const rows = await sql<{ mac: string }>`
      SELECT jsonb_path_query(inventory, '$.foreignMacAddresses[*] ? (@.type() == "string")') #>> '{}' AS mac
      FROM nodes WHERE network_id = ${networkId}`.execute(tx);
    return rows.rows.map((r) => r.mac);
  }

  async insert(tx: Tx, claim: NewVmClaim): Promise<VmClaim> {
    const row = await tx
      .insertInto('vm_claims')
      .values({
        id: claim.id,
        client_organization_id: claim.clientOrganizationId,
        provider_organization_id: claim.providerOrganizationId,
        plan_id: claim.planId,
        plan_revision: claim.planRevision,
        node_id: claim.nodeId,
        platform_id: claim.platformId,
        vcpus: claim.vcpus,
        ram_gb: claim.ramGb,
        disk_gb: claim.diskGb,
        vmid: claim.vmid,
        mac_address: claim.macAddress,
        ipv4_allocation_id: claim.ipv4.allocationId,
        ipv6_allocation_id: claim.ipv6?.allocationId ?? null,
        status: 'ACTIVE',
      })
      .returning(['status', 'created_at'])
      .executeTakeFirstOrThrow();
    return { ...claim, status: row.status, createdAt: row.created_at, releasedAt: undefined };
  }

  /**
   * The claim moved to another node: it holds what `claim` took there instead of what it held. Only an
   * active claim moves; false otherwise.
   */
  async move(tx: Tx, claim: NewVmClaim): Promise<boolean> {
    const result = await tx
      .updateTable('vm_claims')
      .set({
        plan_revision: claim.planRevision,
        node_id: claim.nodeId,
        platform_id: claim.platformId,
        vmid: claim.vmid,
        mac_address: claim.macAddress,
        ipv4_allocation_id: claim.ipv4.allocationId,
        ipv6_allocation_id: claim.ipv6?.allocationId ?? null,
      })
      .where('id', '=', claim.id)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** Locks the claim's row for a move: a release or another move of it waits until this one commits. */
  async lockActive(tx: Tx, id: string): Promise<boolean> {
    const row = await tx
      .selectFrom('vm_claims')
      .select('id')
      .where('id', '=', id)
      .where('status', '=', 'ACTIVE')
      .forUpdate()
      .executeTakeFirst();
    return row !== undefined;
  }

  async findById(tx: Tx | Db, id: string): Promise<VmClaim | undefined> {
    const row = await tx
      .selectFrom('vm_claims as c')
      .leftJoin('ip_allocations as v4', 'v4.id', 'c.ipv4_allocation_id')
      .leftJoin('ip_allocations as v6', 'v6.id', 'c.ipv6_allocation_id')
      .selectAll('c')
      .select([
        'v4.address as ipv4_address',
        'v4.allocated_cidr as ipv4_cidr',
        'v6.address as ipv6_address',
        'v6.allocated_cidr as ipv6_cidr',
      ])
      .where('c.id', '=', id)
      .executeTakeFirst();
    return row && toClaim(row);
  }

  /**
   * Marks the claim released if it is active; false when it is not (already released, or unknown). The
   * row lock of the UPDATE makes two releases of one claim take turns, and the second finds nothing to do.
   */
  async markReleased(tx: Tx, id: string): Promise<boolean> {
    const result = await tx
      .updateTable('vm_claims')
      .set({ status: 'RELEASED', released_at: sql<Date>`now()` })
      .where('id', '=', id)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }
}
