import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM, VMBackup } from '@noderings/kube';
import { CRD_API_VERSION, keyOf, parseObjectKey } from '@noderings/kube';
import { captureLogs } from '@noderings/log/log-capture';
import type { ProxmoxClient } from '@noderings/proxmox';

import type { Env } from '../operator-fixture.test-support.js';
import { createVm, eventually, proxmoxClientFor, startEnv } from '../operator-fixture.test-support.js';
import { BackupScheduleReconciler } from './backup-schedule.reconciler.js';

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

// Leap days only: the operator's own scheduler (on the real clock) owes no run during the test, while
// the reconciler under test is driven through four coming ones by its own clock.
const LEAP_DAYS = '0 0 29 2 *';
const FIRST_LEAP_YEAR = Math.ceil((new Date().getUTCFullYear() + 1) / 4) * 4;
const RUNS = [0, 4, 8, 12].map((years) => `${FIRST_LEAP_YEAR + years}-02-29T00:00:00Z`);

const refOf = (obj: ProxmoxVM | VMBackup) => parseObjectKey(keyOf(obj));

/** Archives are named by the second: let each backup of the VM start in a second of its own. */
async function nextSecond(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 1_050 - (Date.now() % 1_000)));
}

describe('backup schedule', () => {
  it('creates a backup per run, keeps `retention` of them, and never prunes manual ones', async () => {
    const created = await createVm(env, (v) => {
      v.spec.backupPolicy = { schedule: LEAP_DAYS, retention: 2, storage: 'local', compression: 'lzo' };
    });
    const vm = await eventually(async () => {
      const now = await env.kube.proxmoxVMs.get(refOf(created));
      expect(now.status?.phase).toBe('Running');
      return now;
    });
    const name = vm.metadata?.name ?? '';
    const namespace = vm.metadata?.namespace ?? '';
    const { vmid } = vm.spec;
    let now = new Date(Date.parse(RUNS[0] ?? '') - 30 * 60_000);
    const schedule = new BackupScheduleReconciler({
      vms: env.kube.proxmoxVMs,
      backups: env.kube.vmBackups,
      logger: captureLogs().logger,
      clock: () => now,
    });
    const scheduled = async (): Promise<VMBackup[]> =>
      (await env.kube.vmBackups.list(namespace, { labelSelector: `vm.noderings.com/vm-ref=${name}` })).items;
    const archives = async (): Promise<string[]> =>
      (await pve.getStorageContent('pve1', 'local', { content: 'backup', vmid })).map((v) => v.volid);

    const manual = await env.kube.vmBackups.create({
      apiVersion: CRD_API_VERSION,
      kind: 'VMBackup',
      metadata: { name: `${name}-manual`, namespace },
      spec: { vmRef: name, storage: 'local' },
    });
    const manualDone = await eventually(async () => {
      const b = await env.kube.vmBackups.get(refOf(manual));
      expect(b.status?.phase).toBe('Completed');
      return b;
    });

    // Before the first run: nothing yet, and the next look is due at the run.
    expect(await schedule.reconcile(keyOf(vm), new AbortController().signal)).toEqual({
      requeueAfter: 30 * 60_000,
    });
    expect(await scheduled()).toEqual([]);

    const volids = new Map<string, string>();
    for (const run of RUNS) {
      await nextSecond();
      now = new Date(Date.parse(run) + 30_000);
      await schedule.reconcile(keyOf(vm), new AbortController().signal);
      await schedule.reconcile(keyOf(vm), new AbortController().signal);
      const slot = `${name}-${run.slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}`;
      const backup = await eventually(async () => {
        const b = await env.kube.vmBackups.get({ namespace, name: slot });
        expect(b.status?.phase).toBe('Completed');
        return b;
      });
      expect(backup.metadata?.labels).toMatchObject({
        'vm.noderings.com/vm-ref': name,
        'vm.noderings.com/scheduled': 'true',
      });
      expect(backup.metadata?.ownerReferences).toEqual([
        expect.objectContaining({ kind: 'ProxmoxVM', name, uid: vm.metadata?.uid }),
      ]);
      expect(backup.spec).toMatchObject({ vmRef: name, storage: 'local', compression: 'lzo' });
      expect(backup.status?.volid).toMatch(/\.vma\.lzo$/);
      volids.set(run, backup.status?.volid ?? '');
      await schedule.reconcile(keyOf(vm), new AbortController().signal);
    }

    const kept = RUNS.slice(-2).map((run) => volids.get(run));
    const pruned = RUNS.slice(0, 2).map((run) => volids.get(run));
    await eventually(async () => {
      expect((await scheduled()).map((b) => b.status?.volid).sort()).toEqual([...kept].sort());
      const listed = await archives();
      for (const volid of kept) expect(listed).toContain(volid);
      for (const volid of pruned) expect(listed).not.toContain(volid);
    });
    expect(await archives()).toContain(manualDone.status?.volid);
    expect(await env.kube.vmBackups.find(refOf(manual))).toBeDefined();

    // The scheduled backups go with their VM, archives included; the manual one stays.
    await env.kube.proxmoxVMs.delete(refOf(vm));
    await eventually(async () => {
      expect(await scheduled()).toEqual([]);
      expect(await archives()).toEqual([manualDone.status?.volid]);
    });
    expect(await env.kube.vmBackups.find(refOf(manual))).toBeDefined();
  });
});
