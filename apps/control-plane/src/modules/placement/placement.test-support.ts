import { randomUUID } from 'node:crypto';

import type { Caller, TestControlPlane } from '../../control-plane.test-support.js';
import type { ServiceStatus } from '../../db/schema.js';
import { createRegion, requiredNodeFields } from '../nodes/node.test-support.js';
import { createNetwork, createPrefix } from '../ipam/ipam.test-support.js';
import { planBody } from '../plans/plan.test-support.js';

const GIB = 1024 ** 3;

/** A provider ready to sell: a region, a platform whose agent is peered, and a network to put nodes on. */
export interface Seller {
  readonly provider: Caller & { readonly organizationId: string };
  readonly regionId: string;
  readonly platformId: string;
  readonly networkId: string;
}

/** What the metrics sync writes about a node; here straight into the database. */
export interface NodeReport {
  readonly cpuCores: number;
  readonly memoryGib: number;
  readonly storageGib: number;
  readonly nonNrCpuCores?: number;
  readonly nonNrMemoryGib?: number;
  readonly nonNrDiskGib?: number;
  readonly foreignVmids?: readonly number[];
  readonly foreignMacAddresses?: readonly string[];
  readonly serviceStatus?: ServiceStatus;
}

/** An agent that is provisioned and peered, and a platform served by it, written straight into the database. */
async function insertReadyPlatform(t: TestControlPlane, organizationId: string): Promise<string> {
  const agent = await t.cp.db
    .insertInto('agents')
    .values({
      organization_id: organizationId,
      name: `agent ${randomUUID()}`,
      description: '',
      agent_public_ip: '203.0.113.10',
      gateway_region: 'AGENT_GATEWAY_REGION_AMS01',
      hypervisor_driver: 'proxmox',
      provisioned: true,
      inbound_peering_state: 'INBOUND_PEERING_STATE_READY',
      service_status: 'SERVICE_STATUS_ONLINE',
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const platform = await t.cp.db
    .insertInto('platforms')
    .values({
      organization_id: organizationId,
      name: `platform ${randomUUID()}`,
      endpoint_url: `https://${randomUUID()}.pve.test:8006`,
      driver: 'PLATFORM_DRIVER_PROXMOX',
      agent_id: agent.id,
      service_status: 'SERVICE_STATUS_ONLINE',
      updated_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Its operator has read Proxmox: nodes join the report as they are added (addNode).
  await t.cp.db
    .insertInto('proxmox_inventories')
    .values({ agent_id: agent.id, nodes: '[]', observed_at: new Date(), read_at: new Date() })
    .execute();
  return platform.id;
}

/** The templates every node's Proxmox reports in these tests; createReadyOffer registers 9000. */
const REPORTED_TEMPLATE_VMIDS = [9000, 9001];

/** Adds a node (with `templateVmids`) to what the platform's Proxmox reported, as its operator would. */
async function reportProxmoxNode(
  t: TestControlPlane,
  platformId: string,
  name: string,
  templateVmids: readonly number[] = REPORTED_TEMPLATE_VMIDS,
): Promise<void> {
  const platform = await t.cp.db
    .selectFrom('platforms')
    .select('agent_id')
    .where('id', '=', platformId)
    .executeTakeFirstOrThrow();
  if (platform.agent_id === null) return;
  const row = await t.cp.db
    .selectFrom('proxmox_inventories')
    .select('nodes')
    .where('agent_id', '=', platform.agent_id)
    .executeTakeFirst();
  const nodes = [
    ...(row?.nodes ?? []).filter((n) => n.name !== name),
    { name, online: true, templateVmids: [...templateVmids] },
  ];
  await t.cp.db
    .insertInto('proxmox_inventories')
    .values({
      agent_id: platform.agent_id,
      nodes: JSON.stringify(nodes),
      observed_at: new Date(),
      read_at: new Date(),
    })
    .onConflict((oc) =>
      oc.column('agent_id').doUpdateSet({ nodes: JSON.stringify(nodes), observed_at: new Date() }),
    )
    .execute();
}

/**
 * A provider (a new one, or `provider`) with a ready platform and a network holding `ipv4` (and `ipv6`,
 * when given) prefixes.
 */
export async function createSeller(
  t: TestControlPlane,
  prefixes: { ipv4: Record<string, unknown>; ipv6?: Record<string, unknown> } = {
    ipv4: { cidr: '10.0.0.0/24', gateway: '10.0.0.1' },
  },
  provider?: Seller['provider'],
): Promise<Seller> {
  provider ??= await t.register();
  const regionId = await createRegion(t, provider);
  const platformId = await insertReadyPlatform(t, provider.organizationId);
  const networkId = await addNetwork(t, provider, prefixes);
  return { provider, regionId, platformId, networkId };
}

export async function addNetwork(
  t: TestControlPlane,
  provider: Caller,
  prefixes: { ipv4: Record<string, unknown>; ipv6?: Record<string, unknown> },
): Promise<string> {
  const network = await createNetwork(t, provider);
  await createPrefix(t, provider, { ...prefixes.ipv4, networkId: network.id });
  if (prefixes.ipv6 !== undefined)
    await createPrefix(t, provider, { ...prefixes.ipv6, networkId: network.id });
  return network.id;
}

/**
 * A node created through the API (with `settings` over the required fields), put on the network and
 * reported by the metrics sync, so that it is ready to take VMs.
 */
export async function addNode(
  t: TestControlPlane,
  seller: Seller,
  report: NodeReport,
  settings: Record<string, unknown> = {},
  networkId: string = seller.networkId,
): Promise<string> {
  const name = typeof settings.name === 'string' ? settings.name : `pve-${randomUUID()}`;
  await reportProxmoxNode(t, seller.platformId, name);
  const response = await t.call<{ node: { id: string } }>('POST', '/v1/node', {
    as: seller.provider,
    body: { ...requiredNodeFields(seller.platformId, seller.regionId, name), ...settings },
  });
  if (response.status !== 201) throw new Error(`node create failed: ${JSON.stringify(response.body)}`);
  const nodeId = response.body.node.id;
  const assigned = await t.call('POST', `/v1/ipam/networks/${networkId}/assign-node`, {
    as: seller.provider,
    body: { nodeIds: [nodeId] },
  });
  if (assigned.status !== 200) throw new Error(`assign-node failed: ${JSON.stringify(assigned.body)}`);
  await reportNode(t, nodeId, report);
  return nodeId;
}

export async function reportNode(t: TestControlPlane, nodeId: string, report: NodeReport): Promise<void> {
  await t.cp.db
    .updateTable('nodes')
    .set({
      service_status: report.serviceStatus ?? 'SERVICE_STATUS_ONLINE',
      inventory: JSON.stringify({
        cpuCores: report.cpuCores,
        cpuCoresAllocated: 0,
        memoryBytes: report.memoryGib * GIB,
        memoryAllocatedBytes: 0,
        storagePools: [{ storageId: 'local-lvm', totalBytes: report.storageGib * GIB, allocatedBytes: 0 }],
        nonNrCpuCores: report.nonNrCpuCores ?? 0,
        nonNrMemoryBytes: (report.nonNrMemoryGib ?? 0) * GIB,
        nonNrDiskBytes: (report.nonNrDiskGib ?? 0) * GIB,
        foreignVmids: report.foreignVmids ?? [],
        foreignMacAddresses: report.foreignMacAddresses ?? [],
      }),
    })
    .where('id', '=', nodeId)
    .execute();
}

export async function addPlan(
  t: TestControlPlane,
  seller: Seller,
  nodeIds: readonly string[],
  specs: { vcpus: number; ramGb: number; diskGb: number } = { vcpus: 1, ramGb: 1, diskGb: 10 },
): Promise<string> {
  const response = await t.call<{ plan: { id: string } }>('POST', '/v1/plans', {
    as: seller.provider,
    body: planBody(seller.regionId, nodeIds, { ...specs, name: `plan ${randomUUID()}` }),
  });
  if (response.status !== 201) throw new Error(`plan create failed: ${JSON.stringify(response.body)}`);
  return response.body.plan.id;
}
