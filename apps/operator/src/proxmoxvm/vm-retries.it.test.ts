import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM } from '@noderings/kube';
import { keyOf, parseObjectKey } from '@noderings/kube';
import type { ProxmoxClient } from '@noderings/proxmox';

import type { Env } from '../operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  proxmoxClientFor,
  recordStatusMessages,
  startEnv,
} from '../operator-fixture.test-support.js';

// A clone holds its storage's lock for the whole task, longer than another clone waits for it.
const TASK_MS = 300;
const STORAGE_LOCK_TIMEOUT_MS = 50;
const CONVERGE_MS = 25_000;

let env: Env;
let pve: ProxmoxClient;

beforeAll(async () => {
  env = await startEnv({ taskMs: TASK_MS, storageLockTimeoutMs: STORAGE_LOCK_TIMEOUT_MS });
  pve = proxmoxClientFor(env);
  await env.startOperator();
});

afterEach(async () => {
  await env.sim('DELETE', '/sim/faults');
});

afterAll(async () => {
  await pve.close();
  await env.close();
});

const refOf = (vm: ProxmoxVM) => parseObjectKey(keyOf(vm));

async function untilRunning(vm: ProxmoxVM): Promise<ProxmoxVM> {
  return eventually(async () => {
    const now = await env.kube.proxmoxVMs.get(refOf(vm));
    expect(now.status?.phase).toBe('Running');
    return now;
  }, CONVERGE_MS);
}

/** Every guest in the cluster, by VMID and name. */
async function guests(): Promise<{ vmid: number; name: string | undefined }[]> {
  return (await pve.getClusterResources('vm')).flatMap((r) =>
    r.type === 'qemu' ? [{ vmid: r.vmid, name: r.name }] : [],
  );
}

/** The VMIDs of the guests named after `vm`, anywhere in the cluster. */
async function guestsOf(vm: ProxmoxVM): Promise<number[]> {
  return (await guests()).filter((g) => g.name === `NR-${vm.spec.vmId}`).map((g) => g.vmid);
}

describe('clone failures', () => {
  it('retries a clone that lost the storage lock to another, leaving one guest each', async () => {
    const recording = await recordStatusMessages(env);
    try {
      const vms = await Promise.all([createVm(env), createVm(env)]);
      for (const vm of vms) await untilRunning(vm);
      expect(recording.messages).toContain(
        "clone failed: can't lock file '/var/lock/pve-manager/pve-storage-local-lvm' - got timeout",
      );
      for (const vm of vms) {
        expect(await guestsOf(vm)).toEqual([vm.spec.vmid]);
        expect((await pve.getVmStatus('pve1', vm.spec.vmid)).status).toBe('running');
      }
      const ours = (await guests()).filter((g) => g.name?.startsWith('NR-') === true);
      expect(new Set(ours.map((g) => g.name)).size).toBe(ours.length);
      // The loser cloned again after its failed task freed the VMID.
      const clones = await callsMatching(env, 'POST', /\/clone$/);
      expect(clones.length).toBeGreaterThan(vms.length);
    } finally {
      await recording.stop();
    }
  });

  it('clones again after the clone task failed, leaving one guest', async () => {
    await env.sim('DELETE', '/sim/calls');
    await env.sim('POST', '/sim/faults', {
      method: 'POST',
      path: '/clone$',
      taskError: 'clone failed: injected copy error',
      count: 1,
    });
    const recording = await recordStatusMessages(env);
    try {
      const vm = await createVm(env);
      const running = await untilRunning(vm);
      expect(recording.messages).toContain('clone failed: injected copy error');
      expect(running.status?.vmid).toBe(vm.spec.vmid);
      expect(await guestsOf(vm)).toEqual([vm.spec.vmid]);
      expect(await callsMatching(env, 'POST', /\/clone$/)).toHaveLength(2);
      expect((await pve.getVmStatus('pve1', vm.spec.vmid)).status).toBe('running');
    } finally {
      await recording.stop();
    }
  });
});

describe('reboot token', () => {
  it('is kept for the next attempt when Proxmox refuses the reboot', async () => {
    const vm = await createVm(env);
    await untilRunning(vm);
    await env.sim('POST', '/sim/faults', {
      method: 'POST',
      path: '/status/reboot$',
      status: 500,
      message: 'internal error',
      count: 1,
    });
    const requestedAt = new Date().toISOString();
    await env.kube.proxmoxVMs.mergePatch(refOf(vm), { spec: { rebootRequestedAt: requestedAt } });
    const reboots = new RegExp(`/qemu/${vm.spec.vmid}/status/reboot$`);
    const rebooted = await eventually(async () => {
      expect((await callsMatching(env, 'POST', reboots)).map((c) => c.status)).toEqual([500, 200]);
      const now = await env.kube.proxmoxVMs.get(refOf(vm));
      expect(now.status?.lastRebootAt).toBe(requestedAt);
      expect(now.status?.taskRef).toBeUndefined();
      return now;
    }, CONVERGE_MS);
    expect(rebooted.status?.phase).toBe('Running');
  });
});
