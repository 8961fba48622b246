import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM, VMBackup } from '@noderings/kube';
import { CRD_API_VERSION, findCondition, keyOf, parseObjectKey } from '@noderings/kube';
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
  await env.startOperator({ lockWaitMs: LOCK_WAIT_MS });
});

/** How long this file's operator waits for a lock of ours before failing a backup. */
const LOCK_WAIT_MS = 4_000;

afterAll(async () => {
  await pve.close();
  await env.close();
});

const refOf = (obj: ProxmoxVM | VMBackup) => parseObjectKey(keyOf(obj));

async function runningVm(patch?: (vm: ProxmoxVM) => void): Promise<ProxmoxVM> {
  const vm = await createVm(env, patch);
  return eventually(async () => {
    const now = await env.kube.proxmoxVMs.get(refOf(vm));
    expect(now.status?.phase).toBe('Running');
    return now;
  });
}

let backups = 0;

async function createBackup(vm: ProxmoxVM): Promise<VMBackup> {
  backups += 1;
  return env.kube.vmBackups.create({
    apiVersion: CRD_API_VERSION,
    kind: 'VMBackup',
    metadata: { name: `manual-${backups}`, namespace: vm.metadata?.namespace },
    spec: { vmRef: vm.metadata?.name ?? '', storage: 'local', compression: 'zstd' },
  });
}

async function until(backup: VMBackup, check: (b: VMBackup) => void): Promise<VMBackup> {
  return eventually(async () => {
    const now = await env.kube.vmBackups.get(refOf(backup));
    check(now);
    return now;
  });
}

async function completed(backup: VMBackup): Promise<VMBackup> {
  return until(backup, (b) => {
    expect(b.status?.phase).toBe('Completed');
  });
}

async function archivesOf(vmid: number): Promise<string[]> {
  return (await pve.getStorageContent('pve1', 'local', { content: 'backup', vmid })).map((v) => v.volid);
}

