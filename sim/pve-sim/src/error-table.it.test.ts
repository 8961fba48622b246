import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, data, runTask, waitTask } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

// Every row of the reference's error table (shared/reference/proxmox-api.md §2.2), over real HTTPS.
let sim: PveSim;
beforeAll(async () => {
  sim = await startPveSim({ taskMs: 150 });
});
afterAll(async () => {
  await sim.close();
});

async function cloneOf(
  template: number,
  newid: number,
  params: Record<string, string | number> = {},
): Promise<void> {
  const task = await runTask(sim, 'POST', `/nodes/pve1/qemu/${template}/clone`, {
    params: { newid, ...params },
  });
  expect(task.exitstatus).toBe('OK');
}

function expectPveError(reply: Awaited<ReturnType<typeof call>>, status: number, message: string): void {
  expect(reply.status).toBe(status);
  expect(reply.statusMessage).toBe(message);
  expect(reply.headers['content-type']).toBe('application/json;charset=UTF-8');
  expect(reply.json).toMatchObject({ data: null, message: `${message}\n` });
}

describe('a VM that does not exist', () => {
  const missing = "Configuration file 'nodes/pve1/qemu-server/4242.conf' does not exist";
  test.each([
    ['GET', '/nodes/pve1/qemu/4242/config', {}],
    ['GET', '/nodes/pve1/qemu/4242/status/current', {}],
    ['POST', '/nodes/pve1/qemu/4242/clone', { newid: 4243 }],
    ['DELETE', '/nodes/pve1/qemu/4242', {}],
    ['POST', '/nodes/pve1/qemu/4242/vncproxy', { websocket: 1 }],
  ])('%s %s answers 500 synchronously', async (method, path, params) => {
    expectPveError(await call(sim, method, path, { params }), 500, missing);
  });

  test.each([['status/start'], ['status/stop']])('%s fails inside the task', async (action) => {
    const task = await runTask(sim, 'POST', `/nodes/pve1/qemu/4242/${action}`);
    expect(task.exitstatus).toBe(missing);
    expect(task.log.at(-1)).toBe(`TASK ERROR: ${missing}`);
  });

  test('resize fails inside the task', async () => {
    const task = await runTask(sim, 'PUT', '/nodes/pve1/qemu/4242/resize', {
      params: { disk: 'scsi0', size: '+1G' },
    });
    expect(task.exitstatus).toBe(missing);
  });

  test('a VM on another node is missing on this one', async () => {
    expectPveError(
      await call(sim, 'GET', '/nodes/pve2/qemu/100/config'),
      500,
      "Configuration file 'nodes/pve2/qemu-server/100.conf' does not exist",
    );
  });
});

describe('locks', () => {
  test('config POST and PUT on a locked VM, and a locked clone source, answer "VM is locked (backup)"', async () => {
    const upid = await data<string>(sim, 'POST', '/nodes/pve1/vzdump', {
      params: { vmid: 100, storage: 'local', mode: 'snapshot' },
    });
    for (const method of ['POST', 'PUT']) {
      expectPveError(
        await call(sim, method, '/nodes/pve1/qemu/100/config', { params: { description: 'x' } }),
        500,
        'VM is locked (backup)',
      );
    }
    expectPveError(
      await call(sim, 'POST', '/nodes/pve1/qemu/100/clone', { params: { newid: 777 } }),
      500,
      'VM is locked (backup)',
    );
    expect((await waitTask(sim, upid)).exitstatus).toBe('OK');
    expect(
      (await call(sim, 'PUT', '/nodes/pve1/qemu/100/config', { params: { description: 'after' } })).status,
    ).toBe(200);
  });

  test('start of a locked VM fails inside the task', async () => {
    await cloneOf(9000, 510);
    const upid = await data<string>(sim, 'POST', '/nodes/pve1/vzdump', {
      params: { vmid: 510, storage: 'local' },
    });
    const start = await runTask(sim, 'POST', '/nodes/pve1/qemu/510/status/start');
    expect(start.exitstatus).toBe('VM is locked (backup)');
    await waitTask(sim, upid);
  });
});

describe('VMIDs', () => {
  test('nextid with a taken VMID answers 400 with errors.vmid', async () => {
    const reply = await call(sim, 'GET', '/cluster/nextid', { params: { vmid: 100 } });
    expect(reply.status).toBe(400);
    expect(reply.statusMessage).toBe('Parameter verification failed.');
    expect(reply.json.errors).toEqual({ vmid: 'VM 100 already exists' });
  });

  test('nextid is a JSON string and not a reservation', async () => {
    const first = await data<string>(sim, 'GET', '/cluster/nextid');
    expect(typeof first).toBe('string');
    expect(await data<string>(sim, 'GET', '/cluster/nextid')).toBe(first);
  });

  test('create and restore on a used VMID', async () => {
    expectPveError(
      await call(sim, 'POST', '/nodes/pve1/qemu', { params: { vmid: 100, memory: 512 } }),
      500,
      "unable to create VM 100 - VM 100 already exists on node 'pve1'",
    );
  });

  test('clone onto a VMID whose config exists on the target node', async () => {
    expectPveError(
      await call(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 100 } }),
      500,
      'unable to create VM 100: config file already exists',
    );
  });
});

