import {
  isBackupStorageCompression,
  isNicModel,
  isNodeComputeType,
  type NodeSettings,
} from '@noderings/domain';
import { sql, type Selectable } from 'kysely';
import { z } from 'zod';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { NodeTable, ServiceStatus } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { duplicateNodeName, nodeInUse } from './node.errors.js';

/** What the hypervisor reports about a node's capacity; written by the metrics sync, never by the API. */
interface NodeInventory {
  readonly cpuCores: number;
  readonly cpuCoresAllocated: number;
  readonly memoryBytes: number;
  readonly memoryAllocatedBytes: number;
  readonly storagePools: readonly StoragePoolInventory[];
  /** What guests NodeRings did not create use (the exporter's non_nr_* sums). */
  readonly nonNrCpuCores: number;
  readonly nonNrMemoryBytes: number;
  readonly nonNrDiskBytes: number;
  /** When the metrics last reported on the node (ISO time), or null. */
  readonly syncedAt: string | null;
}

interface StoragePoolInventory {
  readonly storageId: string;
  readonly totalBytes: number;
  readonly allocatedBytes: number;
}

export interface Node extends NodeSettings {
  readonly id: string;
  readonly organizationId: string;
  readonly platformId: string;
  readonly regionId: string;
  readonly name: string;
  readonly serviceStatus: ServiceStatus;
  readonly maintenanceMode: boolean;
  readonly inventory: NodeInventory;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a provider sets on a node; the platform is its identity and cannot change. */
export type EditableNode = Omit<
  Node,
  'id' | 'organizationId' | 'platformId' | 'serviceStatus' | 'inventory' | 'createdAt' | 'updatedAt'
>;

export type NodeChanges = Partial<EditableNode>;

export type NewNode = EditableNode & { readonly organizationId: string; readonly platformId: string };

export interface NodeFilter {
  readonly platformId?: string | undefined;
  readonly regionId?: string | undefined;
  readonly serviceStatus?: ServiceStatus | undefined;
  /** A piece of the node's name, matched case-insensitively. */
  readonly search?: string | undefined;
}

/** The columns of a node's region, read in the same query as the node for `expand[]=region`. */
export interface NodeRegionRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly cityId: string;
  readonly datacenterId: string;
  readonly createdAt: Date;
}

/** A new node has not been seen by the metrics sync yet. */
const INITIAL_SERVICE_STATUS: ServiceStatus = 'SERVICE_STATUS_OFFLINE';

/** Tolerant: a field the sync has not written yet reads as zero or empty rather than failing the request. */
const inventoryColumn = z.object({
  cpuCores: z.number().nonnegative().catch(0),
  cpuCoresAllocated: z.number().nonnegative().catch(0),
  memoryBytes: z.number().nonnegative().catch(0),
  memoryAllocatedBytes: z.number().nonnegative().catch(0),
  storagePools: z
    .array(
      z.object({
        storageId: z.string(),
        totalBytes: z.number().nonnegative().catch(0),
        allocatedBytes: z.number().nonnegative().catch(0),
      }),
    )
    .catch([]),
  nonNrCpuCores: z.number().nonnegative().catch(0),
  nonNrMemoryBytes: z.number().nonnegative().catch(0),
  nonNrDiskBytes: z.number().nonnegative().catch(0),
  syncedAt: z.iso.datetime().nullable().catch(null),
});

type NodeRow = Selectable<NodeTable>;

function known<T extends string>(value: string, isKnown: (v: string) => v is T, column: string): T {
  if (!isKnown(value)) throw new Error(`nodes.${column} holds an unknown value: ${value}`);
  return value;
}

