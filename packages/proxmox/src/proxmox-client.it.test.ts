import { randomUUID } from 'node:crypto';

import { startPveSim } from '@noderings/pve-sim';
import type { PveSim } from '@noderings/pve-sim';
import { Agent, request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import {
  LockedError,
  PveNotFoundError,
  ParameterError,
  PvePermissionDeniedError,
  ProxmoxError,
  TaskFailedError,
  TlsFingerprintMismatchError,
  PveUnauthorizedError,
  UnreachableError,
  VmNotRunningError,
  VmRunningError,
  VmidTakenError,
} from './errors.js';
import { ProxmoxClient } from './proxmox-client.js';
import type { ProxmoxClientOptions } from './client-options.js';
import { buildNoCloudSeed } from './nocloud-seed.js';
import { encodeSshKeys } from './ssh-keys.js';
import { parseUpid } from './upid.js';

/** The client against the Proxmox simulator over real HTTPS; expectations follow the reference. */

const ADMIN = { id: 'root@pam!sim', secret: randomUUID() };
/** A token with privilege separation: PVEVMUser on VM 100 only. */
const LIMITED = { id: 'operator@pve!limited', secret: randomUUID() };
const USER = { userid: 'root@pam', password: 'sim-password' };
const WAIT = { pollMinMs: 5, pollMaxMs: 50, timeoutMs: 20_000 };

let sim: PveSim;
let control: Agent;
const clients: ProxmoxClient[] = [];

beforeAll(async () => {
  sim = await startPveSim({
    listen: '127.0.0.1:0',
    nodes: 3,
    taskMs: 5,
    tokens: [ADMIN, { ...LIMITED, acl: [{ path: '/vms/100', role: 'PVEVMUser' }] }],
    users: [USER],
    authFailDelayMs: 0,
  });
  control = new Agent({ connect: { ca: sim.certPem } });
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await control.close();
  await sim.close();
});

afterEach(async () => {
  await simControl('DELETE', '/sim/faults');
});

function client(options: Partial<ProxmoxClientOptions> = {}): ProxmoxClient {
  const created = new ProxmoxClient({
    baseUrl: sim.url,
    token: `${ADMIN.id}=${ADMIN.secret}`,
    tls: { fingerprint: sim.fingerprint },
    retries: { count: 2, minDelayMs: 5, maxDelayMs: 20 },
    ...options,
  });
  clients.push(created);
  return created;
}

async function simControl(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<unknown> {
  const response = await request(`${sim.url}${path}`, {
    method,
    dispatcher: control,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  const parsed = (await response.body.json()) as { data?: unknown; error?: string };
  if (response.statusCode !== 200)
    throw new Error(`sim control ${method} ${path}: ${parsed.error ?? response.statusCode}`);
  return parsed.data;
}

async function callsTo(method: string, pathPattern: RegExp): Promise<number> {
  const calls = (await simControl('GET', '/sim/calls')) as { method: string; path: string }[];
  return calls.filter((call) => call.method === method && pathPattern.test(call.path)).length;
}

/** A fresh stopped VM cloned from template 9000 on pve1. */
async function cloneFresh(pve: ProxmoxClient): Promise<number> {
  const newid = await pve.getNextVmid();
  await pve.waitForTask(
    'pve1',
    await pve.cloneVm('pve1', 9000, { newid, name: `NR-${randomUUID()}`, full: true }),
    WAIT,
  );
  return newid;
}

describe('reads', () => {
  test('version, cluster, nodes, storage', async () => {
    const pve = client();
    expect((await pve.getVersion()).version).toMatch(/^\d+\.\d+/);
    const status = await pve.getClusterStatus();
    expect(status.filter((entry) => entry.type === 'node')).toHaveLength(3);
    const nodes = await pve.getNodes();
    expect(nodes.map((n) => n.node).sort()).toEqual(['pve1', 'pve2', 'pve3']);
    expect((await pve.getNodeStatus('pve1')).cpuinfo.cpus).toBeGreaterThan(0);
    const vms = await pve.getClusterResources('vm');
    expect(vms.find((r) => r.id === 'qemu/100')).toMatchObject({ node: 'pve1', name: 'lab-1' });
    expect(vms.every((r) => r.type === 'qemu' || r.type === 'lxc')).toBe(true);
    expect((await pve.getVms('pve1')).map((vm) => vm.vmid).sort()).toEqual([100, 9000, 9001]);
    expect((await pve.getStorages('pve1')).map((s) => s.storage).sort()).toEqual(['local', 'local-lvm']);
    expect((await pve.getStorageStatus('pve1', 'local')).total).toBeGreaterThan(0);
    const images = await pve.getStorageContent('pve1', 'local-lvm', { vmid: 9000 });
    expect(images.length).toBeGreaterThan(0);
  });

  test('nextid is a number, and a taken VMID is VmidTakenError', async () => {
    const pve = client();
    const next = await pve.getNextVmid();
    expect(typeof next).toBe('number');
    expect(next).toBeGreaterThanOrEqual(100);
    const error = await pve.getNextVmid(100).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VmidTakenError);
    expect((error as VmidTakenError).vmid).toBe(100);
    expect((error as VmidTakenError).pveMessage).toBe('VM 100 already exists');
  });

  test('config keeps the wire types: integers as numbers, memory as a string', async () => {
    const config = await client().getVmConfig('pve1', 100);
    expect(config.cores).toBe(2);
    expect(config.memory).toBe('4096');
    expect(typeof config.digest).toBe('string');
  });
});

describe('VM lifecycle', () => {
  test('clone → wait → config → start → status → stop → delete', async () => {
    const pve = client();
    const newid = await pve.getNextVmid();
    const name = `NR-${randomUUID()}`;
    const cloneUpid = await pve.cloneVm('pve1', 9000, { newid, name, full: true, storage: 'local-lvm' });
    expect(parseUpid(cloneUpid)).toMatchObject({ node: 'pve1', type: 'qmclone', id: '9000', user: ADMIN.id });
    const cloned = await pve.waitForTask('pve1', cloneUpid, WAIT);
    expect(cloned).toMatchObject({ exitstatus: 'OK', warnings: 0 });

    const config = await pve.getVmConfig('pve1', newid);
    expect(config.name).toBe(name);
    expect(config.template).toBeUndefined();
    expect(config.lock).toBeUndefined();

    const keys = [
      'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIH+/abc= alice@example.com',
      'ssh-rsa AAAAB3Nz+x== bob@h',
    ];
    const configUpid = await pve.updateVmConfig('pve1', newid, {
      cores: 2,
      memory: 2048,
      sshkeys: keys,
      ipconfig0: 'ip=203.0.113.10/24,gw=203.0.113.1',
      tags: ['nr', 'customer'],
    });
    if (configUpid !== null) await pve.waitForTask('pve1', configUpid, WAIT);
    const updated = await pve.getVmConfig('pve1', newid);
    expect(updated.cores).toBe(2);
    expect(updated.memory).toBe('2048');
    expect(updated.sshkeys).toBe(encodeSshKeys(keys));
    expect(updated.tags).toBe('customer;nr');

    await pve.waitForTask('pve1', await pve.startVm('pve1', newid), WAIT);
    expect((await pve.getVmStatus('pve1', newid)).status).toBe('running');

    await pve.waitForTask('pve1', await pve.stopVm('pve1', newid), WAIT);
    expect((await pve.getVmStatus('pve1', newid)).status).toBe('stopped');

    const destroy = await pve.deleteVm('pve1', newid, { purge: true, destroyUnreferencedDisks: true });
    expect(parseUpid(destroy).type).toBe('qmdestroy');
    await pve.waitForTask('pve1', destroy, WAIT);
    await expect(pve.getVmConfig('pve1', newid)).rejects.toBeInstanceOf(PveNotFoundError);
  });

  test('pending changes, resize, and a synchronous config PUT', async () => {
    const pve = client();
    const vmid = await cloneFresh(pve);
    const resize = await pve.resizeVmDisk('pve1', vmid, { disk: 'scsi0', size: '+1G' });
    if (resize !== null) await pve.waitForTask('pve1', resize, WAIT);
    await pve.waitForTask('pve1', await pve.startVm('pve1', vmid), WAIT);
    await pve.setVmConfig('pve1', vmid, { cores: 4, description: 'a customer VM' });
    const pending = await pve.getVmPending('pve1', vmid);
    expect(pending.find((entry) => entry.key === 'cores')).toMatchObject({ pending: 4 });
    expect((await pve.getVmConfig('pve1', vmid, { current: true })).cores).toBe(1);
    expect((await pve.getVmConfig('pve1', vmid)).cores).toBe(4);
    await pve.waitForTask('pve1', await pve.stopVm('pve1', vmid), WAIT);
    await pve.waitForTask('pve1', await pve.deleteVm('pve1', vmid, { purge: true }), WAIT);
  });

  test('snapshots: create, list, roll back, delete', async () => {
    const pve = client();
    const vmid = await cloneFresh(pve);
    await pve.waitForTask(
      'pve1',
      await pve.createSnapshot('pve1', vmid, { snapname: 'before', description: 'x' }),
      WAIT,
    );
    expect((await pve.getSnapshots('pve1', vmid)).map((s) => s.name)).toContain('before');
    await pve.waitForTask('pve1', await pve.rollbackSnapshot('pve1', vmid, 'before'), WAIT);
    await pve.waitForTask('pve1', await pve.deleteSnapshot('pve1', vmid, 'before'), WAIT);
    expect((await pve.getSnapshots('pve1', vmid)).map((s) => s.name)).not.toContain('before');
    await pve.waitForTask('pve1', await pve.deleteVm('pve1', vmid, { purge: true }), WAIT);
  });

  test('VM firewall: the SMTP block rule, move, delete, options', async () => {
    const pve = client();
    const vmid = await cloneFresh(pve);
    await pve.createFirewallRule('pve1', vmid, {
      type: 'in',
      action: 'ACCEPT',
      proto: 'tcp',
      dport: '22',
      enable: true,
    });
    await pve.createFirewallRule('pve1', vmid, {
      type: 'out',
      action: 'DROP',
      proto: 'tcp',
      dport: '25,465,587',
      enable: true,
      comment: 'SMTP block',
    });
    const rules = await pve.getFirewallRules('pve1', vmid);
    expect(rules[0]).toMatchObject({ pos: 0, type: 'out', action: 'DROP', dport: '25,465,587', enable: 1 });
    expect(rules[1]).toMatchObject({ pos: 1, type: 'in', dport: '22' });
    await pve.updateFirewallRule('pve1', vmid, 1, { moveto: 0 });
    expect((await pve.getFirewallRule('pve1', vmid, 0)).dport).toBe('22');
    await pve.deleteFirewallRule('pve1', vmid, 0);
    expect(await pve.getFirewallRules('pve1', vmid)).toHaveLength(1);
    await expect(pve.deleteFirewallRule('pve1', vmid, 5)).rejects.toBeInstanceOf(PveNotFoundError);
    await pve.setFirewallOptions('pve1', vmid, { enable: true, policy_out: 'ACCEPT' });
    expect((await pve.getFirewallOptions('pve1', vmid)).enable).toBe(1);
    await pve.waitForTask('pve1', await pve.deleteVm('pve1', vmid, { purge: true }), WAIT);
  });

  test('backup, the plain OK from another node, restore over a taken VMID, delete the archive', async () => {
    const pve = client();
    const backup = await pve.vzdump('pve1', {
      vmid: 100,
      mode: 'snapshot',
      compress: 'zstd',
      storage: 'local',
    });
    expect(backup.kind).toBe('task');
    if (backup.kind === 'task') await pve.waitForTask('pve1', backup.upid, WAIT);
    expect(await pve.vzdump('pve2', { vmid: 100, storage: 'local' })).toEqual({ kind: 'not-on-this-node' });

    const archives = await pve.getStorageContent('pve1', 'local', { content: 'backup', vmid: 100 });
    const archive = archives[0];
    if (archive === undefined) throw new Error('no backup archive listed');
    expect(archive.volid).toMatch(/^local:backup\/vzdump-qemu-100-\d{4}_\d\d_\d\d-\d\d_\d\d_\d\d\.vma\.zst$/);

    const taken = await pve.restoreVm('pve1', { vmid: 101, archive: archive.volid }).catch((e: unknown) => e);
    expect(taken).toBeInstanceOf(VmidTakenError);
    expect((taken as VmidTakenError).vmid).toBe(101);

    const vmid = await pve.getNextVmid();
    await pve.waitForTask(
      'pve1',
      await pve.restoreVm('pve1', { vmid, archive: archive.volid, unique: true, storage: 'local-lvm' }),
      WAIT,
    );
    expect((await pve.getVmConfig('pve1', vmid)).name).toBe('lab-1');
    await pve.waitForTask('pve1', await pve.deleteVm('pve1', vmid, { purge: true }), WAIT);

    await pve.waitForTask('pve1', await pve.deleteVolume('pve1', 'local', archive.volid), WAIT);
    expect(await pve.getStorageContent('pve1', 'local', { content: 'backup', vmid: 100 })).toHaveLength(
      archives.length - 1,
    );
  });

  test('upload an ISO to storage', async () => {
    const pve = client();
    const upid = await pve.uploadToStorage('pve1', 'local', {
      content: 'iso',
      filename: 'nr-seed-test.iso',
      data: new Uint8Array(4096).fill(7),
    });
    await pve.waitForTask('pve1', upid, WAIT);
    const isos = await pve.getStorageContent('pve1', 'local', { content: 'iso' });
    expect(isos.map((v) => v.volid)).toContain('local:iso/nr-seed-test.iso');
    await pve.waitForTask(
      'pve1',
      await pve.deleteVolume('pve1', 'local', 'local:iso/nr-seed-test.iso'),
      WAIT,
    );
  });
});

describe('typed errors', () => {
  test('a missing VM is PveNotFoundError with Proxmox message', async () => {
    const error = await client()
      .getVmConfig('pve1', 4242)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PveNotFoundError);
    expect((error as PveNotFoundError).pveMessage).toBe(
      "Configuration file 'nodes/pve1/qemu-server/4242.conf' does not exist",
    );
    expect((error as PveNotFoundError).status).toBe(500);
  });

  test('an unknown task is PveNotFoundError', async () => {
    const upid = 'UPID:pve1:00000001:00000001:679A423B:qmstart:100:root@pam:';
    await expect(client().getTaskStatus('pve1', upid)).rejects.toBeInstanceOf(PveNotFoundError);
  });

  test('a VM under backup is LockedError(backup)', async () => {
    // A simulator whose tasks take long enough to meet the backup's lock.
    const slow = await startPveSim({ listen: '127.0.0.1:0', nodes: 1, taskMs: 1_500, tokens: [ADMIN] });
    try {
      const slowPve = client({ baseUrl: slow.url, tls: { fingerprint: slow.fingerprint } });
      const backup = await slowPve.vzdump('pve1', { vmid: 100, storage: 'local' });
      const error = await slowPve.updateVmConfig('pve1', 100, { description: 'x' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LockedError);
      expect((error as LockedError).lock).toBe('backup');
      expect((error as LockedError).pveMessage).toBe('VM is locked (backup)');
      if (backup.kind === 'task') await slowPve.waitForTask('pve1', backup.upid, WAIT);
    } finally {
      await slow.close();
    }
  });

  test('cloning onto a VMID that exists on the node is VmidTakenError', async () => {
    const error = await client()
      .cloneVm('pve1', 9000, { newid: 100, name: 'NR-x', full: true })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(VmidTakenError);
    expect((error as VmidTakenError).vmid).toBe(100);
  });

  test('destroying a running VM is VmRunningError; rebooting a stopped one VmNotRunningError', async () => {
    const pve = client();
    const running = await pve.deleteVm('pve1', 100).catch((e: unknown) => e);
    expect(running).toBeInstanceOf(VmRunningError);
    expect((running as VmRunningError).pveMessage).toBe('VM 100 is running - destroy failed');
    const stopped = await pve.rebootVm('pve1', 9001).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(VmNotRunningError);
    expect((stopped as VmNotRunningError).vmid).toBe(9001);
  });

  test('an ACL-limited token gets PvePermissionDeniedError with path and privilege', async () => {
    const limited = client({ token: `${LIMITED.id}=${LIMITED.secret}` });
    expect((await limited.getVmStatus('pve1', 100)).status).toBe('running');
    const error = await limited.updateVmConfig('pve1', 100, { cores: 4 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PvePermissionDeniedError);
    expect((error as PvePermissionDeniedError).status).toBe(403);
    expect((error as PvePermissionDeniedError).aclPath).toBe('/vms/100');
    expect((error as PvePermissionDeniedError).privilege).toBe('VM.Config.CPU');
    const clone = await limited.cloneVm('pve1', 9000, { newid: 5000 }).catch((e: unknown) => e);
    expect(clone).toBeInstanceOf(PvePermissionDeniedError);
    expect((clone as PvePermissionDeniedError).aclPath).toBe('/vms/9000');
  });

  test('a wrong token secret is PveUnauthorizedError (401, reason from the status line)', async () => {
    const error = await client({ token: `${ADMIN.id}=${randomUUID()}` })
      .getVersion()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PveUnauthorizedError);
    expect((error as PveUnauthorizedError).status).toBe(401);
    expect((error as PveUnauthorizedError).pveMessage).toMatch(/authentication failed/i);
  });

  test('a malformed VMID is ParameterError with the per-parameter message', async () => {
    const error = await client()
      .getVmConfig('pve1', 1)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParameterError);
    expect((error as ParameterError).status).toBe(400);
    expect((error as ParameterError).parameters).toEqual({
      vmid: 'invalid format - value does not look like a valid VM ID',
    });
  });
});

describe('tasks', () => {
  test('an injected task error is TaskFailedError with the log tail', async () => {
    const pve = client();
    const message =
      "clone failed: can't lock file '/var/lock/pve-manager/pve-storage-local-lvm' - got timeout";
    await simControl('POST', '/sim/faults', {
      method: 'POST',
      path: '/clone$',
      taskError: message,
      count: 1,
    });
    const newid = await pve.getNextVmid();
    const upid = await pve.cloneVm('pve1', 9000, { newid, name: 'NR-fails', full: true });
    const error = await pve.waitForTask('pve1', upid, WAIT).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    const failed = error as TaskFailedError;
    expect(failed.exitstatus).toBe(message);
    expect(failed.upid).toBe(upid);
    expect(failed.logTail.at(-1)).toBe(`TASK ERROR: ${message}`);
  });

  test('starting a running VM fails as a task whose reason is VmRunningError', async () => {
    const pve = client();
    const error = await pve
      .waitForTask('pve1', await pve.startVm('pve1', 100), WAIT)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TaskFailedError);
    expect((error as TaskFailedError).exitstatus).toBe('VM 100 already running');
    expect((error as TaskFailedError).reason).toBeInstanceOf(VmRunningError);
  });

  test('the task log and status of a finished task', async () => {
    const pve = client();
    const upid = await pve.startVm('pve1', 9000);
    await pve.waitForTask('pve1', upid, WAIT).catch(() => undefined);
    const status = await pve.getTaskStatus('pve1', upid);
    expect(status).toMatchObject({
      status: 'stopped',
      type: 'qmstart',
      id: '9000',
      exitstatus: "you can't start a vm if it's a template",
    });
    const log = await pve.getTaskLog('pve1', upid);
    expect(log.at(-1)?.t).toBe("TASK ERROR: you can't start a vm if it's a template");
  });

  test('waitForTask stops at once when aborted', async () => {
    const slow = await startPveSim({ listen: '127.0.0.1:0', nodes: 1, taskMs: 10_000, tokens: [ADMIN] });
    try {
      const pve = client({ baseUrl: slow.url, tls: { fingerprint: slow.fingerprint } });
      // The scenario's running VM; its stop task runs for the sim's 10 s.
      const upid = await pve.stopVm('pve1', 100);
      const error = await pve
        .waitForTask('pve1', upid, { pollMinMs: 5_000, signal: AbortSignal.timeout(100) })
        .catch((e: unknown) => e);
      expect((error as Error).name).toMatch(/AbortError|TimeoutError/);
      // It gave up while the task was still running, rather than after the next 5 s poll or the task's end.
      expect((await pve.getTaskStatus('pve1', upid)).status).toBe('running');
    } finally {
      await slow.close();
    }
  });
});

describe('transport', () => {
  test('a GET is retried after injected 5xx answers; a POST is not', async () => {
    const pve = client();
    await simControl('DELETE', '/sim/calls');
    await simControl('POST', '/sim/faults', {
      method: 'GET',
      path: '^/version$',
      status: 503,
      message: 'busy',
      count: 2,
    });
    expect((await pve.getVersion()).version).toBeDefined();
    expect(await callsTo('GET', /^\/version$/)).toBe(3);

    await simControl('POST', '/sim/faults', {
      method: 'POST',
      path: '/status/start$',
      status: 503,
      message: 'busy',
      count: 1,
    });
    const error = await pve.startVm('pve1', 9001).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProxmoxError);
    expect((error as ProxmoxError).status).toBe(503);
    expect(await callsTo('POST', /\/qemu\/9001\/status\/start$/)).toBe(1);
  });

  test('pinning accepts the sim fingerprint in any spelling and rejects another before sending anything', async () => {
    const fingerprint = sim.fingerprint.replace(/:/g, '').toLowerCase();
    expect((await client({ tls: { fingerprint } }).getVersion()).version).toBeDefined();

    await simControl('DELETE', '/sim/calls');
    const wrong = sim.fingerprint.replace(/^../, sim.fingerprint.startsWith('00') ? '11' : '00');
    const error = await client({ tls: { fingerprint: wrong } })
      .getVersion()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TlsFingerprintMismatchError);
    expect((error as TlsFingerprintMismatchError).actual).toBe(sim.fingerprint);
    expect((error as TlsFingerprintMismatchError).requestMayHaveBeenSent).toBe(false);
    expect(await callsTo('GET', /^\/version$/)).toBe(0);
  });

  test('without a pin or CA the self-signed certificate is refused; insecure must be asked for', async () => {
    const error = await client({ tls: {} })
      .getVersion()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect((error as UnreachableError).reason).toBe('tls');
    expect((await client({ tls: { insecureSkipVerify: true } }).getVersion()).version).toBeDefined();
  });

  test('a CA PEM is accepted as the trust anchor', async () => {
    expect((await client({ tls: { caPem: sim.certPem } }).getVersion()).version).toBeDefined();
  });

  test('plain http:// works against the simulator in --http mode', async () => {
    const plain = await startPveSim({ listen: '127.0.0.1:0', nodes: 1, http: true, tokens: [ADMIN] });
    try {
      expect((await client({ baseUrl: plain.url, tls: {} }).getVms('pve1')).length).toBeGreaterThan(0);
    } finally {
      await plain.close();
    }
  });

  test('ticket login instead of a token', async () => {
    const pve = client({ token: undefined, login: { username: USER.userid, password: USER.password } });
    expect((await pve.getVmStatus('pve1', 100)).status).toBe('running');
    const vmid = await cloneFresh(pve);
    await pve.waitForTask('pve1', await pve.deleteVm('pve1', vmid, { purge: true }), WAIT);
    const ticket = await pve.createTicket(USER.userid, USER.password);
    expect(ticket.ticket).toMatch(/^PVE:root@pam:[0-9A-F]{8}::/);
    await expect(pve.createTicket(USER.userid, 'wrong')).rejects.toBeInstanceOf(PveUnauthorizedError);
  });
});