describe('destroy', () => {
  test('a running VM is not destroyed', async () => {
    expectPveError(
      await call(sim, 'DELETE', '/nodes/pve1/qemu/100'),
      500,
      'VM 100 is running - destroy failed',
    );
  });

  test('a protected VM is not destroyed', async () => {
    await cloneOf(9000, 520);
    await data(sim, 'PUT', '/nodes/pve1/qemu/520/config', { params: { protection: 1 } });
    expectPveError(
      await call(sim, 'DELETE', '/nodes/pve1/qemu/520'),
      500,
      "can't remove VM 520 - protection mode enabled",
    );
  });
});

describe('power', () => {
  test('reboot of a stopped VM', async () => {
    await cloneOf(9000, 530);
    expectPveError(await call(sim, 'POST', '/nodes/pve1/qemu/530/status/reboot'), 500, 'VM 530 not running');
  });

  test('start of a running VM and of a template fail inside the task', async () => {
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/100/status/start')).exitstatus).toBe(
      'VM 100 already running',
    );
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/status/start')).exitstatus).toBe(
      "you can't start a vm if it's a template",
    );
  });

  test('shutdown of a guest that ignores ACPI times out unless forceStop', async () => {
    await cloneOf(9000, 540);
    expect((await runTask(sim, 'POST', '/nodes/pve1/qemu/540/status/start')).exitstatus).toBe('OK');
    await data(sim, 'POST', '/sim/vms/540/behaviour', { json: { ignoreShutdown: true } });
    expect(
      (await runTask(sim, 'POST', '/nodes/pve1/qemu/540/status/shutdown', { params: { timeout: 1 } }))
        .exitstatus,
    ).toBe('VM quit/powerdown failed - got timeout');
    expect(
      (await runTask(sim, 'POST', '/nodes/pve1/qemu/540/status/shutdown', { params: { forceStop: 1 } }))
        .exitstatus,
    ).toBe('OK');
    expect((await data<{ status: string }>(sim, 'GET', '/nodes/pve1/qemu/540/status/current')).status).toBe(
      'stopped',
    );
  });
});

test('config POST with nothing to set', async () => {
  expectPveError(await call(sim, 'POST', '/nodes/pve1/qemu/100/config'), 500, 'no options specified');
});

describe('storage', () => {
  test('contention on the storage lock fails the clone inside the task', async () => {
    const busy = await startPveSim({ taskMs: 60, storageLockTimeoutMs: 20 });
    try {
      const upids = await Promise.all(
        [601, 602].map((newid) =>
          data<string>(busy, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid, full: 1 } }),
        ),
      );
      const results = await Promise.all(upids.map((u) => waitTask(busy, u)));
      expect(results.map((r) => r.exitstatus).sort()).toEqual([
        'OK',
        "clone failed: can't lock file '/var/lock/pve-manager/pve-storage-local-lvm' - got timeout",
      ]);
    } finally {
      await busy.close();
    }
  });

  test('a full storage fails clone and vzdump inside their tasks', async () => {
    const small = await startPveSim({
      taskMs: 5,
      scenario: {
        nodes: [
          {
            name: 'pve',
            storages: [
              { id: 'local', type: 'dir', content: ['backup', 'iso'], sizeGiB: 1, usedGiB: 0.999 },
              { id: 'local-lvm', type: 'lvmthin', content: ['images'], sizeGiB: 40 },
            ],
            vms: [
              { vmid: 9000, name: 'tpl', template: true, diskGiB: 20 },
              { vmid: 100, name: 'big', running: true, diskGiB: 16 },
            ],
          },
        ],
      },
    });
    try {
      const clone = await runTask(small, 'POST', '/nodes/pve/qemu/9000/clone', {
        params: { newid: 200, full: 1 },
      });
      expect(clone.exitstatus).toMatch(
        /^clone failed: lvcreate 'pve\/vm-200-disk-0' error: .*insufficient free space/,
      );
      expect((await call(small, 'GET', '/nodes/pve/qemu/200/config')).status).toBe(500);
      const backup = await runTask(small, 'POST', '/nodes/pve/vzdump', {
        params: { vmid: 100, storage: 'local', compress: 'zstd' },
      });
      expect(backup.exitstatus).toBe('job errors');
      expect(backup.log.join('\n')).toContain('No space left on device');
    } finally {
      await small.close();
    }
  });
});
