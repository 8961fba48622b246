import { afterAll, beforeAll, expect, test } from 'vitest';
import { call, data, runTask, waitTask } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

let sim: PveSim;
beforeAll(async () => {
  sim = await startPveSim({ taskMs: 60 });
  expect(
    (
      await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', {
        params: { newid: 300, name: 'web', full: 1 },
      })
    ).exitstatus,
  ).toBe('OK');
  await data(sim, 'PUT', '/nodes/pve1/qemu/300/config', { params: { cores: 2, tags: 'prod' } });
  await data(sim, 'POST', '/nodes/pve1/qemu/300/firewall/rules', {
    params: { type: 'out', action: 'DROP', proto: 'tcp', dport: '25', enable: 1 },
  });
});
afterAll(async () => {
  await sim.close();
});

type Config = Record<string, string | number>;
interface Backup {
  volid: string;
  format: string;
  size: number;
  ctime: number;
  content: string;
  subtype: string;
  vmid: number;
  notes?: string;
}

test('vzdump holds lock backup, names the archive after vmid and local time, and lists it as backup content', async () => {
  const upid = await data<string>(sim, 'POST', '/nodes/pve1/vzdump', {
    params: {
      vmid: 300,
      mode: 'snapshot',
      compress: 'zstd',
      storage: 'local',
      'notes-template': '{{guestname}} on {{node}}',
    },
  });
  expect(upid).toMatch(/:vzdump:300:root@pam!sim:$/);
  expect((await data<Config>(sim, 'GET', '/nodes/pve1/qemu/300/config')).lock).toBe('backup');
  const task = await waitTask(sim, upid);
  expect(task.exitstatus).toBe('OK');
  expect(task.log).toContain('INFO: Backup job finished successfully');
  expect((await data<Config>(sim, 'GET', '/nodes/pve1/qemu/300/config')).lock).toBeUndefined();
  const list = await data<Backup[]>(sim, 'GET', '/nodes/pve1/storage/local/content', {
    params: { content: 'backup', vmid: 300 },
  });
  expect(list).toHaveLength(1);
  const [backup] = list;
  expect(backup?.volid).toMatch(
    /^local:backup\/vzdump-qemu-300-\d{4}_\d{2}_\d{2}-\d{2}_\d{2}_\d{2}\.vma\.zst$/,
  );
  const d = new Date((backup?.ctime ?? 0) * 1000);
  const p = (n: number) => String(n).padStart(2, '0');
  expect(backup?.volid).toContain(
    `${d.getFullYear()}_${p(d.getMonth() + 1)}_${p(d.getDate())}-${p(d.getHours())}_${p(d.getMinutes())}`,
  );
  expect(backup).toMatchObject({
    format: 'vma.zst',
    content: 'backup',
    subtype: 'qemu',
    vmid: 300,
    notes: 'web on pve1',
  });
  expect(backup?.size).toBeGreaterThan(0);
});

test('vzdump of a VM on another node answers a plain "OK"', async () => {
  expect(await data(sim, 'POST', '/nodes/pve2/vzdump', { params: { vmid: 300, storage: 'local' } })).toBe(
    'OK',
  );
});

