import { createHash, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from './sandbox.js';
import { api, freePort, pveGet, signIn, waitForVm } from './sandbox.test-support.js';

const START_TIMEOUT_MS = 90_000;
/** The order-to-Running journey: about a minute at most, as the README promises a newcomer. */
const JOURNEY_TIMEOUT_MS = 90_000;

describe('the sandbox', () => {
  let sandbox: Sandbox | undefined;
  const log: string[] = [];

  beforeAll(async () => {
    sandbox = await startSandbox({ log: (line) => log.push(line) });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await sandbox?.close();
  });

  function started(): Sandbox {
    if (sandbox === undefined) throw new Error(`the sandbox did not start:\n${log.join('\n')}`);
    return sandbox;
  }

  it('lets the provider sign in and see its agent peered, its platform and the three nodes online', async () => {
    const s = started();
    const { token, organizationId } = await signIn(s, s.credentials.provider);
    expect(organizationId).toBe(s.credentials.provider.organizationId);
    const { agent, platform, region } = s.seeded.provider;

    const agents = await api(s, 'GET', '/v1/agents', { token });
    expect(agents).toMatchObject({
      status: 200,
      body: {
        totalCount: 1,
        agents: [
          {
            agent: {
              id: agent.id,
              provisioned: true,
              inboundPeeringState: 'INBOUND_PEERING_STATE_READY',
              inboundPeeringError: '',
            },
          },
        ],
      },
    });

    const platforms = await api(s, 'GET', '/v1/platforms', { token });
    expect(platforms).toMatchObject({
      status: 200,
      body: {
        totalCount: 1,
        platforms: [
          {
            endpointUrl: s.pveUrl,
            driver: 'PLATFORM_DRIVER_PROXMOX',
            agentId: agent.id,
            agentProvisioned: true,
            // Reported by the sandbox's metrics forwarding before it was ready.
            serviceStatus: 'SERVICE_STATUS_ONLINE',
          },
        ],
      },
    });

    const nodes = await api(s, 'GET', '/v1/nodes', { token });
    expect(nodes).toMatchObject({ status: 200, body: { totalCount: 3 } });
    const listed = (nodes.body as { nodes: { node: { name: string; vmidSeed: number } }[] }).nodes.map(
      (n) => n.node,
    );
    expect(listed.map((n) => n.name).sort()).toEqual(['pve1', 'pve2', 'pve3']);
    for (const node of listed) {
      expect(node).toMatchObject({
        platformId: platform.id,
        regionId: region.id,
        vmStorageDestination: 'local-lvm',
        backupStorageDestination: 'local',
        backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
        serviceStatus: 'SERVICE_STATUS_ONLINE',
        // pve-sim's default nodes, as its metrics report them.
        inventory: {
          cpuCores: 16,
          memoryBytes: 64 * 1024 ** 3,
          storagePools: expect.arrayContaining([
            expect.objectContaining({ storageId: 'local-lvm' }),
          ]) as unknown,
        },
      });
    }
    // A Proxmox cluster shares one VMID space: no two nodes may hand out the same VMIDs.
    expect(new Set(listed.map((n) => n.vmidSeed)).size).toBe(3);
  });

  it("registers each node's Ubuntu and Debian templates with the provider's copies of the seed cloud-init templates", async () => {
    const s = started();
    const { token } = await signIn(s, s.credentials.provider);
    const templates = await api(s, 'GET', '/v1/vmtemplates?pageSize=100', { token });
    expect(templates.status).toBe(200);
    const listed = (
      templates.body as {
        vmTemplates: { nodeName: string; templateId: number; distro: string; cloudInitTemplateId: string }[];
      }
    ).vmTemplates;
    // pve-sim's default scenario: pve1 has 9000 (Ubuntu) and 9001 (Debian), pve2 the next two, and so on.
    expect(listed.map((t) => [t.nodeName, t.templateId, t.distro]).sort()).toEqual([
      ['pve1', 9000, 'DISTRO_UBUNTU_24_04'],
      ['pve1', 9001, 'DISTRO_DEBIAN_12'],
      ['pve2', 9002, 'DISTRO_UBUNTU_24_04'],
      ['pve2', 9003, 'DISTRO_DEBIAN_12'],
      ['pve3', 9004, 'DISTRO_UBUNTU_24_04'],
      ['pve3', 9005, 'DISTRO_DEBIAN_12'],
    ]);
    const cloudInit = await api(s, 'GET', '/v1/cloudinittemplates?filterIsTemplate=false', { token });
    const copies = (cloudInit.body as { cloudInitTemplates: { id: string; name: string }[] })
      .cloudInitTemplates;
    expect(copies.map((t) => t.name).sort()).toEqual(['Debian', 'Ubuntu']);
    const ubuntu = copies.find((t) => t.name === 'Ubuntu')?.id;
    expect(
      listed.filter((t) => t.distro === 'DISTRO_UBUNTU_24_04').map((t) => t.cloudInitTemplateId),
    ).toEqual([ubuntu, ubuntu, ubuntu]);
  });

  it('lists the three plans on the marketplace, anonymously, with both distros, capacity and IPv6', async () => {
    const s = started();
    const skus = await api(s, 'GET', '/v1/marketplace/plans');
    expect(skus.status).toBe(200);
    expect((skus.body as { skus: { planCode: string }[] }).skus.map((k) => k.planCode).sort()).toEqual(
      s.seeded.offer.plans.map((p) => p.code).sort(),
    );
    for (const plan of s.seeded.offer.plans) {
      const offer = await api(s, 'GET', `/v1/marketplace/plans/${plan.id}`);
      expect(offer).toMatchObject({
        status: 200,
        body: { offer: { planId: plan.id, hasCapacity: true, ipv6Available: true } },
      });
      expect((offer.body as { offer: { distros: string[] } }).offer.distros.sort()).toEqual([
        'DISTRO_DEBIAN_12',
        'DISTRO_UBUNTU_24_04',
      ]);
    }
  });

  it(
    'runs a VM the customer buys: control plane → kube-sim → operator → pve-sim, within a minute',
    async () => {
      const s = started();
      const customer = await signIn(s, s.credentials.customer);
      expect(customer.organizationId).toBe(s.credentials.customer.organizationId);
      const plan = s.seeded.offer.plans[0];
      const ordered = await api(s, 'POST', '/v1/virtual-machines', {
        token: customer.token,
        body: {
          hostname: 'first-vm',
          planId: plan?.id,
          regionId: s.seeded.provider.region.id,
          distro: 'DISTRO_DEBIAN_12',
          password: 'a-password-of-my-own',
          idempotencyKey: randomUUID(),
        },
      });
      expect(ordered.status, JSON.stringify(ordered.body)).toBe(201);
      const { id } = (ordered.body as { virtualMachine: { id: string } }).virtualMachine;
      const vm = await waitForVm(s, customer.token, id, 'RUNNING', 60_000);
      expect(vm.ipv4).toMatch(/^203\.0\.113\.\d+$/);
      expect(vm.ipv6).toMatch(/^2001:db8:100:/);

      // The guest as Proxmox sees it: ours, running, cloned from a Debian template.
      const provider = await signIn(s, s.credentials.provider);
      const seen = await api(s, 'GET', `/v1/provider/virtual-machines/${id}`, { token: provider.token });
      const { vmid, nodeId } = (seen.body as { virtualMachine: { vmid: number; nodeId: string } })
        .virtualMachine;
      const node = s.seeded.provider.nodes.find((n) => n.id === nodeId)?.name ?? '';
      const status = await pveGet(s, `/nodes/${node}/qemu/${String(vmid)}/status/current`);
      expect(JSON.parse(status.body)).toMatchObject({ data: { name: `NR-${id}`, status: 'running' } });
      // The operator's own lines are in the sandbox's one log stream.
      expect(log.some((line) => line.startsWith('[operator] ') && line.includes('clone started'))).toBe(true);
    },
    JOURNEY_TIMEOUT_MS,
  );

  it('publishes platform versions whose k3s is a file the CLI can download and check, anonymously', async () => {
    const s = started();
    const { status, body } = await api(s, 'GET', '/v1/platform-versions');
    expect(status).toBe(200);
    const k3s = (
      body as { components: { name: string; downloadUrl?: string; checksumSha256: string }[] }
    ).components.find((c) => c.name === 'k3s');
    const url = new URL(k3s?.downloadUrl ?? '');
    expect(url.protocol).toBe('file:');
    const artifact = await readFile(url);
    expect(artifact.toString('utf8')).toContain('simulated k3s');
    expect(createHash('sha256').update(artifact).digest('hex')).toBe(k3s?.checksumSha256);
  });

  it('lets staff sign in and find the provider verified', async () => {
    const s = started();
    const { token } = await signIn(s, s.credentials.staff);
    const organizations = await api(s, 'GET', '/v1/staff/organizations', { token });
    expect(organizations.status).toBe(200);
    expect((organizations.body as { organizations: unknown[] }).organizations).toContainEqual(
      expect.objectContaining({ id: s.credentials.provider.organizationId, isVerified: true }),
    );
  });

  it('serves the simulated Proxmox VE with the printed token and certificate fingerprint', async () => {
    const s = started();
    const answer = await pveGet(s, '/nodes');
    expect(answer.status).toBe(200);
    expect(answer.fingerprint).toBe(s.pveFingerprint);
    expect(JSON.parse(answer.body) as unknown).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({ node: 'pve1' })]) as unknown,
    });
  });
});

describe('a sandbox that cannot start', () => {
  it(
    'closes the simulators it had started',
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const pvePort = await freePort();
      const kubePort = await freePort();
      try {
        await expect(
          startSandbox({
            listen: { host: '127.0.0.1', port: (taken.address() as AddressInfo).port },
            pveListen: { host: '127.0.0.1', port: pvePort },
            kubeListen: { host: '127.0.0.1', port: kubePort },
            log: () => undefined,
          }),
        ).rejects.toMatchObject({ code: 'EADDRINUSE' });
        // Both ports are free again: nothing is left listening after the failed start.
        for (const port of [pvePort, kubePort]) {
          const again = createServer();
          await new Promise<void>((resolve, reject) => {
            again.once('error', reject);
            again.listen(port, '127.0.0.1', resolve);
          });
          await new Promise((resolve) => again.close(resolve));
        }
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
    START_TIMEOUT_MS,
  );
});
