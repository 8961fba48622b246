import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM } from '@noderings/kube';
import { keyOf, parseObjectKey } from '@noderings/kube';
import { captureLogs } from '@noderings/log/log-capture';
import type { ProxmoxClient } from '@noderings/proxmox';

import type { RunningOperator } from '../operator.js';
import type { Env } from '../operator-fixture.test-support.js';
import {
  callsMatching,
  createVm,
  eventually,
  proxmoxClientFor,
  startEnv,
} from '../operator-fixture.test-support.js';

// Tasks slow enough that a test sees one running and can stop the operator while it waits.
const TASK_MS = 1_000;
const CONVERGE_MS = 25_000;

let env: Env;
let pve: ProxmoxClient;

beforeAll(async () => {
  env = await startEnv({ taskMs: TASK_MS });
  pve = proxmoxClientFor(env);
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
  }, CONVERGE_MS);
}

/** An operator whose log lines are kept apart from the other operators'. */
async function startLoggedOperator(): Promise<{ operator: RunningOperator; lines: string[] }> {
  const { logger, secrets, raw: lines } = captureLogs({ name: 'operator' });
  const operator = await env.startOperator({ logger, secrets });
  return { operator, lines };
}

function waitedFor(lines: readonly string[], upid: string): boolean {
  return lines.some((line) => {
    const entry = JSON.parse(line) as { msg?: string; upid?: string };
    return entry.msg === 'waiting for stored task' && entry.upid === upid;
  });
}

describe('restart', () => {
  it('waits for the clone task stored before a restart instead of cloning again', async () => {
    const first = await startLoggedOperator();
    const vm = await createVm(env);
    const cloning = await until(vm, (v) => {
      expect(v.status?.taskRef).toMatch(/^UPID:pve1:.*:qmclone:/);
    });
    const upid = cloning.status?.taskRef ?? '';
    await first.operator.stop();

    const second = await startLoggedOperator();
    const running = await until(vm, (v) => {
      expect(v.status?.phase).toBe('Running');
    });
    expect(waitedFor(second.lines, upid)).toBe(true);
    expect(running.status?.taskRef).toBeUndefined();
    expect(await callsMatching(env, 'POST', /\/clone$/)).toHaveLength(1);
    const named = (await pve.getClusterResources('vm')).filter(
      (r) => r.type === 'qemu' && r.name === `NR-${vm.spec.vmId}`,
    );
    expect(named).toHaveLength(1);
    await second.operator.stop();
  });

  it('does not reboot again after a restart in the middle of a reboot', async () => {
    const first = await startLoggedOperator();
    const vm = await createVm(env);
    const { vmid } = vm.spec;
    await until(vm, (v) => {
      expect(v.status?.phase).toBe('Running');
    });
    const requestedAt = new Date().toISOString();
    await env.kube.proxmoxVMs.mergePatch(refOf(vm), { spec: { rebootRequestedAt: requestedAt } });
    const rebooting = await until(vm, (v) => {
      expect(v.status?.taskRef).toMatch(/^UPID:pve1:.*:qmreboot:/);
      expect(v.status?.lastRebootAt).toBe(requestedAt);
    });
    const upid = rebooting.status?.taskRef ?? '';
    await first.operator.stop();
    const reboots = new RegExp(`/qemu/${vmid}/status/reboot$`);
    expect(await callsMatching(env, 'POST', reboots)).toHaveLength(1);
    await env.sim('DELETE', '/sim/calls');

    const second = await startLoggedOperator();
    // Reading the pending changes is the last step of a converge, after the power state was handled.
    await eventually(async () => {
      expect(await callsMatching(env, 'GET', new RegExp(`/qemu/${vmid}/pending$`))).not.toEqual([]);
    }, CONVERGE_MS);
    expect(waitedFor(second.lines, upid)).toBe(true);
    expect(await callsMatching(env, 'POST', reboots)).toEqual([]);
    const done = await until(vm, (v) => {
      expect(v.status?.taskRef).toBeUndefined();
    });
    expect(done.status).toMatchObject({ phase: 'Running', lastRebootAt: requestedAt });
    await second.operator.stop();
  });
});
