import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, data, runTask, waitTask } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

let sim: PveSim;
beforeAll(async () => {
  sim = await startPveSim({ taskMs: 80 });
});
afterAll(async () => {
  await sim.close();
});

type Config = Record<string, string | number>;
const config = (vmid: number, params: Record<string, string | number> = {}) =>
  data<Config>(sim, 'GET', `/nodes/pve1/qemu/${vmid}/config`, { params });

async function clone(newid: number, params: Record<string, string | number> = {}): Promise<void> {
  expect(
    (await runTask(sim, 'POST', `/nodes/pve1/qemu/9000/clone`, { params: { newid, ...params } })).exitstatus,
  ).toBe('OK');
}

describe('clone', () => {
  test('locks the new VMID while it runs, then leaves a named, unlocked copy with fresh MACs', async () => {
    const template = await config(9000);
    const upid = await data<string>(sim, 'POST', '/nodes/pve1/qemu/9000/clone', {
      params: { newid: 700, name: 'NR-0b6f7f3e-1c1a-4c44-9f55-3b5d3b7c2a10', full: 1, storage: 'local-lvm' },
    });
    expect(upid).toMatch(/^UPID:pve1:[0-9A-F]{8}:[0-9A-F]{8}:[0-9A-F]{8}:qmclone:9000:root@pam!sim:$/);
    const during = await config(700);
    expect(during.lock).toBe('clone');
    const refused = await call(sim, 'POST', '/nodes/pve1/qemu/700/config', { params: { cores: 2 } });
    expect(refused.statusMessage).toBe('VM is locked (clone)');
    const running = await data<{ status: string }>(
      sim,
      'GET',
      `/nodes/pve1/tasks/${encodeURIComponent(upid)}/status`,
    );
    expect(running.status).toBe('running');
    expect((await waitTask(sim, upid)).exitstatus).toBe('OK');
    const copy = await config(700);
    expect(copy.lock).toBeUndefined();
    expect(copy.template).toBeUndefined();
    expect(copy.name).toBe('NR-0b6f7f3e-1c1a-4c44-9f55-3b5d3b7c2a10');
    expect(copy.scsi0).toMatch(/^local-lvm:vm-700-disk-0,iothread=1,size=3584M$/);
    expect(copy.ide2).toBe('local-lvm:vm-700-cloudinit,media=cdrom');
    expect(copy.net0).toMatch(/^virtio=BC:24:11:[0-9A-F]{2}:[0-9A-F]{2}:[0-9A-F]{2},bridge=vmbr0$/);
    expect(copy.net0).not.toBe(template.net0);
    expect(copy.smbios1).not.toBe(template.smbios1);
  });

  test('names a copy Copy-of-VM-<name> by default and makes linked clones of templates', async () => {
    await clone(701);
    const copy = await config(701);
    expect(copy.name).toBe('Copy-of-VM-ubuntu-2404-cloudinit');
    expect(copy.scsi0).toMatch(/^local-lvm:base-9000-disk-0\/vm-701-disk-0,/);
    const refused = await call(sim, 'POST', '/nodes/pve1/qemu/9000/clone', {
      params: { newid: 702, storage: 'local-lvm' },
    });
    expect([refused.status, refused.statusMessage]).toEqual([
      500,
      "parameter 'storage' not allowed for linked clones",
    ]);
  });

  test('copies the source firewall', async () => {
    await data(sim, 'POST', '/nodes/pve1/qemu/100/firewall/rules', {
      params: { type: 'in', action: 'ACCEPT', proto: 'tcp', dport: 22, enable: 1 },
    });
    expect(
      (await runTask(sim, 'POST', '/nodes/pve1/qemu/100/clone', { params: { newid: 703 } })).exitstatus,
    ).toBe('OK');
    const rules = await data<{ dport: string }[]>(sim, 'GET', '/nodes/pve1/qemu/703/firewall/rules');
    expect(rules.map((r) => r.dport)).toEqual(['22']);
  });

  test('two clones to the same newid at once: exactly one succeeds', async () => {
    const replies = await Promise.all(
      [9000, 9001].map((src) =>
        call(sim, 'POST', `/nodes/pve1/qemu/${src}/clone`, { params: { newid: 710, full: 1 } }),
      ),
    );
    const ok = replies.filter((r) => r.status === 200);
    const failed = replies.filter((r) => r.status !== 200);
    expect(ok).toHaveLength(1);
    expect(failed.map((r) => [r.status, r.statusMessage])).toEqual([
      [500, 'unable to create VM 710: config file already exists'],
    ]);
    expect((await waitTask(sim, ok[0]?.json.data as string)).exitstatus).toBe('OK');
  });

  test('cloning to another node with local storage is refused', async () => {
    const reply = await call(sim, 'POST', '/nodes/pve1/qemu/9000/clone', {
      params: { newid: 711, target: 'pve2', full: 1 },
    });
    expect(reply.statusMessage).toBe("can't clone VM to node 'pve2' (VM uses local storage)");
  });
});

