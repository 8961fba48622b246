import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM, VMSnapshot } from '@noderings/kube';
import { CRD_API_VERSION, findCondition } from '@noderings/kube';
import type { ProxmoxClient } from '@noderings/proxmox';

import type { Env } from '../operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  proxmoxClientFor,
  startEnv,
} from '../operator-fixture.test-support.js';

let env: Env;
let pve: ProxmoxClient;

beforeAll(async () => {
  env = await startEnv();
  pve = proxmoxClientFor(env);
  await env.startOperator();
});

afterAll(async () => {
  await pve.close();
  await env.close();
});

let counter = 0;

async function createSnapshot(
  vmRef: string,
  snapshotName: string,
  namespace: string,
  extra: Partial<VMSnapshot['spec']> = {},
): Promise<VMSnapshot> {
  counter += 1;
  return env.kube.vmSnapshots.create({
    apiVersion: CRD_API_VERSION,
    kind: 'VMSnapshot',
    metadata: { name: `snap-${counter}`, namespace },
    spec: { vmRef, snapshotName, description: 'before the upgrade', ...extra },
  });
}

const refOf = (snap: VMSnapshot) => ({
  namespace: snap.metadata?.namespace ?? '',
  name: snap.metadata?.name ?? '',
});

async function until(snap: VMSnapshot, check: (snap: VMSnapshot) => void): Promise<VMSnapshot> {
  return eventually(async () => {
    const now = await env.kube.vmSnapshots.get(refOf(snap));
    check(now);
    return now;
  });
}

async function snapshotNames(vmid: number): Promise<string[]> {
  return (await pve.getSnapshots('pve1', vmid)).map((s) => s.name);
}

