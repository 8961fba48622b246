import {
  BACKUP_STORAGE_COMPRESSIONS,
  macAddressPrefixProblem,
  networkBridgeProblem,
  networkNameProblem,
  networkVlanIdProblem,
  NIC_MODELS,
  NODE_COMPUTE_TYPES,
  nodeNameProblem,
  overallocatePercentProblem,
  proxmoxCpuTypeProblem,
  storageIdProblem,
  vmidSeedProblem,
  type Problem,
} from '@noderings/domain';
import { z } from 'zod';

import type { toRegionView } from '../regions/index.js';
import type { Node } from './node.repository.js';

const serviceStatus = z.enum([
  'SERVICE_STATUS_ONLINE',
  'SERVICE_STATUS_OFFLINE',
  'SERVICE_STATUS_MAINTENANCE',
]);

/** A field checked by one of the domain's rules, so that the message is the same wherever it is checked. */
function ruled<T extends z.ZodType>(schema: T, problem: (value: z.output<T>) => Problem): T {
  return schema.superRefine((value, ctx) => {
    const description = problem(value);
    if (description !== undefined) ctx.addIssue({ code: 'custom', message: description });
  });
}

const storageId = ruled(z.string(), storageIdProblem);
const overallocatePercent = ruled(z.number().int(), overallocatePercentProblem).describe(
  '100 sells exactly the physical capacity; 200 sells twice it.',
);

/** The fields a provider sets and may later change; all optional, for PATCH. */
const editableFields = {
  name: ruled(z.string(), nodeNameProblem).describe('Exactly as `pvesh get /nodes` lists the host.'),
  regionId: z.uuid(),
  vmStorageDestination: storageId.describe('Proxmox storage id for new VM disks, like local-lvm.'),
  backupStorageDestination: storageId.describe('Proxmox storage id for backups, like local.'),
  backupStorageCompression: z.enum(BACKUP_STORAGE_COMPRESSIONS),
  vmidSeed: ruled(z.number().int(), vmidSeedProblem).describe(
    'The first VMID given to customer VMs on this node.',
  ),
  maintenanceMode: z.boolean().describe('While on, no new VM is placed on this node.'),
  cpuOverallocatePercent: overallocatePercent,
  memoryOverallocatePercent: overallocatePercent,
  storageOverallocatePercent: overallocatePercent,
  computeType: z.enum(NODE_COMPUTE_TYPES),
  networkBridge: ruled(z.string(), networkBridgeProblem),
  networkName: ruled(z.string(), networkNameProblem).describe(
    'The Proxmox net device key of the primary NIC.',
  ),
  networkModel: z.enum(NIC_MODELS),
  networkVlanId: ruled(z.number().int(), networkVlanIdProblem).describe('0 means untagged.'),
  macAddressPrefix: ruled(z.string(), macAddressPrefixProblem).describe('Three octets, like BC:24:11.'),
  proxmoxCpuType: ruled(z.string(), proxmoxCpuTypeProblem),
};

export const createNodeBody = z.strictObject({
  ...editableFields,
  platformId: z.uuid(),
  maintenanceMode: editableFields.maintenanceMode.optional(),
  cpuOverallocatePercent: overallocatePercent.optional(),
  memoryOverallocatePercent: overallocatePercent.optional(),
  storageOverallocatePercent: overallocatePercent.optional(),
  computeType: editableFields.computeType.optional(),
  networkBridge: editableFields.networkBridge.optional(),
  networkName: editableFields.networkName.optional(),
  networkModel: editableFields.networkModel.optional(),
  networkVlanId: editableFields.networkVlanId.optional(),
  macAddressPrefix: editableFields.macAddressPrefix.optional(),
  proxmoxCpuType: editableFields.proxmoxCpuType.optional(),
});

export const updateNodeBody = z.strictObject(editableFields).partial();

const expandable = z.enum(['region']);
const expandList = z
  .union([expandable, z.array(expandable)])
  .transform((v) => (Array.isArray(v) ? v : [v]))
  .optional();