test('restore brings back config, firewall and MAC with unique=0, new MACs with unique=1', async () => {
  const [backup] = await data<Backup[]>(sim, 'GET', '/nodes/pve1/storage/local/content', {
    params: { content: 'backup', vmid: 300 },
  });
  const archive = backup?.volid ?? '';
  const original = await data<Config>(sim, 'GET', '/nodes/pve1/qemu/300/config');
  await data(sim, 'PUT', '/nodes/pve1/qemu/300/config', {
    params: { cores: 8, net0: 'virtio,bridge=vmbr9' },
  });
  await data(sim, 'DELETE', '/nodes/pve1/qemu/300/firewall/rules/0');

  const refused = await call(sim, 'POST', '/nodes/pve1/qemu', { params: { vmid: 300, archive } });
  expect([refused.status, refused.statusMessage]).toEqual([
    500,
    "unable to restore VM 300 - VM 300 already exists on node 'pve1'",
  ]);
  const conflict = await call(sim, 'POST', '/nodes/pve1/qemu', {
    params: { vmid: 300, archive, force: 1, scsi0: 'local-lvm:4' },
  });
  expect(conflict.json.errors).toEqual({ scsi0: "option conflicts with option 'archive'" });

  const upid = await data<string>(sim, 'POST', '/nodes/pve1/qemu', {
    params: { vmid: 300, archive, force: 1 },
  });
  expect(upid).toMatch(/:qmrestore:300:/);
  expect((await data<Config>(sim, 'GET', '/nodes/pve1/qemu/300/config')).lock).toBe('create');
  expect((await waitTask(sim, upid)).exitstatus).toBe('OK');
  const restored = await data<Config>(sim, 'GET', '/nodes/pve1/qemu/300/config');
  expect(restored.cores).toBe(original.cores);
  expect(restored.net0).toBe(original.net0);
  expect(restored.tags).toBe('prod');
  expect((await data<unknown[]>(sim, 'GET', '/nodes/pve1/qemu/300/firewall/rules')).length).toBe(1);

  expect(
    (await runTask(sim, 'POST', '/nodes/pve1/qemu', { params: { vmid: 301, archive, unique: 1, start: 1 } }))
      .exitstatus,
  ).toBe('OK');
  const copy = await data<Config>(sim, 'GET', '/nodes/pve1/qemu/301/config');
  expect(copy.name).toBe('web');
  expect(copy.net0).not.toBe(original.net0);
  expect(copy.scsi0).toMatch(/^local-lvm:vm-301-disk-0,/);
  expect((await data<{ status: string }>(sim, 'GET', '/nodes/pve1/qemu/301/status/current')).status).toBe(
    'running',
  );
});

test('restore over a running VM fails inside the task', async () => {
  const [backup] = await data<Backup[]>(sim, 'GET', '/nodes/pve1/storage/local/content', {
    params: { content: 'backup', vmid: 300 },
  });
  const task = await runTask(sim, 'POST', '/nodes/pve1/qemu', {
    params: { vmid: 301, archive: backup?.volid ?? '', force: 1 },
  });
  expect(task.exitstatus).toBe('unable to restore VM 301 - vm is running');
  expect((await data<Config>(sim, 'GET', '/nodes/pve1/qemu/301/config')).lock).toBeUndefined();
});

test('force without archive is refused; a missing archive is named', async () => {
  const reply = await call(sim, 'POST', '/nodes/pve1/qemu', { params: { vmid: 302, force: 1 } });
  expect(reply.json.errors).toEqual({ archive: "missing property - 'force' requires this property" });
  const missing = await call(sim, 'POST', '/nodes/pve1/qemu', {
    params: { vmid: 302, archive: 'local:backup/none.vma.zst' },
  });
  expect(missing.statusMessage).toBe("volume 'local:backup/none.vma.zst' does not exist");
});

test('deleting backup content runs an imgdel task and frees the space', async () => {
  const before = await data<{ used: number }>(sim, 'GET', '/nodes/pve1/storage/local/status');
  const [backup] = await data<Backup[]>(sim, 'GET', '/nodes/pve1/storage/local/content', {
    params: { content: 'backup', vmid: 300 },
  });
  const task = await runTask(
    sim,
    'DELETE',
    `/nodes/pve1/storage/local/content/${encodeURIComponent(backup?.volid ?? '')}`,
  );
  expect(task.exitstatus).toBe('OK');
  const after = await data<{ used: number }>(sim, 'GET', '/nodes/pve1/storage/local/status');
  expect(before.used - after.used).toBe(backup?.size);
  expect(
    await data(sim, 'GET', '/nodes/pve1/storage/local/content', { params: { content: 'backup', vmid: 300 } }),
  ).toEqual([]);
});