describe('config', () => {
  test('stores NICs, tags, ipconfig and sshkeys canonically and renders numbers as PVE does', async () => {
    await clone(720);
    const keys = ['ssh-ed25519 AAAAC3Nza+/x= alice@example', 'ssh-rsa AAAAB3 bob@example'];
    await data(sim, 'PUT', '/nodes/pve1/qemu/720/config', {
      params: {
        net0: 'virtio,bridge=vmbr1,tag=100,firewall=1,rate=12.5',
        tags: 'Web;db,web',
        ipconfig0: 'ip=203.0.113.10/24,gw=203.0.113.1,ip6=2001:db8::10/64,gw6=2001:db8::1',
        sshkeys: encodeURIComponent(keys.join('\n')),
        memory: 2048,
        cores: 2,
        description: 'managed by NodeRings',
        nameserver: '203.0.113.53 2001:db8::53',
      },
    });
    const c = await config(720);
    expect(c.net0).toMatch(/^virtio=BC:24:11:[0-9A-F:]{8},bridge=vmbr1,firewall=1,rate=12.5,tag=100$/);
    expect(c.tags).toBe('db;web');
    expect(c.ipconfig0).toBe('ip=203.0.113.10/24,gw=203.0.113.1,ip6=2001:db8::10/64,gw6=2001:db8::1');
    expect(decodeURIComponent(String(c.sshkeys))).toBe(keys.join('\n'));
    expect(c.memory).toBe('2048');
    expect(c.cores).toBe(2);
    expect(c.description).toBe('managed by NodeRings\n');
    expect(typeof c.digest).toBe('string');
  });

  test('a MAC given in the NIC is kept, upper-cased', async () => {
    await data(sim, 'PUT', '/nodes/pve1/qemu/720/config', {
      params: { net0: 'model=virtio,macaddr=bc:24:11:00:00:2a,bridge=vmbr0' },
    });
    expect((await config(720)).net0).toBe('virtio=BC:24:11:00:00:2A,bridge=vmbr0');
  });

  test('bad values answer 400 with per-parameter errors and change nothing', async () => {
    const before = await config(720);
    const reply = await call(sim, 'PUT', '/nodes/pve1/qemu/720/config', {
      params: {
        cores: 'two',
        sshkeys: 'ssh-rsa AAAA x@y',
        net0: 'virtio,tag=5000',
        bogus: 1,
        onboot: 'true',
        name: 'bad_name!',
      },
    });
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toEqual({
      cores: "type check ('integer') failed - got 'two'",
      sshkeys: 'invalid format - invalid urlencoded string: ssh-rsa AAAA x@y',
      net0: 'invalid format - format error\nnet0.tag: value must have a maximum value of 4094',
      bogus: 'property is not defined in schema and the schema does not allow additional properties',
      onboot: "type check ('boolean') failed - got 'true'",
      name: 'invalid format - value does not look like a valid DNS name',
    });
    expect(await config(720)).toEqual(before);
  });

  test('a VMID that is not one answers PVE verification errors', async () => {
    const reply = await call(sim, 'GET', '/nodes/pve1/qemu/-1/config');
    expect(reply.status).toBe(400);
    expect(reply.json.errors?.vmid).toBe('invalid format - value does not look like a valid VM ID');
    const word = await call(sim, 'GET', '/nodes/pve1/qemu/abc/config');
    expect(word.json.errors?.vmid).toBe("type check ('integer') failed - got 'abc'");
  });

  test('a stale digest is refused', async () => {
    const { digest } = await config(720);
    await data(sim, 'PUT', '/nodes/pve1/qemu/720/config', { params: { description: 'changed' } });
    const reply = await call(sim, 'PUT', '/nodes/pve1/qemu/720/config', {
      params: { description: 'again', digest: String(digest) },
    });
    expect([reply.status, reply.statusMessage]).toEqual([
      500,
      'checksum mismatch (file change by other user?)',
    ]);
  });

  test('on a running VM, CPU and memory wait as pending until the next start; cloud-init keys apply at once', async () => {
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/720/status/start')).exitstatus).toBe('OK');
    const upid = await data<string>(sim, 'POST', '/nodes/pve1/qemu/720/config', {
      params: { cores: 4, memory: 4096, ciuser: 'nr', delete: 'description' },
    });
    expect((await waitTask(sim, upid)).exitstatus).toBe('OK');
    expect((await config(720)).cores).toBe(4);
    expect((await config(720, { current: 1 })).cores).toBe(2);
    expect((await config(720, { current: 1 })).ciuser).toBe('nr');
    const pending = await data<{ key: string; value?: unknown; pending?: unknown }[]>(
      sim,
      'GET',
      '/nodes/pve1/qemu/720/pending',
    );
    expect(pending.find((p) => p.key === 'cores')).toEqual({ key: 'cores', value: 2, pending: 4 });
    expect((await config(720, { current: 1 })).description).toBeUndefined();
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/720/status/stop')).exitstatus).toBe('OK');
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/720/status/start')).exitstatus).toBe('OK');
    expect((await config(720, { current: 1 })).cores).toBe(4);
    expect((await config(720, { current: 1 })).memory).toBe('4096');
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/720/status/stop')).exitstatus).toBe('OK');
  });

  test('resize grows by +size or to an absolute size and never shrinks', async () => {
    expect(
      (await runTask(sim, 'PUT', '/nodes/pve1/qemu/720/resize', { params: { disk: 'scsi0', size: '+10G' } }))
        .exitstatus,
    ).toBe('OK');
    expect((await config(720)).scsi0).toMatch(/size=13824M$/);
    expect(
      (await runTask(sim, 'PUT', '/nodes/pve1/qemu/720/resize', { params: { disk: 'scsi0', size: '40G' } }))
        .exitstatus,
    ).toBe('OK');
    expect((await config(720)).scsi0).toMatch(/size=40G$/);
    expect(
      (await runTask(sim, 'PUT', '/nodes/pve1/qemu/720/resize', { params: { disk: 'scsi0', size: '20G' } }))
        .exitstatus,
    ).toBe('shrinking disks is not supported');
    expect(
      (await runTask(sim, 'PUT', '/nodes/pve1/qemu/720/resize', { params: { disk: 'scsi5', size: '+1G' } }))
        .exitstatus,
    ).toBe("disk 'scsi5' does not exist");
  });
});