describe('VMSnapshot', () => {
  it('waits for its VM, snapshots it, rolls back on request and deletes the snapshot', async () => {
    const uuid = '0dd5a7e1-3c2b-4f6a-9e8d-7c6b5a4f3e2d';
    const namespace = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f-operator';
    const snap = await createSnapshot(`nr-${uuid}`, 'before-upgrade', namespace);
    await until(snap, (s) => {
      expect(s.status?.phase).toBe('Pending');
      expect(findCondition(s.status?.conditions, 'Ready')?.reason).toBe('VmNotFound');
    });

    const vm = await createVm(env, (v) => {
      v.spec.vmId = uuid;
      v.metadata = { ...v.metadata, name: `nr-${uuid}` };
    });
    const vmid = vm.spec.vmid;
    const ready = await until(snap, (s) => {
      expect(s.status?.phase).toBe('Ready');
    });
    expect(findCondition(ready.status?.conditions, 'Ready')?.status).toBe('True');
    expect(ready.metadata?.finalizers).toContain('vm.noderings.com/proxmox-snapshot');
    expect(ready.status?.taskRef).toBeUndefined();
    const made = (await pve.getSnapshots('pve1', vmid)).find((s) => s.name === 'before-upgrade');
    expect(made?.description).toBe('before the upgrade');
    expect((await pve.getVmConfig('pve1', vmid)).cores).toBe(2);

    await pve.setVmConfig('pve1', vmid, { cores: 4 });
    expect((await pve.getVmConfig('pve1', vmid)).cores).toBe(4);
    const requestedAt = new Date().toISOString();
    await env.kube.vmSnapshots.mergePatch(refOf(snap), { spec: { rollbackRequestedAt: requestedAt } });
    await until(snap, (s) => {
      expect(s.status?.lastRollbackAt).toBe(requestedAt);
      expect(s.status?.phase).toBe('Ready');
    });
    expect((await pve.getVmConfig('pve1', vmid)).cores).toBe(2);
    // Proxmox's rollback stops the guest; the ProxmoxVM wants it running, so it runs again.
    expect((await pve.getVmStatus('pve1', vmid)).status).toBe('running');
    expect(
      await callsMatching(env, 'POST', new RegExp(`/qemu/${vmid}/snapshot/before-upgrade/rollback$`)),
    ).toHaveLength(1);

    await env.kube.vmSnapshots.delete(refOf(snap));
    await eventually(async () => {
      expect(await env.kube.vmSnapshots.find(refOf(snap))).toBeUndefined();
    });
    expect(await snapshotNames(vmid)).toEqual(['current']);
    expect((await pve.getVmConfig('pve1', vmid)).name).toBe(`NR-${uuid}`);
  });

  it('reports a snapshot deleted behind its back instead of recreating it', async () => {
    const vm = await createVm(env);
    const snap = await createSnapshot(vm.metadata?.name ?? '', 'daily', vm.metadata?.namespace ?? '');
    await until(snap, (s) => {
      expect(s.status?.phase).toBe('Ready');
    });
    await pve.waitForTask('pve1', await pve.deleteSnapshot('pve1', vm.spec.vmid, 'daily'));
    // Any change of the object makes the controller look again.
    await env.kube.vmSnapshots.mergePatch(refOf(snap), { metadata: { labels: { touched: 'yes' } } });
    const missing = await until(snap, (s) => {
      expect(findCondition(s.status?.conditions, 'Ready')?.reason).toBe('SnapshotMissing');
    });
    expect(missing.status?.phase).toBe('Failed');
    expect(await snapshotNames(vm.spec.vmid)).toEqual(['current']);

    await env.kube.vmSnapshots.delete(refOf(snap));
    await eventually(async () => {
      expect(await env.kube.vmSnapshots.find(refOf(snap))).toBeUndefined();
    });
  });

  it('never touches a guest that is not ours (lab-1, VMID 100)', async () => {
    const before = await pve.getSnapshots('pve1', 100);
    const configBefore = await pve.getVmConfig('pve1', 100);
    const vm: ProxmoxVM = await createVm(env, (v) => {
      v.spec.vmid = 100;
    });
    const snap = await createSnapshot(vm.metadata?.name ?? '', 'intruder', vm.metadata?.namespace ?? '');
    const failed = await until(snap, (s) => {
      expect(findCondition(s.status?.conditions, 'Ready')?.reason).toBe('VmidConflict');
    });
    expect(failed.status?.phase).toBe('Failed');

    await env.kube.vmSnapshots.delete(refOf(snap));
    await eventually(async () => {
      expect(await env.kube.vmSnapshots.find(refOf(snap))).toBeUndefined();
    });
    expect(await pve.getSnapshots('pve1', 100)).toEqual(before);
    expect(await pve.getVmConfig('pve1', 100)).toEqual(configBefore);
    expect(await callsMatching(env, 'POST', /\/qemu\/100\/snapshot/)).toEqual([]);
    expect(await callsMatching(env, 'DELETE', /\/qemu\/100\/snapshot/)).toEqual([]);
  });

  it('does not roll back for a request older than the snapshot itself', async () => {
    const vm = await createVm(env);
    const requestedAt = new Date().toISOString();
    const snap = await createSnapshot(vm.metadata?.name ?? '', 'fresh', vm.metadata?.namespace ?? '', {
      rollbackRequestedAt: requestedAt,
    });
    const ready = await until(snap, (s) => {
      expect(s.status?.phase).toBe('Ready');
    });
    expect(ready.status?.lastRollbackAt).toBe(requestedAt);
    expect(
      await callsMatching(env, 'POST', new RegExp(`/qemu/${vm.spec.vmid}/snapshot/fresh/rollback$`)),
    ).toEqual([]);
  });

  it('fails a name Proxmox reserves, without calling Proxmox to create it', async () => {
    const vm = await createVm(env);
    const snap = await createSnapshot(vm.metadata?.name ?? '', 'current', vm.metadata?.namespace ?? '');
    const failed = await until(snap, (s) => {
      expect(findCondition(s.status?.conditions, 'Ready')?.reason).toBe('InvalidSnapshotName');
    });
    expect(failed.status?.phase).toBe('Failed');
    expect(failed.status?.message).toContain('reserved');
    expect(await callsMatching(env, 'POST', new RegExp(`/qemu/${vm.spec.vmid}/snapshot`))).toEqual([]);
  });
});
