import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';

import { CRD_API_VERSION } from '@noderings/kube';

import type { Caller, TestControlPlane } from '../../control-plane.test-support.js';
import { startTestControlPlane } from '../../control-plane.test-support.js';
import { SecretBox } from '../../crypto/secret-box.js';
import type { DatabaseKind } from '../../db/test-database.test-support.js';
import { eventually, startAgentClusterSim, type AgentClusterSim } from '../dispatch/dispatch.test-support.js';
import { createRegion } from '../nodes/node.test-support.js';
import { planBody } from '../plans/plan.test-support.js';

// A control plane peered with an agent cluster (kube-sim), and a provider selling one plan with a backup
// addon on one node of it, all set up through the API, as the snapshot, backup and console tests need.

const GIB = 1024 ** 3;

export interface VmResourcesWorld {
  readonly t: TestControlPlane;
  readonly kube: AgentClusterSim;
  /** Opens what the control plane sealed. */
  readonly secretBox: SecretBox;
  readonly seller: Caller & { organizationId: string };
  readonly agentId: string;
  readonly namespace: string;
  readonly regionId: string;
  readonly planId: string;
  readonly addonId: string;
  close(): Promise<void>;
}

export interface Customer extends Caller {
  readonly organizationId: string;
  readonly keyId: string;
}