describe('VMBackup', () => {
  it('backs the guest up once, records the archive, and deletes it with the object', async () => {
    const vm = await runningVm();
    const backup = await completed(await createBackup(vm));
    const { status } = backup;
    expect(status?.volid).toMatch(new RegExp(`^local:backup/vzdump-qemu-${vm.spec.vmid}-.*\\.vma\\.zst$`));
    expect(status?.sizeBytes).toBeGreaterThan(0);
    expect(Date.parse(status?.finishedAt ?? '')).toBeGreaterThanOrEqual(Date.parse(status?.startedAt ?? ''));
    expect(status?.taskRef).toBeUndefined();
    expect(findCondition(status?.conditions, 'Ready')).toMatchObject({ status: 'True', reason: 'Completed' });
    expect(backup.metadata?.finalizers).toContain('vm.noderings.com/proxmox-backup');
    const listed = await pve.getStorageContent('pve1', 'local', { content: 'backup', vmid: vm.spec.vmid });
    expect(listed).toEqual([expect.objectContaining({ volid: status?.volid, size: status?.sizeBytes })]);
    expect(await callsMatching(env, 'POST', /\/vzdump$/)).toHaveLength(1);

    await env.kube.vmBackups.delete(refOf(backup));
    await eventually(async () => {
      expect(await env.kube.vmBackups.find(refOf(backup))).toBeUndefined();
    });
    expect(await archivesOf(vm.spec.vmid)).toEqual([]);
  });

  it('restores the configuration with the same MAC, stopping and starting the guest', async () => {
    const vm = await runningVm();
    const { vmid } = vm.spec;
    const original = await pve.getVmConfig('pve1', vmid);
    const backup = await completed(await createBackup(vm));
    await pve.setVmConfig('pve1', vmid, { cores: 8, tags: ['changed'] });
    expect((await pve.getVmConfig('pve1', vmid)).cores).toBe(8);

    const requestedAt = new Date().toISOString();
    await env.kube.vmBackups.mergePatch(refOf(backup), { spec: { restore: { requestedAt, start: true } } });
    const restored = await until(backup, (b) => {
      expect(b.status?.restore?.phase).toBe('Completed');
    });
    expect(restored.status?.restore?.requestedAt).toBe(requestedAt);
    expect(findCondition(restored.status?.conditions, 'Restored')?.status).toBe('True');
    const config = await pve.getVmConfig('pve1', vmid);
    expect(config.cores).toBe(original.cores);
    expect(config.tags).toBe(original.tags);
    expect(config.net0).toBe(original.net0);
    expect(String(config.net0)).toContain(vm.spec.network.mac);
    expect(config.name).toBe(`NR-${vm.spec.vmId}`);
    expect((await pve.getVmStatus('pve1', vmid)).status).toBe('running');
    // The ProxmoxVM controller may start the guest again between the stop and the restore; the
    // restorer then stops it and tries once more, so these are at least one, not exactly one.
    expect(
      (await callsMatching(env, 'POST', new RegExp(`/qemu/${vmid}/status/stop$`))).length,
    ).toBeGreaterThanOrEqual(1);
    const firstRestores = (await callsMatching(env, 'POST', /\/nodes\/pve1\/qemu$/)).length;
    expect(firstRestores).toBeGreaterThanOrEqual(1);

    // The same request is served once; a newer one restores again, here leaving the guest stopped.
    const again = new Date(Date.parse(requestedAt) + 1000).toISOString();
    await env.kube.vmBackups.mergePatch(refOf(backup), {
      spec: { restore: { requestedAt: again, start: false } },
    });
    await until(backup, (b) => {
      expect(b.status?.restore).toMatchObject({ phase: 'Completed', requestedAt: again });
    });
    expect((await callsMatching(env, 'POST', /\/nodes\/pve1\/qemu$/)).length).toBeGreaterThan(firstRestores);
    expect((await pve.getVmStatus('pve1', vmid)).status).toBe('stopped');
  });

  it('records why a backup task failed', async () => {
    const vm = await runningVm();
    await env.sim('POST', '/sim/faults', {
      method: 'POST',
      path: '/vzdump$',
      taskError: 'job errors',
      count: 1,
    });
    try {
      const failed = await until(await createBackup(vm), (b) => {
        expect(b.status?.phase).toBe('Failed');
      });
      expect(failed.status?.message).toContain('job errors');
      expect(findCondition(failed.status?.conditions, 'Ready')).toMatchObject({
        status: 'False',
        reason: 'BackupFailed',
      });
      expect(await archivesOf(vm.spec.vmid)).toEqual([]);
    } finally {
      await env.sim('DELETE', '/sim/faults');
    }
  });

  it('waits for a snapshot that took the lock as vzdump started, then backs up', async () => {
    const vm = await runningVm();
    const { vmid } = vm.spec;
    // vzdump reaches Proxmox late, so the snapshot below takes the lock between the operator's check
    // and the backup job, as a scheduled backup and a customer's snapshot did.
    await env.sim('POST', '/sim/faults', { method: 'POST', path: '/vzdump$', delayMs: 1_500, count: 1 });
    await env.sim('POST', '/sim/faults', {
      method: 'POST',
      path: `/qemu/${vmid}/snapshot$`,
      taskMs: 2_500,
      count: 1,
    });
    try {
      const backup = await until(await createBackup(vm), (b) => {
        expect(b.metadata?.annotations?.['vm.noderings.com/backup-vmid']).toBe(String(vmid));
      });
      await pve.createSnapshot('pve1', vmid, { snapname: 'customer' });
      const waiting = await until(backup, (b) => {
        expect(findCondition(b.status?.conditions, 'WaitingForLock')?.status).toBe('True');
      });
      expect(waiting.status?.phase).toBe('Pending');
      expect(waiting.status?.message).toContain('(snapshot)');
      expect(findCondition(waiting.status?.conditions, 'Ready')?.reason).toBe('WaitingForLock');

      const done = await completed(backup);
      expect(findCondition(done.status?.conditions, 'WaitingForLock')).toMatchObject({
        status: 'False',
        reason: 'LockReleased',
      });
      expect(await archivesOf(vmid)).toEqual([done.status?.volid]);
      expect((await pve.getSnapshots('pve1', vmid)).map((s) => s.name)).toContain('customer');
    } finally {
      await env.sim('DELETE', '/sim/faults');
    }
  });

  it('fails a backup whose guest stays locked longer than the wait, naming the lock', async () => {
    const vm = await runningVm();
    const { vmid } = vm.spec;
    await env.sim('POST', '/sim/faults', {
      method: 'POST',
      path: `/qemu/${vmid}/snapshot$`,
      taskMs: 3 * LOCK_WAIT_MS,
      count: 1,
    });
    try {
      await pve.createSnapshot('pve1', vmid, { snapname: 'long' });
      const failed = await until(await createBackup(vm), (b) => {
        expect(b.status?.phase).toBe('Failed');
      });
      expect(findCondition(failed.status?.conditions, 'Ready')).toMatchObject({
        status: 'False',
        reason: 'LockTimeout',
      });
      expect(failed.status?.message).toMatch(/VMID \d+ stayed locked \(snapshot\) for 4 seconds/);
      expect(await archivesOf(vmid)).toEqual([]);
    } finally {
      await env.sim('DELETE', '/sim/faults');
    }
  });

  it('never backs up or restores over a guest that is not ours', async () => {
    const lab1 = await pve.getVmConfig('pve1', 100);
    const lab1Status = (await pve.getVmStatus('pve1', 100)).status;
    const intruder = await createVm(env, (v) => {
      v.spec.vmid = 100;
    });
    const refused = await until(await createBackup(intruder), (b) => {
      expect(b.status?.phase).toBe('Failed');
    });
    expect(findCondition(refused.status?.conditions, 'Ready')?.reason).toBe('VmidConflict');
    expect(await archivesOf(100)).toEqual([]);

    // A completed backup of our own guest, pointed at the intruder and asked to restore.
    const ours = await runningVm();
    const backup = await completed(await createBackup(ours));
    await env.kube.vmBackups.mergePatch(refOf(backup), {
      spec: { vmRef: intruder.metadata?.name, restore: { requestedAt: new Date().toISOString() } },
    });
    const notRestored = await until(backup, (b) => {
      expect(b.status?.restore?.phase).toBe('Failed');
    });
    expect(findCondition(notRestored.status?.conditions, 'Restored')?.reason).toBe('VmidConflict');
    expect(await archivesOf(100)).toEqual([]);
    expect(await pve.getVmConfig('pve1', 100)).toEqual(lab1);
    expect((await pve.getVmStatus('pve1', 100)).status).toBe(lab1Status);
    const writes = (await env.sim<{ method: string; path: string }[]>('GET', '/sim/calls')).filter(
      (c) => c.method !== 'GET' && /\/qemu\/100(\/|$)/.test(c.path),
    );
    expect(writes).toEqual([]);
  });
});
