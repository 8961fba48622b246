import { isNodeComputeType, type NodeComputeType } from '@noderings/domain';
import { sql, type Transaction } from 'kysely';
import { z } from 'zod';

import type { Db } from '../../db/database.js';
import type { Database, InboundPeeringState, ServiceStatus } from '../../db/schema.js';

type Tx = Transaction<Database>;

/**
 * The capacity the metrics sync writes into `nodes.inventory`, as placement reads it. Beside the
 * keys the node module shows, placement reads what guests NodeRings did not create use (`nonNrCpuCores`,
 * `nonNrMemoryBytes`, `nonNrDiskBytes` on the VM storage), and what they hold: `foreignVmids` (numbers,
 * read by `foreignVmids`) and `foreignMacAddresses` (strings, read by `foreignMacAddresses`). A key not
 * written yet reads as zero or empty: nothing reported, nothing used by others.
 */
interface PlacementInventory {
  readonly cpuCores: number;
  readonly memoryBytes: number;
  /** The size of the storage pool new VM disks go to (`vmStorageDestination`); 0 when not reported. */
  readonly vmStorageBytes: number;
  /** That pool as reported (`allocatedBytes` is what is written on it); undefined when not reported. */
  readonly vmStoragePool: { readonly totalBytes: number; readonly allocatedBytes: number } | undefined;
  readonly nonNrCpuCores: number;
  readonly nonNrMemoryBytes: number;
  readonly nonNrDiskBytes: number;
}

/** A node a plan may place on, with what decides whether it can take a VM now. */
export interface CandidateNode {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly platformId: string;
  readonly regionId: string;
  readonly createdAt: Date;
  readonly serviceStatus: ServiceStatus;
  readonly maintenanceMode: boolean;
  readonly computeType: NodeComputeType;
  readonly vmidSeed: number;
  readonly macAddressPrefix: string;
  readonly vmStorageDestination: string;
  readonly overallocatePercent: { readonly cpu: number; readonly memory: number; readonly disk: number };
  /** The node's platform, and that platform's agent (undefined when it has none). */
  readonly platform: {
    readonly name: string;
    readonly serviceStatus: ServiceStatus;
    readonly metricsReported: boolean;
  };
  readonly agent:
    | {
        readonly id: string;
        readonly name: string;
        readonly provisioned: boolean;
        readonly inboundPeeringState: InboundPeeringState;
        readonly serviceStatus: ServiceStatus;
      }
    | undefined;
  /** The IPAM network the node's VMs take addresses from. */
  readonly network:
    { readonly id: string; readonly name: string; readonly macAddressPrefix: string } | undefined;
  readonly inventory: PlacementInventory;
}

/** What a node's active claims hold. */
export interface NodeUsage {
  readonly vms: number;
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
}

const amount = z.number().nonnegative().catch(0);
const NOTHING_REPORTED = {
  cpuCores: 0,
  memoryBytes: 0,
  storagePools: [],
  nonNrCpuCores: 0,
  nonNrMemoryBytes: 0,
  nonNrDiskBytes: 0,
};
/** Tolerant like the node module's reading: what the sync has not written reads as zero. */
const inventoryColumn = z
  .object({
    cpuCores: amount,
    memoryBytes: amount,
    storagePools: z
      .array(z.object({ storageId: z.string(), totalBytes: amount, allocatedBytes: amount }))
      .catch([]),
    nonNrCpuCores: amount,
    nonNrMemoryBytes: amount,
    nonNrDiskBytes: amount,
  })
  .catch(NOTHING_REPORTED);

function inventoryOf(value: unknown, vmStorage: string): PlacementInventory {
  const { storagePools, ...rest } = inventoryColumn.parse(value);
  const pool = storagePools.find((p) => p.storageId === vmStorage);
  return {
    ...rest,
    vmStorageBytes: pool?.totalBytes ?? 0,
    vmStoragePool: pool && { totalBytes: pool.totalBytes, allocatedBytes: pool.allocatedBytes },
  };
}

/** The nodes with their platform, agent and network, `organizationId`'s or those of `nodeIds`. */
function candidateNodesQuery(db: Db | Tx) {
  return db
    .selectFrom('nodes')
    .innerJoin('platforms', 'platforms.id', 'nodes.platform_id')
    .leftJoin('agents', 'agents.id', 'platforms.agent_id')
    .leftJoin('ipam_networks', 'ipam_networks.id', 'nodes.network_id')
    .select([
      'nodes.id',
      'nodes.organization_id',
      'nodes.name',
      'nodes.platform_id',
      'nodes.region_id',
      'nodes.created_at',
      'nodes.service_status',
      'nodes.maintenance_mode',
      'nodes.compute_type',
      'nodes.vmid_seed',
      'nodes.mac_address_prefix',
      'nodes.vm_storage_destination',
      'nodes.cpu_overallocate_percent',
      'nodes.memory_overallocate_percent',
      'nodes.storage_overallocate_percent',
      'platforms.name as platform_name',
      'platforms.service_status as platform_service_status',
      'platforms.metrics_reported_at as platform_metrics_reported_at',
      'agents.id as agent_id',
      'agents.name as agent_name',
      'agents.provisioned as agent_provisioned',
      'agents.inbound_peering_state as agent_peering_state',
      'agents.service_status as agent_service_status',
      'ipam_networks.id as network_id',
      'ipam_networks.name as network_name',
      'ipam_networks.mac_address_prefix as network_mac_address_prefix',
      // Foreign guests can be many; what they hold is read only for the chosen node.
      sql`nodes.inventory - 'foreignVmids' - 'foreignMacAddresses'`.as('inventory'),
    ]);
}

