import { generateKeyPairSync, randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { eventually, startAgentClusterSim, type AgentClusterSim } from '../dispatch/dispatch.test-support.js';
import {
  startSimulatedProvider,
  type SimulatedProvider,
} from '../dispatch/simulated-provider.test-support.js';
import { createRegion } from '../nodes/node.test-support.js';
import { planBody } from '../plans/plan.test-support.js';

// The order flow end to end over real HTTP: a customer buys a plan from the marketplace, the control
// plane (on each database) places and dispatches it, the operator provisions NR-{id} on
// pve-sim through kube-sim, and the deletion gives everything back.

interface VmView {
  id: string;
  provisioningState: string;
  statusMessage: string;
  ipv4: string | null;
}

const GIB = 1024 ** 3;
/** pve-sim's second template on pve1. */
const DEBIAN_TEMPLATE = 9001;

function sshPublicKey(): string {
  const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(Buffer.from(x ?? '', 'base64url'))]);
  return `ssh-ed25519 ${blob.toString('base64')} e2e@test`;
}

describe.each(DATABASE_KINDS)('an order, end to end, on the %s database', (kind) => {
  let t: TestControlPlane;
  let kube: AgentClusterSim;
  let provider: SimulatedProvider;
  let seller: Caller & { organizationId: string };
  let planId: string;
  let regionId: string;
  /** The plan's nodes, oldest (where placement puts an order first) first: pve1 and pve2. */
  let nodeIds: string[];

  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    kube = await startAgentClusterSim();
    provider = await startSimulatedProvider(kube, { nodes: 2 });
    seller = await t.verifiedProvider();
    regionId = await createRegion(t, seller);
    const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
      const response = await t.call<T>(method, path, { as: seller, body });
      if (response.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(response.body)}`);
      return response.body;
    };
    const { agent } = await call<{ agent: { id: string } }>('POST', '/v1/agents', {
      name: 'e2e',
      agentPublicIp: '198.51.100.20',
      gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
      hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
    });
    const peered = await call<{ inboundPeeringState: string }>(
      'POST',
      `/v1/agents/${agent.id}:uploadInboundPeeringConfig`,
      { kubeconfig: await kube.peerAgent(agent.id) },
    );
    expect(peered.inboundPeeringState).toBe('INBOUND_PEERING_STATE_READY');
    await provider.startOperator(agent.id);
    const { platform } = await call<{ platform: { id: string } }>('POST', '/v1/platform', {
      name: 'pve-sim',
      endpointUrl: provider.pveUrl,
      driver: 'PLATFORM_DRIVER_PROXMOX',
      agentId: agent.id,
    });
    nodeIds = [];
    for (const [index, name] of provider.pveNodes.entries()) {
      const { node } = await call<{ node: { id: string } }>('POST', '/v1/node', {
        name,
        platformId: platform.id,
        regionId,
        vmStorageDestination: 'local-lvm',
        backupStorageDestination: 'local',
        backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
        vmidSeed: 1000 * (index + 1),
      });
      nodeIds.push(node.id);
    }
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
          cpuCores: 16,
          memoryBytes: 64 * GIB,
          storagePools: [{ storageId: 'local-lvm', totalBytes: 1000 * GIB, allocatedBytes: 0 }],
        }),
      })
      .where('id', 'in', nodeIds)
      .execute();
    const network = await call<{ network: { id: string } }>('POST', '/v1/ipam/networks', {
      name: 'public',
      dnsServers: ['198.51.100.53'],
    });
    await call('POST', `/v1/ipam/prefixes`, {
      cidr: '198.51.100.0/24',
      gateway: '198.51.100.1',
      networkId: network.network.id,
      allocationStrategy: 'ALLOCATION_STRATEGY_FIRST_AVAILABLE',
    });
    await call('POST', `/v1/ipam/networks/${network.network.id}/assign-node`, { nodeIds });
    const seeds = await call<{ cloudInitTemplates: { id: string; name: string }[] }>(
      'GET',
      '/v1/cloudinittemplates?filterIsTemplate=true',
    );
    const copy = await call<{ cloudInitTemplate: { id: string } }>('POST', '/v1/cloudinittemplate', {
      name: 'ubuntu',
      copyFromId: seeds.cloudInitTemplates[0]?.id,
    });
    // Ubuntu on both nodes (pve-sim's first template of each); Debian only on pve1, whose template a test
    // removes from Proxmox later, unknown to the control plane.
    for (const [index, nodeId] of nodeIds.entries())
      await call('POST', '/v1/vmtemplate', {
        name: 'ubuntu 24.04',
        distro: 'DISTRO_UBUNTU_24_04',
        templateId: 9000 + 2 * index,
        nodeId,
        cloudInitTemplateId: copy.cloudInitTemplate.id,
      });
    await call('POST', '/v1/vmtemplate', {
      name: 'debian 13',
      distro: 'DISTRO_DEBIAN_13',
      templateId: DEBIAN_TEMPLATE,
      nodeId: nodeIds[0],
      cloudInitTemplateId: copy.cloudInitTemplate.id,
    });
    const plan = await call<{ plan: { id: string } }>('POST', '/v1/plans', {
      ...planBody(regionId, nodeIds),
      isPublic: true,
    });
    planId = plan.plan.id;
    // Orders go only to plans the marketplace lists: once the operator's inventory of Proxmox is in.
    const browser = await t.register('ORGANIZATION_TYPE_CLIENT');
    await eventually(
      async () => {
        const listed = await t.call('GET', `/v1/marketplace/plans/${planId}?regionId=${regionId}`, {
          as: browser,
        });
        expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      },
      60_000,
      250,
    );
  }, 120_000);

  afterAll(async () => {
    try {
      await t.close();
    } finally {
      await provider.close();
      await kube.close();
    }
  });

  async function customer(): Promise<Caller & { organizationId: string; keyId: string; publicKey: string }> {
    const buyer = await t.register('ORGANIZATION_TYPE_CLIENT');
    const publicKey = sshPublicKey();
    const key = await t.call<{ sshKey: { id: string } }>('POST', '/v1/ssh-keys', {
      as: buyer,
      body: { name: 'laptop', publicKey },
    });
    return { ...buyer, keyId: key.body.sshKey.id, publicKey };
  }

  async function vmOf(buyer: Caller, id: string): Promise<VmView> {
    return (await t.call<{ virtualMachine: VmView }>('GET', `/v1/virtual-machines/${id}`, { as: buyer })).body
      .virtualMachine;
  }

  it(
    'runs the order as NR-{id} with its VMID, MAC and sizes, applies power, firewall and SMTP decisions, and gives everything back on delete',
    { timeout: 120_000 },
    async () => {
      const buyer = await customer();
      const body = {
        hostname: 'web-1',
        planId,
        regionId,
        distro: 'DISTRO_UBUNTU_24_04',
        sshKeyIds: [buyer.keyId],
        idempotencyKey: randomUUID(),
      };
      const ordered = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
        as: buyer,
        body,
      });
      expect(ordered.status).toBe(201);
      const id = ordered.body.virtualMachine.id;
      const running = await eventually(
        async () => {
          const vm = await vmOf(buyer, id);
          expect(vm.provisioningState, `${vm.statusMessage}\n${provider.output()}`).toBe('RUNNING');
          return vm;
        },
        60_000,
        250,
      );
      const spec = (
        await t.cp.db
          .selectFrom('virtual_machines')
          .select('spec')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).spec as { vmid: number; node: string; network: { mac: string } };
      const config = await provider.pveGet<Record<string, unknown>>(
        `/nodes/${spec.node}/qemu/${String(spec.vmid)}/config`,
      );
      expect(config).toMatchObject({ name: `NR-${id}`, cores: 2 });
      expect(Number(config.memory)).toBe(4096);
      expect(String(config.net0)).toContain(spec.network.mac);
      expect(String(config.ipconfig0)).toContain(`ip=${running.ipv4 ?? ''}/24`);
      // What the guest's cloud-init reads at boot, from the seed the operator attached.
      const seed = await provider.sim<{ files: Record<string, string> }>(
        'GET',
        `/vms/${String(spec.vmid)}/cloudinit`,
      );
      expect(seed.files['user-data']).toContain(buyer.publicKey);
      expect(seed.files['user-data']).toContain('web-1');
      expect(seed.files['network-config']).toContain(spec.network.mac.toLowerCase());
      expect(seed.files['network-config']).toContain(running.ipv4);

      const guest = `/nodes/${spec.node}/qemu/${String(spec.vmid)}`;
      const rules = () =>
        provider.pveGet<{ type: string; action: string; dport?: string; source?: string }[]>(
          `${guest}/firewall/rules`,
        );
      const isSmtpBlock = (r: { type: string; action: string; dport?: string }) =>
        r.type === 'out' && r.action === 'DROP' && (r.dport ?? '').includes('25');
      // Blocked by default (the provider never allowed it): the operator's rule is on the guest.
      expect((await rules()).some(isSmtpBlock)).toBe(true);

      // Power, as the simulator sees it.
      expect((await t.call('POST', `/v1/virtual-machines/${id}:stop`, { as: buyer, body: {} })).status).toBe(
        200,
      );
      await eventually(
        async () => {
          const status = await provider.pveGet<{ status: string }>(`${guest}/status/current`);
          expect(status.status).toBe('stopped');
          expect((await vmOf(buyer, id)).provisioningState).toBe('STOPPED');
        },
        60_000,
        250,
      );
      expect((await t.call('POST', `/v1/virtual-machines/${id}:start`, { as: buyer, body: {} })).status).toBe(
        200,
      );
      await eventually(
        async () => {
          expect((await provider.pveGet<{ status: string }>(`${guest}/status/current`)).status).toBe(
            'running',
          );
        },
        60_000,
        250,
      );

      // The customer's firewall, and the provider allowing outbound SMTP for this VM.
      const ruleset = await t.call<{ ruleset: { id: string } }>('POST', '/v1/firewall/rulesets', {
        as: buyer,
        body: { ruleset: { name: 'ssh only' } },
      });
      const rule = await t.call('POST', `/v1/firewall/rulesets/${ruleset.body.ruleset.id}/rules`, {
        as: buyer,
        body: {
          rule: {
            direction: 'FIREWALL_DIRECTION_INGRESS',
            action: 'FIREWALL_ACTION_ACCEPT',
            protocol: 'FIREWALL_PROTOCOL_TCP',
            source: { ips: ['203.0.113.0/24'] },
            destinationPorts: '22',
          },
        },
      });
      expect(rule.status).toBe(201);
      const attached = await t.call('POST', `/v1/virtual-machines/${id}:attach-firewall`, {
        as: buyer,
        body: { rulesetId: ruleset.body.ruleset.id },
      });
      expect(attached.status).toBe(200);
      const allowed = await t.call('PUT', `/v1/provider/network/smtp-outbound-policies/${id}`, {
        as: seller,
        body: { action: 'SMTP_OUTBOUND_VM_ACTION_ALLOW' },
      });
      expect(allowed.status).toBe(200);
      await eventually(
        async () => {
          const now = await rules();
          expect(
            now.some(
              (r) =>
                r.type === 'in' && r.action === 'ACCEPT' && r.dport === '22' && r.source === '203.0.113.0/24',
            ),
            JSON.stringify(now),
          ).toBe(true);
          expect(now.some(isSmtpBlock), JSON.stringify(now)).toBe(false);
        },
        60_000,
        250,
      );

      // A reinstall: a new guest with the same VMID, MAC and address, and the new host name in its seed.
      const reinstalled = await t.call('POST', `/v1/virtual-machines/${id}:reinstall`, {
        as: buyer,
        body: { hostname: 'web-1b', sshKeyIds: [buyer.keyId] },
      });
      expect(reinstalled.status).toBe(200);
      await eventually(
        async () => {
          const again = await provider.sim<{ files: Record<string, string> }>(
            'GET',
            `/vms/${String(spec.vmid)}/cloudinit`,
          );
          expect(again.files['user-data'], provider.output()).toContain('web-1b');
          expect((await vmOf(buyer, id)).provisioningState).toBe('RUNNING');
        },
        60_000,
        250,
      );
      const recreated = await provider.pveGet<Record<string, unknown>>(`${guest}/config`);
      expect(recreated.name).toBe(`NR-${id}`);
      expect(String(recreated.net0)).toContain(spec.network.mac);

      // The same order again makes nothing new.
      const replayed = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
        as: buyer,
        body,
      });
      expect(replayed.status).toBe(200);
      expect(replayed.body.virtualMachine.id).toBe(id);
      expect((await provider.guestNames()).filter((n) => n === `NR-${id}`)).toHaveLength(1);

      expect((await t.call('DELETE', `/v1/virtual-machines/${id}`, { as: buyer })).status).toBe(200);
      await eventually(
        async () => {
          expect((await vmOf(buyer, id)).provisioningState, provider.output()).toBe('DELETED');
        },
        60_000,
        250,
      );
      expect(await provider.guestNames()).not.toContain(`NR-${id}`);
      // FIRST_AVAILABLE: the next order gets the address the deleted VM gave back. A password reaches
      // the guest only as its hash.
      const password = 'correct horse battery staple';
      const next = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
        as: buyer,
        body: { ...body, sshKeyIds: undefined, password, hostname: 'web-2', idempotencyKey: randomUUID() },
      });
      expect(next.status).toBe(201);
      expect(next.body.virtualMachine.ipv4).toBe(running.ipv4);
      const nextId = next.body.virtualMachine.id;
      await eventually(
        async () => {
          expect((await vmOf(buyer, nextId)).provisioningState, provider.output()).toBe('RUNNING');
        },
        60_000,
        250,
      );
      const nextSpec = (
        await t.cp.db
          .selectFrom('virtual_machines')
          .select('spec')
          .where('id', '=', nextId)
          .executeTakeFirstOrThrow()
      ).spec as { vmid: number };
      const nextSeed = await provider.sim<{ files: Record<string, string> }>(
        'GET',
        `/vms/${String(nextSpec.vmid)}/cloudinit`,
      );
      expect(nextSeed.files['user-data']).toMatch(/\$6\$rounds=\d+\$/);
      expect(JSON.stringify(nextSeed.files)).not.toContain(password);
    },
  );

  it(
    'reports a provisioning that fails for good, plainly to the customer, and releases everything at once',
    { timeout: 120_000 },
    async () => {
      const buyer = await customer();
      // The template is deleted on Proxmox after the operator last listed it: the plan is still sold,
      // and the operator finds it missing when it clones.
      const removed = await provider.sim<{ id: number }>('POST', '/faults', {
        method: 'GET',
        path: `^/nodes/${provider.pveNodes[0] ?? ''}/qemu/${String(DEBIAN_TEMPLATE)}/config$`,
        status: 500,
        message: `Configuration file 'nodes/${provider.pveNodes[0] ?? ''}/qemu-server/${String(DEBIAN_TEMPLATE)}.conf' does not exist`,
      });
      onTestFinished(async () => {
        await provider.sim('DELETE', `/faults/${String(removed.id)}`);
      });
      const ordered = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
        as: buyer,
        body: {
          hostname: 'db-1',
          planId,
          regionId,
          distro: 'DISTRO_DEBIAN_13',
          sshKeyIds: [buyer.keyId],
          idempotencyKey: randomUUID(),
        },
      });
      expect(ordered.status).toBe(201);
      const id = ordered.body.virtualMachine.id;
      const failed = await eventually(
        async () => {
          const vm = await vmOf(buyer, id);
          expect(vm.provisioningState, provider.output()).toBe('FAILED');
          return vm;
        },
        60_000,
        250,
      );
      // The customer reads a plain sentence; Proxmox's words (the missing template) are the provider's.
      expect(failed.statusMessage).not.toMatch(/9001|does not exist/);
      const seen = await t.call<{ virtualMachine: { failureDetail: string } }>(
        'GET',
        `/v1/provider/virtual-machines/${id}`,
        { as: seller },
      );
      expect(seen.body.virtualMachine.failureDetail).toMatch(/qemu-server\/9001\.conf' does not exist/);
      // What it held is released without waiting for the customer.
      await eventually(
        async () => {
          const claim = await t.cp.db
            .selectFrom('vm_claims')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirstOrThrow();
          expect(claim.status, provider.output()).toBe('RELEASED');
        },
        60_000,
        250,
      );
      expect((await vmOf(buyer, id)).provisioningState).toBe('FAILED');
      expect((await t.call('DELETE', `/v1/virtual-machines/${id}`, { as: buyer })).status).toBe(200);
      await eventually(
        async () => {
          expect((await vmOf(buyer, id)).provisioningState, provider.output()).toBe('DELETED');
        },
        60_000,
        250,
      );
      const claim = await t.cp.db
        .selectFrom('vm_claims')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(claim.status).toBe('RELEASED');
    },
  );

  /** Proxmox refuses every clone on `node` as it refuses a spec it cannot take there; until the test ends. */
  async function refuseClonesOn(node: string): Promise<void> {
    const fault = await provider.sim<{ id: number }>('POST', '/faults', {
      method: 'POST',
      path: `^/nodes/${node}/qemu/\\d+/clone$`,
      status: 400,
      message: 'Parameter verification failed.',
    });
    onTestFinished(async () => {
      await provider.sim('DELETE', `/faults/${String(fault.id)}`);
    });
  }

  async function orderUbuntu(buyer: Awaited<ReturnType<typeof customer>>, hostname: string): Promise<string> {
    const ordered = await t.call<{ virtualMachine: VmView }>('POST', '/v1/virtual-machines', {
      as: buyer,
      body: {
        hostname,
        planId,
        regionId,
        distro: 'DISTRO_UBUNTU_24_04',
        sshKeyIds: [buyer.keyId],
        idempotencyKey: randomUUID(),
      },
    });
    expect(ordered.status).toBe(201);
    return ordered.body.virtualMachine.id;
  }

  /** The VM's claim, and the addresses it holds now. */
  async function claimOf(
    id: string,
  ): Promise<{ status: string; nodeId: string | null; vmid: number; addresses: string[] }> {
    const claim = await t.cp.db
      .selectFrom('vm_claims')
      .select(['status', 'node_id', 'vmid'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const held = await t.cp.db
      .selectFrom('ip_allocations')
      .select('address')
      .where('claim_id', '=', id)
      .where('status', '=', 'IP_ALLOCATION_STATUS_ACTIVE')
      .execute();
    return {
      status: claim.status,
      nodeId: claim.node_id,
      vmid: claim.vmid,
      addresses: held.map((a) => a.address),
    };
  }

  it(
    'retries an order whose clone fails for good on its node once on another node, where it runs; the first node keeps nothing of it',
    { timeout: 120_000 },
    async () => {
      const [first, second] = provider.pveNodes;
      await refuseClonesOn(first ?? '');
      const buyer = await customer();
      const id = await orderUbuntu(buyer, 'retry-1');
      const seen: string[] = [];
      const running = await eventually(
        async () => {
          const vm = await vmOf(buyer, id);
          seen.push(vm.provisioningState);
          expect(vm.provisioningState, `${vm.statusMessage}\n${provider.output()}`).toBe('RUNNING');
          return vm;
        },
        60_000,
        250,
      );
      // The customer waited on one VM, with the same id throughout, and never saw it fail.
      expect(seen).not.toContain('FAILED');
      const spec = await t.cp.db
        .selectFrom('virtual_machines')
        .select(['spec', 'node_id', 'failed_node_ids'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const ordered = spec.spec as { vmid: number; node: string; network: { mac: string } };
      expect(ordered.node).toBe(second);
      expect(spec.node_id).toBe(nodeIds[1]);
      expect(spec.failed_node_ids).toEqual([nodeIds[0]]);
      // One guest, on the second node, with what the moved claim holds there.
      const guests = await provider.pveGet<{ name?: string; node: string; vmid: number }[]>(
        '/cluster/resources?type=vm',
      );
      expect(guests.filter((g) => g.name === `NR-${id}`).map((g) => [g.node, g.vmid])).toEqual([
        [second, ordered.vmid],
      ]);
      const config = await provider.pveGet<Record<string, unknown>>(
        `/nodes/${second ?? ''}/qemu/${String(ordered.vmid)}/config`,
      );
      expect(String(config.net0)).toContain(ordered.network.mac);
      expect(String(config.ipconfig0)).toContain(`ip=${running.ipv4 ?? ''}/24`);
      const claim = await claimOf(id);
      expect(claim).toEqual({
        status: 'ACTIVE',
        nodeId: nodeIds[1],
        vmid: ordered.vmid,
        addresses: [running.ipv4],
      });
      // The provider reads why the first node failed.
      const provided = await t.call<{ virtualMachine: { failureDetail: string } }>(
        'GET',
        `/v1/provider/virtual-machines/${id}`,
        { as: seller },
      );
      expect(provided.body.virtualMachine.failureDetail).toMatch(/Parameter verification failed/);

      expect((await t.call('DELETE', `/v1/virtual-machines/${id}`, { as: buyer })).status).toBe(200);
      await eventually(
        async () => {
          expect((await vmOf(buyer, id)).provisioningState, provider.output()).toBe('DELETED');
        },
        60_000,
        250,
      );
      expect((await claimOf(id)).status).toBe('RELEASED');
    },
  );

  it(
    'fails an order whose retry on another node fails too, and releases everything at once',
    { timeout: 120_000 },
    async () => {
      for (const node of provider.pveNodes) await refuseClonesOn(node);
      const buyer = await customer();
      const id = await orderUbuntu(buyer, 'retry-2');
      await eventually(
        async () => {
          const vm = await vmOf(buyer, id);
          expect(vm.provisioningState, provider.output()).toBe('FAILED');
          const claim = await claimOf(id);
          expect(claim.status, provider.output()).toBe('RELEASED');
          expect(claim.addresses).toEqual([]);
        },
        60_000,
        250,
      );
      const row = await t.cp.db
        .selectFrom('virtual_machines')
        .select('failed_node_ids')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.failed_node_ids).toEqual(nodeIds);
      // The provider reads what Proxmox said on each node, the first node's first.
      const provided = await t.call<{ virtualMachine: { failureDetail: string } }>(
        'GET',
        `/v1/provider/virtual-machines/${id}`,
        { as: seller },
      );
      expect(provided.body.virtualMachine.failureDetail.split('\n')).toEqual([
        'Parameter verification failed.',
        'Parameter verification failed.',
      ]);
      expect((await provider.guestNames()).filter((n) => n === `NR-${id}`)).toEqual([]);
      expect((await vmOf(buyer, id)).statusMessage).not.toMatch(/Parameter verification/);
    },
  );
});
