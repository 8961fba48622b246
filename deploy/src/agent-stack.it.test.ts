import { startKubeSim, type KubeSim } from '@noderings/kube-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { renderAgentStack } from './index.js';
import { apply, call, canI, served, tokenFor } from './kube-sim-client.test-support.js';

const AGENT = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f';
const WATCH = `${AGENT}-operator`;
const objects = renderAgentStack({ agentId: AGENT, image: 'registry.example/noderings/operator:1.0.0' });

const VMS = `/apis/vm.noderings.com/v1alpha1/namespaces/${WATCH}/proxmoxvms`;

describe('the agent stack on a cluster', () => {
  let sim: KubeSim;
  let operator: string;
  let controlPlane: string;

  beforeAll(async () => {
    sim = await startKubeSim({ listen: '127.0.0.1:0' });
    await call(sim, sim.adminToken, 'POST', '/api/v1/namespaces', { metadata: { name: 'other' } });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('accepts every object but the Deployment, which kube-sim does not serve', async () => {
    const statuses: string[] = [];
    for (const object of objects.filter((o) => o.kind !== 'Deployment'))
      statuses.push(
        `${object.kind ?? ''}/${object.metadata?.name ?? ''} ${(await apply(sim, object)).status}`,
      );
    expect(statuses.filter((s) => !/ 20[01]$/.test(s))).toEqual([]);
    expect(objects.filter((o) => !served(o)).map((o) => o.kind)).toEqual(['Deployment']);
    operator = await tokenFor(sim, 'proxmox-system', 'proxmox-operator');
    controlPlane = await tokenFor(sim, WATCH, 'noderings-control-plane');
  });

  it('lets the operator reconcile in the watch namespace and read only its two namespaces’ Secrets', async () => {
    expect((await call(sim, operator, 'GET', VMS)).status).toBe(200);
    expect((await call(sim, operator, 'GET', '/api/v1/namespaces/proxmox-system/secrets')).status).toBe(200);
    expect((await call(sim, operator, 'GET', `/api/v1/namespaces/${WATCH}/secrets`)).status).toBe(200);
    expect((await call(sim, operator, 'GET', '/api/v1/namespaces/other/secrets')).status).toBe(403);
    expect((await call(sim, operator, 'GET', '/api/v1/secrets')).status).toBe(403);
    expect(
      await canI(sim, operator, {
        verb: 'update',
        resource: 'leases',
        group: 'coordination.k8s.io',
        namespace: 'proxmox-system',
      }),
    ).toBe(true);
    expect(
      await canI(sim, operator, {
        verb: 'create',
        resource: 'proxmoxvms',
        group: 'vm.noderings.com',
        namespace: WATCH,
      }),
    ).toBe(false);
    expect(
      await canI(sim, operator, {
        verb: 'create',
        resource: 'vmbackups',
        group: 'vm.noderings.com',
        namespace: WATCH,
      }),
    ).toBe(true);
    expect(
      await canI(sim, operator, { verb: 'create', resource: 'secrets', namespace: 'proxmox-system' }),
    ).toBe(false);
  });

  it('lets the control plane order VMs and write cloud-init Secrets, never read the Proxmox token', async () => {
    const secret = {
      metadata: { name: 'nr-5a1e0c3b-2d4f-4e6a-8b9c-000000000001-cloudinit', namespace: WATCH },
      stringData: { 'user-data': '#cloud-config\n' },
    };
    expect(
      (await call(sim, controlPlane, 'POST', `/api/v1/namespaces/${WATCH}/secrets`, secret)).status,
    ).toBe(201);
    const vm = {
      apiVersion: 'vm.noderings.com/v1alpha1',
      kind: 'ProxmoxVM',
      metadata: { name: 'nr-5a1e0c3b-2d4f-4e6a-8b9c-000000000001', namespace: WATCH },
      spec: {
        vmId: '5a1e0c3b-2d4f-4e6a-8b9c-000000000001',
        node: 'pve1',
        vmid: 1042,
        templateVmid: 9000,
        cpu: { cores: 1 },
        memoryMiB: 1024,
        disk: { storage: 'local-lvm', sizeGiB: 10 },
        network: { mac: 'BC:24:11:00:00:2A', ipv4: { address: '203.0.113.10/24', gateway: '203.0.113.1' } },
        cloudInitSecretRef: 'nr-5a1e0c3b-2d4f-4e6a-8b9c-000000000001-cloudinit',
      },
    };
    expect((await call(sim, controlPlane, 'POST', VMS, vm)).status).toBe(201);
    expect((await call(sim, controlPlane, 'GET', '/api/v1/namespaces/proxmox-system/secrets')).status).toBe(
      403,
    );
    expect((await call(sim, controlPlane, 'GET', '/api/v1/secrets')).status).toBe(403);
    expect(
      await canI(sim, controlPlane, { verb: 'get', resource: 'secrets', namespace: 'proxmox-system' }),
    ).toBe(false);
    expect(
      await canI(sim, controlPlane, {
        verb: 'list',
        resource: 'proxmoxvms',
        group: 'vm.noderings.com',
        namespace: 'other',
      }),
    ).toBe(false);
  });
});