type CandidateNodeRow = Awaited<ReturnType<ReturnType<typeof candidateNodesQuery>['execute']>>[number];

function agentOf(r: CandidateNodeRow): CandidateNode['agent'] {
  if (
    r.agent_id === null ||
    r.agent_name === null ||
    r.agent_provisioned === null ||
    r.agent_peering_state === null ||
    r.agent_service_status === null
  )
    return undefined;
  return {
    id: r.agent_id,
    name: r.agent_name,
    provisioned: r.agent_provisioned,
    inboundPeeringState: r.agent_peering_state,
    serviceStatus: r.agent_service_status,
  };
}

function toCandidateNode(r: CandidateNodeRow): CandidateNode {
  if (!isNodeComputeType(r.compute_type))
    throw new Error(`nodes.compute_type holds an unknown value: ${r.compute_type}`);
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    platformId: r.platform_id,
    regionId: r.region_id,
    createdAt: r.created_at,
    serviceStatus: r.service_status,
    maintenanceMode: r.maintenance_mode,
    computeType: r.compute_type,
    vmidSeed: r.vmid_seed,
    macAddressPrefix: r.mac_address_prefix,
    vmStorageDestination: r.vm_storage_destination,
    overallocatePercent: {
      cpu: r.cpu_overallocate_percent,
      memory: r.memory_overallocate_percent,
      disk: r.storage_overallocate_percent,
    },
    platform: {
      name: r.platform_name,
      serviceStatus: r.platform_service_status,
      metricsReported: r.platform_metrics_reported_at !== null,
    },
    agent: agentOf(r),
    network:
      r.network_id === null || r.network_name === null || r.network_mac_address_prefix === null
        ? undefined
        : { id: r.network_id, name: r.network_name, macAddressPrefix: r.network_mac_address_prefix },
    inventory: inventoryOf(r.inventory, r.vm_storage_destination),
  };
}

/**
 * The nodes of `organizationId` among `nodeIds`, each under a row lock held until the transaction ends,
 * taken in id order so that two claims over overlapping nodes never wait for each other in a circle. The
 * lock is what makes the capacity check and the insert one step: a claim is only ever written for a node
 * its transaction has locked. FOR NO KEY UPDATE still lets other tables' foreign keys to the node be
 * checked meanwhile.
 */
export async function lockCandidateNodes(
  tx: Tx,
  organizationId: string,
  nodeIds: readonly string[],
): Promise<CandidateNode[]> {
  if (nodeIds.length === 0) return [];
  const rows = await candidateNodesQuery(tx)
    .where('nodes.organization_id', '=', organizationId)
    .where('nodes.id', 'in', nodeIds)
    .orderBy('nodes.id')
    .forNoKeyUpdate('nodes')
    .execute();
  return rows.map(toCandidateNode);
}

/** What active claims hold, per node; the caller narrows which claims. */
function usageQuery(db: Db | Tx) {
  return db
    .selectFrom('vm_claims')
    .select((eb) => [
      'node_id',
      eb.fn.countAll<string | number>().as('vms'),
      eb.fn.sum<string | number>('vcpus').as('vcpus'),
      eb.fn.sum<string | number>('ram_gb').as('ram_gb'),
      eb.fn.sum<string | number>('disk_gb').as('disk_gb'),
    ])
    .where('status', '=', 'ACTIVE')
    .groupBy('node_id');
}

function usageMap(
  rows: Awaited<ReturnType<ReturnType<typeof usageQuery>['execute']>>,
): Map<string, NodeUsage> {
  const usage = new Map<string, NodeUsage>();
  for (const r of rows)
    if (r.node_id !== null)
      usage.set(r.node_id, {
        vms: Number(r.vms),
        vcpus: Number(r.vcpus),
        ramGb: Number(r.ram_gb),
        diskGb: Number(r.disk_gb),
      });
  return usage;
}

/** What the nodes' active claims hold; a node without any is left out. */
export async function activeNodeUsage(
  db: Db | Tx,
  nodeIds: readonly string[],
): Promise<Map<string, NodeUsage>> {
  if (nodeIds.length === 0) return new Map();
  return usageMap(await usageQuery(db).where('node_id', 'in', nodeIds).execute());
}

/**
 * Reads for preflight and the marketplace, which judge capacity without taking it: no locks, so a claim
 * may change the answer a moment later, and the claim itself decides under its locks.
 */
export class CandidateNodeRepository {
  constructor(private readonly db: Db) {}

  /** Every node of the organisation. */
  async ofOrganization(organizationId: string): Promise<CandidateNode[]> {
    const rows = await candidateNodesQuery(this.db)
      .where('nodes.organization_id', '=', organizationId)
      .orderBy('nodes.created_at')
      .orderBy('nodes.id')
      .execute();
    return rows.map(toCandidateNode);
  }

  /** The nodes with these ids, whoever's they are. */
  async byIds(nodeIds: readonly string[]): Promise<CandidateNode[]> {
    if (nodeIds.length === 0) return [];
    const rows = await candidateNodesQuery(this.db).where('nodes.id', 'in', nodeIds).execute();
    return rows.map(toCandidateNode);
  }

  /** What the active claims of the organisation's nodes hold, per node. */
  async usageOfOrganization(organizationId: string): Promise<Map<string, NodeUsage>> {
    return usageMap(
      await usageQuery(this.db).where('provider_organization_id', '=', organizationId).execute(),
    );
  }

  usage(nodeIds: readonly string[]): Promise<Map<string, NodeUsage>> {
    return activeNodeUsage(this.db, nodeIds);
  }
}
