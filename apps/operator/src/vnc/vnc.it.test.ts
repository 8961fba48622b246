import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ProxmoxVM, VNCRequest } from '@noderings/kube';
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
import { VNC_TICKET_LIFETIME_MS } from './vnc.reconciler.js';

let env: Env;
let pve: ProxmoxClient;
const issued: string[] = [];

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

async function requestConsole(vm: ProxmoxVM): Promise<VNCRequest> {
  counter += 1;
  return env.kube.vncRequests.create({
    apiVersion: CRD_API_VERSION,
    kind: 'VNCRequest',
    metadata: { name: `console-${counter}`, namespace: vm.metadata?.namespace ?? '' },
    spec: { vmRef: vm.metadata?.name ?? '' },
  });
}

const refOf = (r: VNCRequest) => ({ namespace: r.metadata?.namespace ?? '', name: r.metadata?.name ?? '' });

async function until(request: VNCRequest, check: (r: VNCRequest) => void): Promise<VNCRequest> {
  return eventually(async () => {
    const now = await env.kube.vncRequests.get(refOf(request));
    check(now);
    return now;
  });
}

async function runningVm(patch: (vm: ProxmoxVM) => void = () => undefined): Promise<ProxmoxVM> {
  const vm = await createVm(env, patch);
  await eventually(async () => {
    const now = await env.kube.proxmoxVMs.get({
      namespace: vm.metadata?.namespace ?? '',
      name: vm.metadata?.name ?? '',
    });
    expect(now.status?.phase).toBe(vm.spec.powerState);
  });
  return vm;
}

/** The first bytes the console sends once the vncwebsocket is open. */
async function greeting(node: string, vmid: number, port: number, ticket: string): Promise<string> {
  const ws = await pve.vncWebSocket(node, vmid, { port, ticket });
  try {
    const first = new Promise<string>((resolve, reject) => {
      ws.once('message', (data: Buffer) => {
        resolve(data.toString('latin1'));
      });
      ws.once('error', reject);
    });
    ws.resume();
    return await first;
  } finally {
    ws.terminate();
  }
}

describe('VNCRequest', () => {
  it('answers with a console session the gateway can open', async () => {
    const vm = await runningVm();
    const before = Date.now();
    const request = await requestConsole(vm);
    const ready = await until(request, (r) => {
      expect(r.status?.phase).toBe('Ready');
    });
    const { node, vmid, port, ticket, password, expiresAt } = ready.status ?? {};
    expect(node).toBe('pve1');
    expect(vmid).toBe(vm.spec.vmid);
    expect(port).toBeGreaterThanOrEqual(5900);
    expect(password).toMatch(/^.{8}$/);
    expect(ticket).toContain(':PVEVNC:');
    issued.push(ticket ?? '', password ?? '');
    const expiry = Date.parse(expiresAt ?? '');
    expect(expiry).toBeGreaterThanOrEqual(before + VNC_TICKET_LIFETIME_MS);
    expect(expiry).toBeLessThanOrEqual(Date.now() + VNC_TICKET_LIFETIME_MS);
    expect(findCondition(ready.status?.conditions, 'Ready')?.status).toBe('True');

    expect(await greeting(node ?? '', vmid ?? 0, port ?? 0, ticket ?? '')).toBe('RFB 003.008\n');
  });

  it('fails for a stopped VM with a clear message, without opening a proxy', async () => {
    const vm = await runningVm((v) => {
      v.spec.powerState = 'Stopped';
    });
    const request = await requestConsole(vm);
    const failed = await until(request, (r) => {
      expect(r.status?.phase).toBe('Failed');
    });
    expect(findCondition(failed.status?.conditions, 'Ready')?.reason).toBe('VmNotRunning');
    expect(failed.status?.message).toContain('stopped');
    expect(failed.status?.ticket).toBeUndefined();
    expect(await callsMatching(env, 'POST', new RegExp(`/qemu/${vm.spec.vmid}/vncproxy$`))).toEqual([]);
  });

  it('fails with VmidConflict for a guest that is not ours (lab-1, VMID 100)', async () => {
    const vm = await createVm(env, (v) => {
      v.spec.vmid = 100;
    });
    const request = await requestConsole(vm);
    const failed = await until(request, (r) => {
      expect(r.status?.phase).toBe('Failed');
    });
    expect(findCondition(failed.status?.conditions, 'Ready')?.reason).toBe('VmidConflict');
    expect(failed.status?.ticket).toBeUndefined();
    expect(await callsMatching(env, 'POST', /\/qemu\/100\/vncproxy$/)).toEqual([]);
  });

  it('never logs the console ticket or password', () => {
    expect(issued.length).toBe(2);
    const all = env.logs.join('');
    expect(all).toContain('console opened');
    for (const secret of issued) expect(all).not.toContain(secret);
  });
});