describe('power and usage', () => {
  test('counters grow while running and start again from zero after stop/start; stop of a stopped VM is OK', async () => {
    await clone(730);
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/730/status/stop')).exitstatus).toBe('OK');
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/730/status/shutdown')).exitstatus).toBe('OK');
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/730/status/start')).exitstatus).toBe('OK');
    const first = await data<Record<string, number | string>>(
      sim,
      'GET',
      '/nodes/pve1/qemu/730/status/current',
    );
    await new Promise((r) => setTimeout(r, 1100));
    const second = await data<Record<string, number | string>>(
      sim,
      'GET',
      '/nodes/pve1/qemu/730/status/current',
    );
    expect(second.status).toBe('running');
    for (const key of ['netin', 'netout', 'diskread', 'diskwrite', 'uptime'] as const) {
      expect(Number(second[key])).toBeGreaterThan(Number(first[key]));
    }
    expect(Number(second.cpu)).toBeGreaterThan(0);
    expect(Number(second.cpu)).toBeLessThanOrEqual(1);
    expect(second.maxmem).toBe(1024 * 1024 * 1024);
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/730/status/reboot')).exitstatus).toBe('OK');
    const rebooted = await data<Record<string, number>>(sim, 'GET', '/nodes/pve1/qemu/730/status/current');
    expect(rebooted.netin).toBeLessThan(Number(second.netin));
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/730/status/stop')).exitstatus).toBe('OK');
    const stopped = await data<Record<string, number | string>>(
      sim,
      'GET',
      '/nodes/pve1/qemu/730/status/current',
    );
    expect([stopped.status, stopped.netin, stopped.uptime]).toEqual(['stopped', 0, 0]);
  });

  test('DELETE with purge removes the VM, its disks and its firewall', async () => {
    await clone(740, { full: 1 });
    await data(sim, 'PUT', '/nodes/pve1/qemu/740/firewall/options', { params: { enable: 1 } });
    const before = await data<{ volid: string }[]>(sim, 'GET', '/nodes/pve1/storage/local-lvm/content', {
      params: { vmid: 740 },
    });
    expect(before.map((v) => v.volid).sort()).toEqual([
      'local-lvm:vm-740-cloudinit',
      'local-lvm:vm-740-disk-0',
    ]);
    expect(
      (
        await runTask(sim, 'DELETE', '/nodes/pve1/qemu/740', {
          params: { purge: 1, 'destroy-unreferenced-disks': 1 },
        })
      ).exitstatus,
    ).toBe('OK');
    expect((await call(sim, 'GET', '/nodes/pve1/qemu/740/config')).status).toBe(500);
    expect(
      await data(sim, 'GET', '/nodes/pve1/storage/local-lvm/content', { params: { vmid: 740 } }),
    ).toEqual([]);
    expect(await data(sim, 'GET', '/nodes/pve1/qemu/740/firewall/options')).not.toHaveProperty('enable');
  });
});