export const listNodesQuery = z.object({
  platformId: z.uuid().optional(),
  regionId: z.uuid().optional(),
  serviceStatus: serviceStatus.optional(),
  search: z.string().max(100).optional(),
  // The published spec spells the parameter `expand[]`; grpc-gateway clients repeat a bare `expand`.
  'expand[]': expandList,
  expand: expandList,
});

const storagePoolView = z.object({
  storageId: z.string(),
  totalBytes: z.number(),
  allocatedBytes: z.number(),
});

export const nodeView = z
  .object({
    id: z.string(),
    name: z.string(),
    platformId: z.string(),
    regionId: z.string(),
    organizationId: z.string(),
    serviceStatus,
    maintenanceMode: z.boolean(),
    vmidSeed: z.number().int(),
    vmStorageDestination: z.string(),
    backupStorageDestination: z.string(),
    backupStorageCompression: z.enum(BACKUP_STORAGE_COMPRESSIONS),
    cpuOverallocatePercent: z.number().int(),
    memoryOverallocatePercent: z.number().int(),
    storageOverallocatePercent: z.number().int(),
    computeType: z.enum(NODE_COMPUTE_TYPES),
    networkBridge: z.string(),
    networkName: z.string(),
    networkModel: z.string(),
    networkVlanId: z.number().int(),
    macAddressPrefix: z.string(),
    proxmoxCpuType: z.string(),
    inventory: z
      .object({
        cpuCores: z.number(),
        cpuCoresAllocated: z.number(),
        memoryBytes: z.number(),
        memoryAllocatedBytes: z.number(),
        storagePools: z.array(storagePoolView),
        nonNrCpuCores: z.number().describe('vCPUs of guests NodeRings did not create (templates excluded).'),
        nonNrMemoryBytes: z.number(),
        nonNrDiskBytes: z
          .number()
          .describe('Disk size of guests NodeRings did not create (templates included).'),
        syncedAt: z.iso.datetime().nullable().describe('When the metrics last reported on the node.'),
      })
      .describe('Synced from the hypervisor; zeros until the first sync. Read-only.'),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'Node' });

/**
 * The regions module's view, repeated because that module exports only the mapping; typed against the
 * mapping's result so the two cannot drift apart.
 */
export const expandedRegionView: z.ZodType<ReturnType<typeof toRegionView>> = z.object({
  id: z.string(),
  organizationId: z.string(),
  cityCountry: z.object({ id: z.string(), cityName: z.string(), countryName: z.string() }),
  datacenter: z.object({ id: z.string(), name: z.string() }),
  createTime: z.string(),
});

export function toNodeView(n: Node): z.infer<typeof nodeView> {
  return {
    id: n.id,
    name: n.name,
    platformId: n.platformId,
    regionId: n.regionId,
    organizationId: n.organizationId,
    serviceStatus: n.serviceStatus,
    maintenanceMode: n.maintenanceMode,
    vmidSeed: n.vmidSeed,
    vmStorageDestination: n.vmStorageDestination,
    backupStorageDestination: n.backupStorageDestination,
    backupStorageCompression: n.backupStorageCompression,
    cpuOverallocatePercent: n.cpuOverallocatePercent,
    memoryOverallocatePercent: n.memoryOverallocatePercent,
    storageOverallocatePercent: n.storageOverallocatePercent,
    computeType: n.computeType,
    networkBridge: n.networkBridge,
    networkName: n.networkName,
    networkModel: n.networkModel,
    networkVlanId: n.networkVlanId,
    macAddressPrefix: n.macAddressPrefix,
    proxmoxCpuType: n.proxmoxCpuType,
    inventory: {
      cpuCores: n.inventory.cpuCores,
      cpuCoresAllocated: n.inventory.cpuCoresAllocated,
      memoryBytes: n.inventory.memoryBytes,
      memoryAllocatedBytes: n.inventory.memoryAllocatedBytes,
      storagePools: n.inventory.storagePools.map((p) => ({ ...p })),
      nonNrCpuCores: n.inventory.nonNrCpuCores,
      nonNrMemoryBytes: n.inventory.nonNrMemoryBytes,
      nonNrDiskBytes: n.inventory.nonNrDiskBytes,
      syncedAt: n.inventory.syncedAt,
    },
    createTime: n.createdAt.toISOString(),
    updateTime: n.updatedAt.toISOString(),
  };
}
