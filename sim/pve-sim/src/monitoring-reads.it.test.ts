import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, data, runTask, tokenHeader } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

/** The reads a Prometheus exporter makes besides resources and status (prometheus-pve-exporter's list). */

let sim: PveSim;
beforeAll(async () => {
  sim = await startPveSim({
    taskMs: 5,
    tokens: [
      { id: 'root@pam!admin', secret: 'c0ffee00-0000-4000-8000-00000000000a' },
      {
        id: 'vmuser@pve!one',
        secret: 'c0ffee00-0000-4000-8000-00000000000b',
        acl: [{ path: '/vms/100', role: 'PVEVMUser' }],
      },
      {
        id: 'monitor@pve!exporter',
        secret: 'c0ffee00-0000-4000-8000-00000000000c',
        acl: [
          { path: '/', role: 'PVEAuditor' },
          { path: '/vms/9000', role: 'NoAccess' },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await sim.close();
});

const vmUser = () => tokenHeader(sim, 1);
const auditor = () => tokenHeader(sim, 2);

describe('/cluster/backup-info/not-backed-up', () => {
  test('without backup jobs, lists every guest (templates too) with its type and config name', async () => {
    const guests = await data<{ vmid: number; type: string; name?: string }[]>(
      sim,
      'GET',
      '/cluster/backup-info/not-backed-up',
    );
    expect(guests).toEqual(
      Object.values(sim.state.vms).map((vm) => ({ vmid: vm.vmid, type: 'qemu', name: vm.config.name })),
    );
    expect(guests.map((g) => g.vmid)).toEqual(expect.arrayContaining([100, 9000, 9001]));
  });

  test('a guest whose config has no name is listed without one', async () => {
    expect(
      (await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 300 } })).exitstatus,
    ).toBe('OK');
    await data(sim, 'PUT', '/nodes/pve1/qemu/300/config', { params: { delete: 'name' } });
    const guests = await data<{ vmid: number; name?: string }[]>(
      sim,
      'GET',
      '/cluster/backup-info/not-backed-up',
    );
    expect(guests.find((g) => g.vmid === 300)).toEqual({ vmid: 300, type: 'qemu' });
    expect((await runTask(sim, 'DELETE', '/nodes/pve1/qemu/300')).exitstatus).toBe('OK');
  });

  test('needs Sys.Audit on /, and leaves out guests the caller may not audit', async () => {
    const denied = await call(sim, 'GET', '/cluster/backup-info/not-backed-up', { token: vmUser() });
    expect([denied.status, denied.statusMessage]).toEqual([403, 'Permission check failed (/, Sys.Audit)']);
    const seen = await data<{ vmid: number }[]>(sim, 'GET', '/cluster/backup-info/not-backed-up', {
      token: auditor(),
    });
    expect(seen.map((g) => g.vmid)).not.toContain(9000);
    expect(seen.map((g) => g.vmid)).toContain(9001);
  });
});

describe('/cluster/config/qdevice', () => {
  test('answers an empty object: the simulated cluster has no QDevice', async () => {
    expect(await data(sim, 'GET', '/cluster/config/qdevice', { token: auditor() })).toEqual({});
    const denied = await call(sim, 'GET', '/cluster/config/qdevice', { token: vmUser() });
    expect(denied.statusMessage).toBe('Permission check failed (/, Sys.Audit)');
  });
});

describe('node reads', () => {
  test('no containers and no replication jobs on any node', async () => {
    expect(await data(sim, 'GET', '/nodes/pve2/lxc')).toEqual([]);
    expect(await data(sim, 'GET', '/nodes/pve2/replication')).toEqual([]);
    expect(await data(sim, 'GET', '/nodes/pve2/replication', { params: { guest: 101 } })).toEqual([]);
    const unknown = await call(sim, 'GET', '/nodes/pve9/lxc');
    expect(unknown.status).toBe(500);
    expect(unknown.statusMessage).toMatch(/^hostname lookup 'pve9' failed/);
  });

  test('subscription: no key, as PVE answers it; the server id only for Sys.Audit on the node', async () => {
    const full = await data<Record<string, string>>(sim, 'GET', '/nodes/pve1/subscription', {
      token: auditor(),
    });
    expect(full).toEqual({
      status: 'notfound',
      message: 'There is no subscription key',
      url: 'https://www.proxmox.com/en/proxmox-virtual-environment/pricing',
      serverid: expect.stringMatching(/^[0-9A-F]{32}$/) as unknown,
    });
    const other = await data<Record<string, string>>(sim, 'GET', '/nodes/pve2/subscription');
    expect(other.serverid).not.toBe(full.serverid);
    const restricted = await data<Record<string, string>>(sim, 'GET', '/nodes/pve1/subscription', {
      token: vmUser(),
    });
    expect(restricted).not.toHaveProperty('serverid');
    expect(restricted.status).toBe('notfound');
  });
});
