import { randomUUID } from 'node:crypto';

import { SEED_CLOUD_INIT_TEMPLATES } from '@noderings/domain';
import type { ProxmoxInventoryNode } from '@noderings/kube';
import { CRD_API_VERSION } from '@noderings/kube';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { startAgentClusterSim, type AgentClusterSim } from '../dispatch/dispatch.test-support.js';
import { createRegion, requiredNodeFields } from '../nodes/node.test-support.js';
import { addNetwork, reportNode } from '../placement/placement.test-support.js';
import { planBody } from '../plans/plan.test-support.js';

interface Check {
  code: string;
  passed: boolean;
  note: string;
  subChecks: Check[];
}

interface PreflightView {
  marketplaceReady: boolean;
  infrastructure: { agent: { platform: { node: { name: string; checks: Check[] } } } }[];
}

const SEED_ID = SEED_CLOUD_INIT_TEMPLATES[0]?.id ?? '';
const REPORTED: ProxmoxInventoryNode[] = [
  { name: 'pve1', online: true, templateVmids: [9000, 9001] },
  { name: 'pve2', online: true, templateVmids: [9002] },
];

function violation(response: ApiResponse): { field: string; description: string }[] {
  const details = response.body.details as { fieldViolations: { field: string; description: string }[] }[];
  return details.flatMap((d) => d.fieldViolations);
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.each(DATABASE_KINDS)(
  "node and template checks against Proxmox's report on the %s database",
  (kind) => {
    let clusters: AgentClusterSim;
    let t: TestControlPlane;
    let provider: Caller & { organizationId: string };
    let regionId: string;

    beforeAll(async () => {
      clusters = await startAgentClusterSim();
      t = await startTestControlPlane(kind, { proxmoxInventoryIntervalSeconds: 1 });
      provider = await t.verifiedProvider();
      regionId = await createRegion(t, provider);
    });
    afterAll(async () => {
      try {
        await t.close();
      } finally {
        await clusters.close();
      }
    });

    /** An installed, peered agent (its kubeconfig uploaded) and a platform it serves. */
    async function peeredPlatform(): Promise<{ agentId: string; platformId: string }> {
      const created = await t.call<{ agent: { id: string } }>('POST', '/v1/agents', {
        as: provider,
        body: {
          name: `agent ${randomUUID()}`,
          agentPublicIp: '198.51.100.20',
          gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
          hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
        },
      });
      expect(created.status).toBe(201);
      const agentId = created.body.agent.id;
      const uploaded = await t.call('POST', `/v1/agents/${agentId}:uploadInboundPeeringConfig`, {
        as: provider,
        body: { kubeconfig: await clusters.peerAgent(agentId) },
      });
      expect(uploaded.status).toBe(200);
      await t.cp.db
        .updateTable('agents')
        .set({ provisioned: true, service_status: 'SERVICE_STATUS_ONLINE' })
        .where('id', '=', agentId)
        .execute();
      const platform = await t.cp.db
        .insertInto('platforms')
        .values({
          organization_id: provider.organizationId,
          name: `platform ${randomUUID()}`,
          endpoint_url: `https://${randomUUID()}.pve.test:8006`,
          driver: 'PLATFORM_DRIVER_PROXMOX',
          agent_id: agentId,
          service_status: 'SERVICE_STATUS_ONLINE',
          updated_at: new Date(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { agentId, platformId: platform.id };
    }

    /** What the agent's operator writes: the ProxmoxInventory of instance `default`, with its status. */
    async function operatorReports(agentId: string, nodes: ProxmoxInventoryNode[]): Promise<void> {
      const ref = { namespace: `${agentId}-operator`, name: 'default' };
      const existing =
        (await clusters.admin.proxmoxInventories.find(ref)) ??
        (await clusters.admin.proxmoxInventories.create({
          apiVersion: CRD_API_VERSION,
          kind: 'ProxmoxInventory',
          metadata: ref,
          spec: { instance: 'default' },
        }));
      await clusters.admin.proxmoxInventories.replaceStatus({
        ...existing,
        status: { phase: 'Ready', observedAt: new Date().toISOString(), nodes },
      });
    }

    /** Waits until the control plane has read the agent's inventory (a report, or why there is none). */

    async function read(agentId: string, reported: boolean): Promise<void> {
      const row = await until(
        () =>
          t.cp.db

            .selectFrom('proxmox_inventories')

            .select(['nodes', 'read_error'])

            .where('agent_id', '=', agentId)

            .executeTakeFirst(),

        (r) => r !== undefined && (r.nodes !== null) === reported,
      );

      expect(row).toBeDefined();
    }

    function createNode(platformId: string, name: string) {
      return t.call<{ node: { id: string } }>('POST', '/v1/node', {
        as: provider,
        body: requiredNodeFields(platformId, regionId, name),
      });
    }

    async function nodeCount(): Promise<number> {
      const rows = await t.cp.db
        .selectFrom('nodes')
        .select('id')
        .where('organization_id', '=', provider.organizationId)
        .execute();
      return rows.length;
    }

    async function cloudInitTemplate(): Promise<string> {
      const copy = await t.call<{ cloudInitTemplate: { id: string } }>('POST', '/v1/cloudinittemplate', {
        as: provider,
        body: { name: `ubuntu ${randomUUID()}`, copyFromId: SEED_ID },
      });
      expect(copy.status).toBe(201);
      return copy.body.cloudInitTemplate.id;
    }

    function createTemplate(nodeId: string, cloudInitTemplateId: string, templateId: number) {
      return t.call<{ vmTemplate: { id: string } }>('POST', '/v1/vmtemplate', {
        as: provider,
        body: {
          name: `ubuntu ${templateId}`,
          distro: 'DISTRO_UBUNTU_24_04',
          templateId,
          nodeId,
          cloudInitTemplateId,
        },
      });
    }

    async function preflightNodeChecks(planId: string): Promise<Check[]> {
      const response = await t.call<{ plans: PreflightView[] }>(
        'GET',
        `/v1/provider/preflight-checks?planId=${planId}`,
        { as: provider },
      );
      expect(response.status).toBe(200);
      return response.body.plans[0]?.infrastructure[0]?.agent.platform.node.checks ?? [];
    }

    let networks = 0;

    /** A public plan on one node of the platform, with a template 9000 and everything else an order needs. */
    async function planOn(platformId: string, nodeName: string): Promise<string> {
      const node = await createNode(platformId, nodeName);
      expect(node.status).toBe(201);
      const nodeId = node.body.node.id;
      networks += 1;
      const networkId = await addNetwork(t, provider, {
        ipv4: { cidr: `10.0.${networks}.0/24`, gateway: `10.0.${networks}.1` },
      });
      await t.call('POST', `/v1/ipam/networks/${networkId}/assign-node`, {
        as: provider,
        body: { nodeIds: [nodeId] },
      });
      await reportNode(t, nodeId, { cpuCores: 8, memoryGib: 32, storageGib: 500 });
      expect((await createTemplate(nodeId, await cloudInitTemplate(), 9000)).status).toBe(201);
      const plan = await t.call<{ plan: { id: string } }>('POST', '/v1/plans', {
        as: provider,
        body: planBody(regionId, [nodeId], { isPublic: true, diskGb: 40 + networks * 10 }),
      });
      expect(plan.status).toBe(201);
      return plan.body.plan.id;
    }

    const onProxmox = (checks: Check[]) =>
      checks
        .filter((c) => c.code.endsWith('_ON_PROXMOX'))
        .map((c) => ({ code: c.code, passed: c.passed, note: c.note }));

    it('refuses a node name Proxmox does not have with 400 naming the nodes it has, and writes nothing', async () => {
      const { agentId, platformId } = await peeredPlatform();
      await operatorReports(agentId, REPORTED);
      await read(agentId, true);
      const before = await nodeCount();
      const refused = await createNode(platformId, 'pve9');
      expect(refused.status).toBe(400);
      expect(violation(refused)).toEqual([
        { field: 'name', description: 'Proxmox has no node pve9; its nodes: pve1, pve2.' },
      ]);
      expect(await nodeCount()).toBe(before);
      expect((await createNode(platformId, 'pve1')).status).toBe(201);
    });

    it('refuses a template VMID that is absent, or no template, on the node, naming the templates there', async () => {
      const { agentId, platformId } = await peeredPlatform();
      await operatorReports(agentId, REPORTED);
      await read(agentId, true);
      const node = await createNode(platformId, 'pve1');
      expect(node.status).toBe(201);
      const nodeId = node.body.node.id;
      const cloudInit = await cloudInitTemplate();
      for (const vmid of [424242, 101, 9002]) {
        const refused = await createTemplate(nodeId, cloudInit, vmid);
        expect(refused.status).toBe(400);
        expect(violation(refused)).toEqual([
          {
            field: 'templateId',
            description: `VMID ${vmid} is not a template on pve1; templates there: 9000, 9001.`,
          },
        ]);
      }
      const count = await t.cp.db
        .selectFrom('vm_templates')
        .select('id')
        .where('node_id', '=', nodeId)
        .execute();
      expect(count).toEqual([]);
      const created = await createTemplate(nodeId, cloudInit, 9000);
      expect(created.status).toBe(201);
      const patched = await t.call('PATCH', `/v1/vmtemplate/${created.body.vmTemplate.id}`, {
        as: provider,
        body: { templateId: 424242 },
      });
      expect(patched.status).toBe(400);
      expect(violation(patched)[0]?.field).toBe('templateId');
    });

    it('fails preflight for a node Proxmox stopped reporting, naming what it has', async () => {
      const { agentId, platformId } = await peeredPlatform();
      await operatorReports(agentId, REPORTED);
      await read(agentId, true);
      const planId = await planOn(platformId, 'pve1');
      expect(onProxmox(await preflightNodeChecks(planId)).map((c) => c.passed)).toEqual([true, true]);

      // The node was renamed in Proxmox: the report no longer has it.
      await operatorReports(agentId, [{ name: 'pve2', online: true, templateVmids: [9002] }]);
      const checks = await until(
        () => preflightNodeChecks(planId),
        (c) => c.some((check) => check.code === 'NODE_ON_PROXMOX' && !check.passed),
      );
      expect(onProxmox(checks)).toEqual([
        {
          code: 'NODE_ON_PROXMOX',
          passed: false,
          note: 'Proxmox has no node pve1; its nodes: pve2. Rename the node to the one it is.',
        },
        { code: 'NODE_TEMPLATES_ON_PROXMOX', passed: false, note: 'Not checked: Proxmox has no node pve1.' },
      ]);
    });

    it('says plainly that nothing was checked before the operator has reported, rather than passing', async () => {
      const { agentId, platformId } = await peeredPlatform();
      await read(agentId, false);
      // Nothing to check against yet, so the form takes the name; preflight does not pass it.
      const planId = await planOn(platformId, 'pve9');
      const unchecked =
        "Not checked: Proxmox has not reported its nodes and templates yet (the agent's operator has not reported Proxmox's nodes yet).";
      expect(onProxmox(await preflightNodeChecks(planId))).toEqual([
        { code: 'NODE_ON_PROXMOX', passed: false, note: unchecked },
        { code: 'NODE_TEMPLATES_ON_PROXMOX', passed: false, note: unchecked },
      ]);
    });
  },
);