describe('snapshots', () => {
  test('create, list, rollback and delete, each holding its lock', async () => {
    await clone(750);
    const upid = await data<string>(sim, 'POST', '/nodes/pve1/qemu/750/snapshot', {
      params: { snapname: 'before', description: 'first' },
    });
    expect((await config(750)).lock).toBe('snapshot');
    expect((await waitTask(sim, upid)).exitstatus).toBe('OK');
    await data(sim, 'PUT', '/nodes/pve1/qemu/750/config', { params: { cores: 3 } });
    const list = await data<{ name: string; parent?: string }[]>(sim, 'GET', '/nodes/pve1/qemu/750/snapshot');
    expect(list.map((s) => [s.name, s.parent])).toEqual([
      ['before', undefined],
      ['current', 'before'],
    ]);
    expect(
      (await call(sim, 'POST', '/nodes/pve1/qemu/750/snapshot', { params: { snapname: 'before' } }))
        .statusMessage,
    ).toBe("snapshot name 'before' already used");
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/750/snapshot/before/rollback')).exitstatus).toBe(
      'OK',
    );
    expect((await config(750)).cores).toBe(1);
    expect((await runTask(sim, 'DELETE', '/nodes/pve1/qemu/750/snapshot/before')).exitstatus).toBe('OK');
    expect((await call(sim, 'DELETE', '/nodes/pve1/qemu/750/snapshot/before')).statusMessage).toBe(
      "snapshot 'before' does not exist",
    );
  });
});

describe('tasks', () => {
  test('status goes from running to stopped with exitstatus OK, and the log ends in TASK OK', async () => {
    const upid = await data<string>(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 760 } });
    const path = `/nodes/pve1/tasks/${encodeURIComponent(upid)}`;
    const running = await data<Record<string, unknown>>(sim, 'GET', `${path}/status`);
    expect(running).toMatchObject({
      upid,
      node: 'pve1',
      status: 'running',
      type: 'qmclone',
      id: '9000',
      user: 'root@pam',
      tokenid: 'sim',
    });
    expect(running).not.toHaveProperty('exitstatus');
    const done = await waitTask(sim, upid);
    expect(done.exitstatus).toBe('OK');
    expect(done.log.at(-1)).toBe('TASK OK');
    const lines = await data<{ n: number; t: string }[]>(sim, 'GET', `${path}/log`);
    expect(lines[0]?.n).toBe(1);
  });

  test('a malformed UPID and an unknown one answer 400 with errors.upid', async () => {
    const bad = await call(sim, 'GET', '/nodes/pve1/tasks/nonsense/status');
    expect([bad.status, bad.json.errors]).toEqual([400, { upid: 'unable to parse worker upid' }]);
    const unknown = await call(
      sim,
      'GET',
      `/nodes/pve1/tasks/${encodeURIComponent('UPID:pve1:00FFFFFF:00000001:6B0CF8E1:qmstart:100:root@pam:')}/status`,
    );
    expect([unknown.status, unknown.json.errors]).toEqual([400, { upid: 'no such task' }]);
  });
});