describe('console', () => {
  test('vncproxy then vncwebsocket reaches the VM VNC server', async () => {
    const pve = client();
    const proxy = await pve.createVncProxy('pve1', 100);
    expect(proxy.port).toBeGreaterThanOrEqual(5900);
    expect(parseUpid(proxy.upid).type).toBe('vncproxy');
    const ws = await pve.vncWebSocket('pve1', 100, proxy);
    const greeting = new Promise<Buffer>((resolve) => {
      ws.once('message', (data: Buffer) => {
        resolve(data);
      });
    });
    ws.resume();
    expect((await greeting).toString('latin1')).toMatch(/^RFB 003\.00[38]\n/);
    ws.close();
  });
});

describe('cloud-init seed', () => {
  test('a NoCloud seed built here, uploaded and attached, is what the VM reads', async () => {
    const pve = client();
    const vmid = await cloneFresh(pve);
    const seed = {
      userData:
        '#cloud-config\nhostname: web-1\nssh_authorized_keys:\n  - ssh-ed25519 AAAAC3Nza alice@example\n',
      metaData: `instance-id: ${randomUUID()}\nlocal-hostname: web-1\n`,
      networkConfig:
        'version: 2\nethernets:\n  id0:\n    match:\n      macaddress: "bc:24:11:00:00:2a"\n    addresses: [203.0.113.10/24]\n',
    };
    const filename = `nr-${vmid}-cloudinit.iso`;
    await pve.waitForTask(
      'pve1',
      await pve.uploadToStorage('pve1', 'local', { content: 'iso', filename, data: buildNoCloudSeed(seed) }),
      WAIT,
    );
    await pve.setVmConfig('pve1', vmid, { ide3: `local:iso/${filename},media=cdrom` });
    const view = (await simControl('GET', `/sim/vms/${vmid}/cloudinit`)) as {
      source: string;
      volumeId: string;
      files: Record<string, string>;
    };
    expect(view.source).toBe('iso');
    expect(view.volumeId).toBe('cidata');
    expect(view.files).toEqual({
      'user-data': seed.userData,
      'meta-data': seed.metaData,
      'network-config': seed.networkConfig,
    });
  });
});

