import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProxmoxVM } from './crd-types.js';
import {
  KubeAlreadyExistsError,
  KubeConflictError,
  KubeInvalidError,
  KubeNotFoundError,
  KubeUnauthorizedError,
} from './kube-api-error.js';
import { KubeClient } from './kube-client.js';
import type { Fixture } from './kube-sim-fixture.test-support.js';
import { proxmoxVM, startFixture } from './kube-sim-fixture.test-support.js';
import { refOf } from './object-key.js';

let fx: Fixture;

beforeAll(async () => {
  fx = await startFixture();
});
afterAll(async () => {
  await fx.close();
});

describe('KubeClient against kube-sim', () => {
  it('serves the six CRDs it installed', async () => {
    const crds = await fx.client.customResourceDefinitions.list();
    expect(crds.items.map((c) => c.metadata?.name).sort()).toEqual([
      'firewallrulesets.vm.noderings.com',
      'proxmoxinventories.vm.noderings.com',
      'proxmoxvms.vm.noderings.com',
      'vmbackups.vm.noderings.com',
      'vmsnapshots.vm.noderings.com',
      'vncrequests.vm.noderings.com',
    ]);
  });

  it('creates, reads and lists a ProxmoxVM, with the schema defaults filled in', async () => {
    const order = proxmoxVM(fx.namespace);
    const created = await fx.client.proxmoxVMs.create(order);
    expect(created.metadata?.uid).toBeTruthy();
    const read = await fx.client.proxmoxVMs.get(refOf(order));
    expect(read.spec).toMatchObject({
      ...order.spec,
      instance: 'default',
      powerState: 'Running',
      smtpBlocked: true,
      network: {
        ...order.spec.network,
        bridge: 'vmbr0',
        device: 'net0',
        model: 'virtio',
        vlan: 0,
        rateLimitMBps: 0,
      },
    });
    const list = await fx.client.proxmoxVMs.list(fx.namespace);
    expect(list.items.map((i) => i.metadata?.name)).toContain(order.metadata?.name);
  });

  it('merge-patches the spec and server-side-applies fields', async () => {
    const order = proxmoxVM(fx.namespace);
    await fx.client.proxmoxVMs.create(order);
    const patched = await fx.client.proxmoxVMs.mergePatch(refOf(order), { spec: { powerState: 'Stopped' } });
    expect(patched.spec.powerState).toBe('Stopped');
    expect(patched.spec.memoryMiB).toBe(order.spec.memoryMiB);

    const applied = await fx.client.proxmoxVMs.apply(
      { ...order, spec: { ...order.spec, memoryMiB: 4096 } },
      { fieldManager: 'noderings-control-plane', force: true },
    );
    expect(applied.spec.memoryMiB).toBe(4096);
  });

  it('writes status only through the status subresource', async () => {
    const order = proxmoxVM(fx.namespace);
    const created = await fx.client.proxmoxVMs.create(order);
    const ignored = await fx.client.proxmoxVMs.replace({ ...created, status: { phase: 'Running' } });
    expect(ignored.status?.phase).toBeUndefined();
    const withStatus = await fx.client.proxmoxVMs.replaceStatus({
      ...ignored,
      status: { phase: 'Provisioning', vmid: 1042 },
    });
    expect(withStatus.status).toEqual({ phase: 'Provisioning', vmid: 1042 });
    const patched = await fx.client.proxmoxVMs.mergePatchStatus(refOf(order), {
      status: { phase: 'Running' },
    });
    expect(patched.status).toEqual({ phase: 'Running', vmid: 1042 });
  });

  it('maps failures to the error catalogue', async () => {
    const order = proxmoxVM(fx.namespace);
    const created = await fx.client.proxmoxVMs.create(order);
    await expect(fx.client.proxmoxVMs.create(order)).rejects.toBeInstanceOf(KubeAlreadyExistsError);
    await expect(
      fx.client.proxmoxVMs.get({ namespace: fx.namespace, name: 'nr-missing' }),
    ).rejects.toBeInstanceOf(KubeNotFoundError);
    await fx.client.proxmoxVMs.mergePatch(refOf(order), { metadata: { labels: { touched: 'yes' } } });
    await expect(fx.client.proxmoxVMs.replace(created)).rejects.toBeInstanceOf(KubeConflictError);
  });

  it('reports the fields of an invalid object', async () => {
    const order = proxmoxVM(fx.namespace);
    const bad: ProxmoxVM = {
      ...order,
      spec: { ...order.spec, network: { ...order.spec.network, vlan: 5000, mac: 'bc:24:11:00:00:01' } },
    };
    const error = await fx.client.proxmoxVMs.create(bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(KubeInvalidError);
    const fields = (error as KubeInvalidError).causes.map((c) => c.field);
    expect(fields).toEqual(expect.arrayContaining(['spec.network.vlan', 'spec.network.mac']));
  });

  it('reports a refused token as Unauthorized', async () => {
    const path = `${process.env.TMPDIR ?? '/tmp'}/kube-client-it-${process.pid}.kubeconfig`;
    await fx.sim.writeKubeconfig(path, { user: { token: 'not-a-valid-token' } });
    const stranger = new KubeClient({ kubeconfigPath: path });
    await expect(stranger.proxmoxVMs.list(fx.namespace)).rejects.toBeInstanceOf(KubeUnauthorizedError);
  });

  it('stores a cloud-init Secret and deletes objects', async () => {
    const ref = { namespace: fx.namespace, name: 'nr-example-cloudinit' };
    await fx.client.secrets.create({ metadata: ref, stringData: { 'user-data': '#cloud-config\n' } });
    const secret = await fx.client.secrets.get(ref);
    expect(Buffer.from(secret.data?.['user-data'] ?? '', 'base64').toString()).toBe('#cloud-config\n');
    await fx.client.secrets.delete(ref);
    expect(await fx.client.secrets.find(ref)).toBeUndefined();
  });
});