function toNode(r: NodeRow): Node {
  return {
    id: r.id,
    organizationId: r.organization_id,
    platformId: r.platform_id,
    regionId: r.region_id,
    name: r.name,
    serviceStatus: r.service_status,
    maintenanceMode: r.maintenance_mode,
    vmidSeed: r.vmid_seed,
    vmStorageDestination: r.vm_storage_destination,
    backupStorageDestination: r.backup_storage_destination,
    backupStorageCompression: known(
      r.backup_storage_compression,
      isBackupStorageCompression,
      'backup_storage_compression',
    ),
    cpuOverallocatePercent: r.cpu_overallocate_percent,
    memoryOverallocatePercent: r.memory_overallocate_percent,
    storageOverallocatePercent: r.storage_overallocate_percent,
    computeType: known(r.compute_type, isNodeComputeType, 'compute_type'),
    networkBridge: r.network_bridge,
    networkName: r.network_name,
    networkModel: known(r.network_model, isNicModel, 'network_model'),
    networkVlanId: r.network_vlan_id,
    macAddressPrefix: r.mac_address_prefix,
    proxmoxCpuType: r.proxmox_cpu_type,
    inventory: inventoryColumn.parse(r.inventory),
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The columns a create or an update writes. */
function toColumns(n: EditableNode) {
  return {
    region_id: n.regionId,
    name: n.name,
    maintenance_mode: n.maintenanceMode,
    vmid_seed: n.vmidSeed,
    vm_storage_destination: n.vmStorageDestination,
    backup_storage_destination: n.backupStorageDestination,
    backup_storage_compression: n.backupStorageCompression,
    cpu_overallocate_percent: n.cpuOverallocatePercent,
    memory_overallocate_percent: n.memoryOverallocatePercent,
    storage_overallocate_percent: n.storageOverallocatePercent,
    compute_type: n.computeType,
    network_bridge: n.networkBridge,
    network_name: n.networkName,
    network_model: n.networkModel,
    network_vlan_id: n.networkVlanId,
    mac_address_prefix: n.macAddressPrefix,
    proxmox_cpu_type: n.proxmoxCpuType,
  };
}

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Every query is scoped to one organisation: another tenant's node, platform or region is simply not found. */
export class NodeRepository {
  constructor(private readonly db: Db) {}

  private filtered(organizationId: string, filter: NodeFilter) {
    let query = this.db.selectFrom('nodes').where('nodes.organization_id', '=', organizationId);
    if (filter.platformId !== undefined) query = query.where('nodes.platform_id', '=', filter.platformId);
    if (filter.regionId !== undefined) query = query.where('nodes.region_id', '=', filter.regionId);
    if (filter.serviceStatus !== undefined)
      query = query.where('nodes.service_status', '=', filter.serviceStatus);
    if (filter.search !== undefined && filter.search !== '')
      query = query.where('nodes.name', 'ilike', likePattern(filter.search));
    return query;
  }

  async list(organizationId: string, filter: NodeFilter, page: Page): Promise<PageResult<Node>> {
    return listPage(
      this.filtered(organizationId, filter)
        .selectAll('nodes')
        .orderBy('nodes.created_at')
        .orderBy('nodes.id'),
      page,
      (rows) => rows.map(toNode),
    );
  }

  /** The page with each node's region joined in, so that expanding costs no query per node. */
  async listWithRegions(
    organizationId: string,
    filter: NodeFilter,
    page: Page,
  ): Promise<PageResult<{ node: Node; region: NodeRegionRecord }>> {
    return listPage(
      this.filtered(organizationId, filter)
        .innerJoin('regions', 'regions.id', 'nodes.region_id')
        .selectAll('nodes')
        .select([
          'regions.city_id as region_city_id',
          'regions.datacenter_id as region_datacenter_id',
          'regions.created_at as region_created_at',
        ])
        .orderBy('nodes.created_at')
        .orderBy('nodes.id'),
      page,
      (rows) =>
        rows.map((r) => ({
          node: toNode(r),
          region: {
            id: r.region_id,
            organizationId: r.organization_id,
            cityId: r.region_city_id,
            datacenterId: r.region_datacenter_id,
            createdAt: r.region_created_at,
          },
        })),
    );
  }

  async findById(organizationId: string, id: string): Promise<Node | undefined> {
    const row = await this.db
      .selectFrom('nodes')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toNode(row);
  }

  async platformExists(organizationId: string, platformId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('platforms')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', platformId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async regionExists(organizationId: string, regionId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('regions')
      .select('id')
      .where('organization_id', '=', organizationId)
      .where('id', '=', regionId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async insert(node: NewNode): Promise<Node> {
    const row = await translateViolations(
      this.db
        .insertInto('nodes')
        .values({
          ...toColumns(node),
          organization_id: node.organizationId,
          platform_id: node.platformId,
          service_status: INITIAL_SERVICE_STATUS,
          updated_at: sql<Date>`now()`,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      { unique: () => duplicateNodeName(node.name) },
    );
    return toNode(row);
  }

  /**
   * Reads the node under a row lock, asks `decide` for its next values (it may throw to refuse them, or
   * answer undefined to change nothing), and writes them. The lock keeps rules that span fields true when
   * two edits race: without it, one edit making a node dedicated and another raising its CPU
   * overallocation could both pass. Undefined when the node does not exist in this organisation.
   */
  async update(
    organizationId: string,
    id: string,
    decide: (current: Node) => EditableNode | undefined,
  ): Promise<Node | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('nodes')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const current = toNode(row);
      const next = decide(current);
      if (next === undefined) return current;
      const updated = await translateViolations(
        tx
          .updateTable('nodes')
          .set({ ...toColumns(next), updated_at: sql<Date>`now()` })
          .where('organization_id', '=', organizationId)
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow(),
        // Of the columns an update writes, only the name is unique (per platform).
        { unique: () => duplicateNodeName(next.name) },
      );
      return toNode(updated);
    });
  }

  /** False when the node does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .deleteFrom('nodes')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      { foreignKey: nodeInUse },
    );
    return result.numDeletedRows > 0n;
  }
}