describe('task outcomes and connection faults', () => {
  test('a task that ends with WARNINGS: n is a success with its warning count', async () => {
    const pve = client();
    await simControl('POST', '/sim/faults', {
      method: 'POST',
      path: '/status/start$',
      taskWarnings: 2,
      count: 1,
    });
    const vmid = await cloneFresh(pve);
    const result = await pve.waitForTask('pve1', await pve.startVm('pve1', vmid), WAIT);
    expect([result.exitstatus, result.warnings]).toEqual(['WARNINGS: 2', 2]);
    await pve.waitForTask('pve1', await pve.stopVm('pve1', vmid), WAIT);
  });

  test('a dropped connection is retried for a GET and never for a POST', async () => {
    const pve = client();
    await simControl('DELETE', '/sim/calls');
    await simControl('POST', '/sim/faults', {
      method: 'GET',
      path: '^/cluster/status$',
      drop: true,
      count: 1,
    });
    expect((await pve.getClusterStatus()).length).toBeGreaterThan(0);
    expect(await callsTo('GET', /^\/cluster\/status$/)).toBe(2);

    await simControl('POST', '/sim/faults', {
      method: 'POST',
      path: '/qemu/9001/clone$',
      drop: true,
      count: 1,
    });
    const error = await pve.cloneVm('pve1', 9001, { newid: 4900 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreachableError);
    expect(await callsTo('POST', /\/qemu\/9001\/clone$/)).toBe(1);
  });
});
