import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM } from '@noderings/kube';
import { findCondition, keyOf, parseObjectKey } from '@noderings/kube';
import type { ProxmoxClient } from '@noderings/proxmox';

import type { Env } from '../operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  proxmoxClientFor,
  startEnv,
  TOKEN_SECRET,
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

const refOf = (vm: ProxmoxVM) => parseObjectKey(keyOf(vm));

async function until(vm: ProxmoxVM, check: (vm: ProxmoxVM) => void): Promise<ProxmoxVM> {
  return eventually(async () => {
    const now = await env.kube.proxmoxVMs.get(refOf(vm));
    check(now);
    return now;
  });
}

describe('NR guard', () => {
  it('never touches a guest that is not ours, neither on create nor on delete', async () => {
    const before = await pve.getVmConfig('pve1', 100);
    const statusBefore = (await pve.getVmStatus('pve1', 100)).status;
    const vm = await createVm(env, (v) => {
      v.spec.vmid = 100;
    });
    const failed = await until(vm, (v) => {
      expect(findCondition(v.status?.conditions, 'VmidConflict')?.status).toBe('True');
    });
    expect(failed.status?.phase).toBe('Failed');
    expect(findCondition(failed.status?.conditions, 'Ready')).toMatchObject({
      status: 'False',
      reason: 'VmidConflict',
    });
    expect(await pve.getVmConfig('pve1', 100)).toEqual(before);
    expect((await pve.getVmStatus('pve1', 100)).status).toBe(statusBefore);

    await env.kube.proxmoxVMs.delete(refOf(vm));
    await eventually(async () => {
      expect(await env.kube.proxmoxVMs.find(refOf(vm))).toBeUndefined();
    });
    expect(await pve.getVmConfig('pve1', 100)).toEqual(before);
    expect((await pve.getVmStatus('pve1', 100)).status).toBe(statusBefore);
    const writes = (await env.sim<{ method: string; path: string }[]>('GET', '/sim/calls')).filter(
      (c) => c.method !== 'GET' && /\/qemu\/100(\/|$)/.test(c.path),
    );
    expect(writes).toEqual([]);
  });
});

describe('adoption', () => {
  it('adopts a guest named NR-{uuid} already at the VMID instead of cloning', async () => {
    const uuid = 'c0ffee00-1111-4222-8333-444455556666';
    const vmid = 3100;
    const upid = await pve.cloneVm('pve1', 9000, {
      newid: vmid,
      name: `NR-${uuid}`,
      full: true,
      storage: 'local-lvm',
    });
    await pve.waitForTask('pve1', upid);
    await env.sim('DELETE', '/sim/calls');
    const vm = await createVm(env, (v) => {
      v.spec.vmId = uuid;
      v.spec.vmid = vmid;
      v.metadata = { ...v.metadata, name: `nr-${uuid}` };
    });
    await until(vm, (v) => {
      expect(v.status?.phase).toBe('Running');
    });
    expect(await callsMatching(env, 'POST', /\/clone$/)).toEqual([]);
    expect((await pve.getVmConfig('pve1', vmid)).cores).toBe(2);
  });
});

describe('faults', () => {
  const faults: [string, Record<string, unknown>][] = [
    [
      'a 500 on config',
      { method: 'POST', path: '/qemu/\\d+/config$', status: 500, message: 'internal error', count: 2 },
    ],
    [
      'a backup lock',
      { method: 'POST', path: '/qemu/\\d+/config$', status: 500, message: 'VM is locked (backup)', count: 2 },
    ],
    [
      'a timeout beyond the client timeout',
      { method: 'POST', path: '/status/start$', delayMs: 2_500, count: 1 },
    ],
  ];
  it.each(faults)('converges after %s, without duplicates', async (_name, fault) => {
    await env.sim('DELETE', '/sim/faults');
    await env.sim('POST', '/sim/faults', fault);
    const vm = await createVm(env);
    const done = await until(vm, (v) => {
      expect(v.status?.phase).toBe('Running');
    });
    expect(done.status?.vmid).toBe(vm.spec.vmid);
    const named = (await pve.getClusterResources('vm')).filter(
      (r) => r.type === 'qemu' && r.name === `NR-${vm.spec.vmId}`,
    );
    expect(named).toHaveLength(1);
    expect((await pve.getVmStatus('pve1', vm.spec.vmid)).status).toBe('running');
    await env.sim('DELETE', '/sim/faults');
  });
});

describe('impossible specs', () => {
  const cases: [string, string, (vm: ProxmoxVM) => void][] = [
    [
      'a missing template',
      'TemplateNotFound',
      (v) => {
        v.spec.templateVmid = 9999;
      },
    ],
    [
      'an unknown storage',
      'StorageNotFound',
      (v) => {
        v.spec.disk.storage = 'nowhere';
      },
    ],
    [
      'an unknown node',
      'NodeNotFound',
      (v) => {
        v.spec.node = 'pve99';
      },
    ],
    [
      'a missing instance Secret',
      'InstanceNotFound',
      (v) => {
        v.spec.instance = 'nowhere';
      },
    ],
    [
      'a missing cloud-init Secret',
      'CloudInitSecretNotFound',
      (v) => {
        v.spec.cloudInitSecretRef = 'missing';
      },
    ],
  ];
  it.each(cases)('%s is terminal, not a retry storm', async (_name, reason, patch) => {
    const vm = await createVm(env, patch);
    const failed = await until(vm, (v) => {
      expect(findCondition(v.status?.conditions, 'Ready')?.reason).toBe(reason);
    });
    expect(failed.status?.phase).toBe('Failed');
    expect(failed.status?.message).not.toBe('');
    const countCalls = async (): Promise<number> => (await env.sim<unknown[]>('GET', '/sim/calls')).length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const before = await countCalls();
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await countCalls()) - before).toBeLessThanOrEqual(0);
    await env.kube.proxmoxVMs.delete(refOf(vm));
    await eventually(async () => {
      expect(await env.kube.proxmoxVMs.find(refOf(vm))).toBeUndefined();
    });
  });
});

describe('credentials', () => {
  it('never logs the token secret or cloud-init contents', () => {
    const all = env.logs.join('');
    expect(env.logs.length).toBeGreaterThan(10);
    expect(all).not.toContain(TOKEN_SECRET);
    expect(all).not.toContain('s3cret-');
  });
});