describe('cluster reads', () => {
  test('version, cluster status with the local node, nodes and node status', async () => {
    expect(await data(sim, 'GET', '/version')).toMatchObject({
      version: expect.stringMatching(/^8\./) as string,
      release: '8.4',
    });
    const status = await data<{ type: string; local?: number; name: string }[]>(
      sim,
      'GET',
      '/cluster/status',
    );
    expect(status[0]).toMatchObject({ type: 'cluster', quorate: 1, nodes: 3 });
    expect(status.filter((s) => s.local === 1).map((s) => s.name)).toEqual(['pve1']);
    const nodes = await data<{ node: string; status: string; maxcpu: number; maxmem: number }[]>(
      sim,
      'GET',
      '/nodes',
    );
    expect(nodes.map((n) => [n.node, n.status, n.maxcpu, n.maxmem])).toEqual([
      ['pve1', 'online', 16, 64 * 1024 ** 3],
      ['pve2', 'online', 16, 64 * 1024 ** 3],
      ['pve3', 'online', 16, 64 * 1024 ** 3],
    ]);
    const node = await data<{ cpuinfo: { cpus: number }; memory: { total: number } }>(
      sim,
      'GET',
      '/nodes/pve2/status',
    );
    expect([node.cpuinfo.cpus, node.memory.total]).toEqual([16, 64 * 1024 ** 3]);
    expect((await call(sim, 'GET', '/nodes/nope/status')).statusMessage).toMatch(
      /^hostname lookup 'nope' failed/,
    );
  });

  test('resources by type, with storage and node entries', async () => {
    const vms = await data<{ id: string; type: string; template: number }[]>(
      sim,
      'GET',
      '/cluster/resources',
      { params: { type: 'vm' } },
    );
    expect(vms.every((v) => v.type === 'qemu' && v.id.startsWith('qemu/'))).toBe(true);
    expect(vms.find((v) => v.id === 'qemu/9000')?.template).toBe(1);
    const storage = await data<{ id: string; plugintype: string }[]>(sim, 'GET', '/cluster/resources', {
      params: { type: 'storage' },
    });
    expect(storage.map((s) => s.id)).toContain('storage/pve3/local-lvm');
    const everything = await data<{ type: string }[]>(sim, 'GET', '/cluster/resources');
    expect(new Set(everything.map((e) => e.type))).toEqual(new Set(['node', 'qemu', 'storage']));
  });

  test('with a pvestatd lag, a fresh clone shows status unknown and no name until the next broadcast', async () => {
    const lagging = await startPveSim({ taskMs: 5, resourcesLagMs: 400 });
    try {
      expect(
        (
          await runTask(lagging, 'POST', '/nodes/pve1/qemu/9000/clone', {
            params: { newid: 800, name: 'NR-x' },
          })
        ).exitstatus,
      ).toBe('OK');
      const now = await data<{ vmid: number; status: string; name?: string }[]>(
        lagging,
        'GET',
        '/cluster/resources',
        { params: { type: 'vm' } },
      );
      expect(now.find((v) => v.vmid === 800)).toMatchObject({ status: 'unknown' });
      expect(now.find((v) => v.vmid === 800)).not.toHaveProperty('name');
      await new Promise((r) => setTimeout(r, 500));
      const later = await data<{ vmid: number; status: string; name?: string }[]>(
        lagging,
        'GET',
        '/cluster/resources',
        { params: { type: 'vm' } },
      );
      expect(later.find((v) => v.vmid === 800)).toMatchObject({ status: 'stopped', name: 'NR-x' });
    } finally {
      await lagging.close();
    }
  });
});

describe('config POST with background_delay', () => {
  test('answers null when the update finished in time, the UPID otherwise', async () => {
    await clone(770);
    expect(
      await data(sim, 'POST', '/nodes/pve1/qemu/770/config', {
        params: { description: 'quick', background_delay: 5 },
      }),
    ).toBeNull();
    const slow = await startPveSim({ taskMs: 3000 });
    try {
      const upid = await data<string>(slow, 'POST', '/nodes/pve1/qemu/100/config', {
        params: { description: 'slow', background_delay: 1 },
      });
      expect(upid).toMatch(/:qmconfig:100:/);
    } finally {
      await slow.close();
    }
  });
});

test('presents Proxmox VE 9 when asked', async () => {
  const nine = await startPveSim({ taskMs: 1, pveVersion: 9 });
  try {
    expect(await data(nine, 'GET', '/version')).toMatchObject({ release: '9.0' });
    expect((await data<{ pveversion: string }>(nine, 'GET', '/nodes/pve1/status')).pveversion).toMatch(
      /^pve-manager\/9\./,
    );
  } finally {
    await nine.close();
  }
});