export async function startVmResourcesWorld(
  kind: DatabaseKind,
  options: {
    /** Where the agent's Proxmox runs (a simulated provider's pve-sim), and its node's name. */
    readonly platform?: { readonly endpointUrl: string; readonly node: string };
    readonly backupSchedule?: string;
    /** The agent cluster, when the caller runs more on it (an operator); one of the world's own if not. */
    readonly kube?: AgentClusterSim;
    /** Called once the agent is peered, before anything is ordered (starts the operator). */
    readonly onPeered?: (agentId: string) => Promise<void>;
  } = {},
): Promise<VmResourcesWorld> {
  const secretKey = randomBytes(32);
  const t = await startTestControlPlane(kind, { secretKey });
  let kube = options.kube;
  const ownKube = kube === undefined;
  const close = async () => {
    try {
      await t.close();
    } finally {
      if (ownKube) await kube?.close();
    }
  };
  try {
    kube ??= await startAgentClusterSim();
    const seller = await t.verifiedProvider();
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await t.call<T>(method, path, { as: seller, body });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(response.body)}`);
      return response.body;
    };
    const regionId = await createRegion(t, seller);
    const { agent } = await call<{ agent: { id: string } }>('POST', '/v1/agents', {
      name: 'agent',
      agentPublicIp: '198.51.100.20',
      gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
      hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
    });
    const peered = await call<{ inboundPeeringState: string }>(
      'POST',
      `/v1/agents/${agent.id}:uploadInboundPeeringConfig`,
      { kubeconfig: await kube.peerAgent(agent.id) },
    );
    if (peered.inboundPeeringState !== 'INBOUND_PEERING_STATE_READY')
      throw new Error(`peering failed: ${JSON.stringify(peered)}`);
    await options.onPeered?.(agent.id);
    const { platform } = await call<{ platform: { id: string } }>('POST', '/v1/platform', {
      name: 'pve',
      endpointUrl: options.platform?.endpointUrl ?? 'https://pve.example.test:8006',
      driver: 'PLATFORM_DRIVER_PROXMOX',
      agentId: agent.id,
    });
    const { node } = await call<{ node: { id: string } }>('POST', '/v1/node', {
      name: options.platform?.node ?? 'pve1',
      platformId: platform.id,
      regionId,
      vmStorageDestination: 'local-lvm',
      backupStorageDestination: 'local',
      backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_LZO',
      vmidSeed: 1000,
    });
    // What the install (provisioned) and the metrics sync (online, inventory) will report.
    await t.cp.db
      .updateTable('agents')
      .set({ provisioned: true, service_status: 'SERVICE_STATUS_ONLINE' })
      .where('id', '=', agent.id)
      .execute();
    await t.cp.db
      .updateTable('nodes')
      .set({
        service_status: 'SERVICE_STATUS_ONLINE',
        inventory: JSON.stringify({
          cpuCores: 64,
          memoryBytes: 256 * GIB,
          storagePools: [{ storageId: 'local-lvm', totalBytes: 10_000 * GIB, allocatedBytes: 0 }],
        }),
      })
      .where('id', '=', node.id)
      .execute();
    const { network } = await call<{ network: { id: string } }>('POST', '/v1/ipam/networks', {
      name: 'public',
      dnsServers: ['198.51.100.53'],
    });
    await call('POST', '/v1/ipam/prefixes', {
      cidr: '198.51.100.0/24',
      gateway: '198.51.100.1',
      networkId: network.id,
    });
    await call('POST', `/v1/ipam/networks/${network.id}/assign-node`, { nodeIds: [node.id] });
    const seeds = await call<{ cloudInitTemplates: { id: string }[] }>(
      'GET',
      '/v1/cloudinittemplates?filterIsTemplate=true',
    );
    const { cloudInitTemplate } = await call<{ cloudInitTemplate: { id: string } }>(
      'POST',
      '/v1/cloudinittemplate',
      { name: 'ubuntu', copyFromId: seeds.cloudInitTemplates[0]?.id },
    );
    await call('POST', '/v1/vmtemplate', {
      name: 'ubuntu 24.04',
      distro: 'DISTRO_UBUNTU_24_04',
      templateId: 9000,
      nodeId: node.id,
      cloudInitTemplateId: cloudInitTemplate.id,
    });
    const { plan } = await call<{ plan: { id: string } }>('POST', '/v1/plans', {
      ...planBody(regionId, [node.id], { vcpus: 1, ramGb: 1, diskGb: 10 }),
      isPublic: true,
    });
    const { addon } = await call<{ addon: { id: string } }>('POST', '/v1/addons', {
      code: 'BACKUP-DAILY',
      name: 'Daily backups',
      addonType: 'ADDON_TYPE_BACKUP',
      pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '1' },
      compatiblePlanIds: [plan.id],
      backupPolicy: { schedule: options.backupSchedule ?? '0 3 * * *', retention: 2 },
    });
    if (options.onPeered === undefined) {
      // No operator runs here: what it would write of Proxmox (the node and its template).
      const ref = { namespace: `${agent.id}-operator`, name: 'default' };
      const inventory = await kube.admin.proxmoxInventories.create({
        apiVersion: CRD_API_VERSION,
        kind: 'ProxmoxInventory',
        metadata: ref,
        spec: { instance: 'default' },
      });
      await kube.admin.proxmoxInventories.replaceStatus({
        ...inventory,
        status: {
          phase: 'Ready',
          observedAt: new Date().toISOString(),
          nodes: [{ name: options.platform?.node ?? 'pve1', online: true, templateVmids: [9000] }],
        },
      });
    }
    // Reading preflight evaluates the new plan; once the operator's report of Proxmox has arrived the
    // marketplace lists it, so it can be ordered.
    await eventually(
      async () => {
        await call('GET', '/v1/provider/preflight-checks?pageSize=1');
        const listed = await t.call('GET', `/v1/marketplace/plans/${plan.id}`);
        if (listed.status !== 200)
          throw new Error(`the plan is not listed yet: ${JSON.stringify(listed.body)}`);
      },
      20_000,
      250,
    );
    return {
      t,
      kube,
      secretBox: new SecretBox(secretKey),
      seller,
      agentId: agent.id,
      namespace: `${agent.id}-operator`,
      regionId,
      planId: plan.id,
      addonId: addon.id,
      close,
    };
  } catch (e: unknown) {
    await close();
    throw e;
  }
}

export async function newCustomer(world: VmResourcesWorld): Promise<Customer> {
  const { t } = world;
  const buyer = await t.register('ORGANIZATION_TYPE_CLIENT');
  const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(Buffer.from(x ?? '', 'base64url'))]);
  const key = await t.call<{ sshKey: { id: string } }>('POST', '/v1/ssh-keys', {
    as: buyer,
    body: { name: 'laptop', publicKey: `ssh-ed25519 ${blob.toString('base64')} test@laptop` },
  });
  if (key.status !== 201) throw new Error(`ssh key: ${JSON.stringify(key.body)}`);
  return { ...buyer, keyId: key.body.sshKey.id };
}

/** A VM the customer orders; its ProxmoxVM is in the agent cluster when this returns. */
export async function orderVm(world: VmResourcesWorld, buyer: Customer): Promise<string> {
  const ordered = await world.t.call<{ virtualMachine: { id: string } }>('POST', '/v1/virtual-machines', {
    as: buyer,
    body: {
      hostname: 'web-1',
      planId: world.planId,
      regionId: world.regionId,
      distro: 'DISTRO_UBUNTU_24_04',
      sshKeyIds: [buyer.keyId],
      idempotencyKey: randomUUID(),
    },
  });
  if (ordered.status !== 201) throw new Error(`order: ${JSON.stringify(ordered.body)}`);
  const id = ordered.body.virtualMachine.id;
  await eventually(async () => {
    if (
      (await world.kube.admin.proxmoxVMs.find({ namespace: world.namespace, name: `nr-${id}` })) === undefined
    )
      throw new Error(`ProxmoxVM nr-${id} not dispatched yet`);
  });
  return id;
}

/** What the operator reports once the guest runs, written as it would. */
export async function reportRunning(world: VmResourcesWorld, vmId: string): Promise<void> {
  await world.kube.admin.proxmoxVMs.mergePatchStatus(
    { namespace: world.namespace, name: `nr-${vmId}` },
    { status: { phase: 'Running', powerState: 'Running', observedGeneration: 1 } },
  );
  await eventually(async () => {
    const row = await world.t.cp.db
      .selectFrom('virtual_machines')
      .select('observed_power_state')
      .where('id', '=', vmId)
      .executeTakeFirstOrThrow();
    if (row.observed_power_state !== 'Running') throw new Error('not reported running yet');
  });
}
