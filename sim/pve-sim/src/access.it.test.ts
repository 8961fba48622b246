import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, data, runTask, tokenHeader } from './api-test-client.js';
import { startPveSim, type PveSim } from './pve-sim.js';

let sim: PveSim;
beforeAll(async () => {
  sim = await startPveSim({
    taskMs: 5,
    tokens: [
      { id: 'root@pam!admin', secret: 'c0ffee00-0000-4000-8000-000000000001' },
      {
        id: 'operator@pve!nr',
        secret: 'c0ffee00-0000-4000-8000-000000000002',
        acl: [
          { path: '/vms/100', role: 'PVEVMUser' },
          { path: '/storage/local', privileges: ['Datastore.Audit'] },
        ],
      },
    ],
    users: [{ userid: 'root@pam', password: 'hunter2' }],
  });
});
afterAll(async () => {
  await sim.close();
});

describe('API tokens', () => {
  test('the token header is split at its last "="', async () => {
    expect(await data(sim, 'GET', '/version')).toHaveProperty('version');
  });

  test('a wrong secret answers 401 with the reason in the status line and an empty body', async () => {
    const reply = await call(sim, 'GET', '/version', { token: 'PVEAPIToken=root@pam!admin=wrong' });
    expect([reply.status, reply.statusMessage, reply.text]).toEqual([401, 'Authentication failed!', '']);
    expect(reply.headers['content-type']).toBeUndefined();
  });

  test('no credentials at all answer 401 No ticket', async () => {
    const reply = await call(sim, 'GET', '/nodes', { token: null });
    expect([reply.status, reply.statusMessage, reply.text]).toEqual([401, 'No ticket', '']);
  });
});

describe('ACLs', () => {
  const limited = () => tokenHeader(sim, 1);

  test('an ACL-limited token works inside its path and is denied outside it with PVE 403', async () => {
    const status = await data<{ status: string }>(sim, 'GET', '/nodes/pve1/qemu/100/status/current', {
      token: limited(),
    });
    expect(status.status).toBe('running');
    const other = await call(sim, 'GET', '/nodes/pve2/qemu/101/status/current', { token: limited() });
    expect([other.status, other.statusMessage]).toEqual([
      403,
      'Permission check failed (/vms/101, VM.Audit)',
    ]);
    expect(other.json).toEqual({ data: null, message: 'Permission check failed (/vms/101, VM.Audit)\n' });
  });

  test('a role without VM.Allocate cannot clone or destroy', async () => {
    const clone = await call(sim, 'POST', '/nodes/pve1/qemu/100/clone', {
      params: { newid: 900 },
      token: limited(),
    });
    expect(clone.statusMessage).toBe('Permission check failed (/vms/100, VM.Clone)');
    const destroy = await call(sim, 'DELETE', '/nodes/pve1/qemu/100', { token: limited() });
    expect(destroy.statusMessage).toBe('Permission check failed (/vms/100, VM.Allocate)');
  });

  test('config changes need the privilege of each key', async () => {
    const memory = await call(sim, 'PUT', '/nodes/pve1/qemu/100/config', {
      params: { memory: 8192 },
      token: limited(),
    });
    expect(memory.statusMessage).toBe('Permission check failed (/vms/100, VM.Config.Memory)');
    const ci = await call(sim, 'PUT', '/nodes/pve1/qemu/100/config', {
      params: { ciuser: 'nr' },
      token: limited(),
    });
    expect(ci.status).toBe(200);
  });

  test('listings only show what the token may see', async () => {
    const vms = await data<{ vmid: number }[]>(sim, 'GET', '/cluster/resources', {
      params: { type: 'vm' },
      token: limited(),
    });
    expect(vms.map((v) => v.vmid)).toEqual([100]);
    const storages = await data<{ storage: string }[]>(sim, 'GET', '/nodes/pve1/storage', {
      token: limited(),
    });
    expect(storages.map((s) => s.storage)).toEqual(['local']);
    const denied = await call(sim, 'GET', '/nodes/pve1/storage/local-lvm/status', { token: limited() });
    expect(denied.statusMessage).toBe(
      'Permission check failed (/storage/local-lvm, Datastore.Audit|Datastore.AllocateSpace)',
    );
  });
});

describe('ticket login', () => {
  async function login(): Promise<{ ticket: string; CSRFPreventionToken: string }> {
    return data(sim, 'POST', '/access/ticket', {
      params: { username: 'root@pam', password: 'hunter2' },
      token: null,
    });
  }

  test('returns a PVE ticket and CSRF token; GET needs only the cookie, writes need the CSRF header', async () => {
    const { ticket, CSRFPreventionToken } = await login();
    expect(ticket).toMatch(/^PVE:root@pam:[0-9A-F]{8}::/);
    expect(CSRFPreventionToken).toMatch(/^[0-9A-F]{8}:/);
    const cookie = `PVEAuthCookie=${encodeURIComponent(ticket)}`;
    expect((await call(sim, 'GET', '/nodes', { token: null, headers: { Cookie: cookie } })).status).toBe(200);
    const noCsrf = await call(sim, 'PUT', '/nodes/pve1/qemu/100/config', {
      params: { description: 'x' },
      token: null,
      headers: { Cookie: cookie },
    });
    expect([noCsrf.status, noCsrf.statusMessage, noCsrf.text]).toEqual([
      401,
      'Permission denied - invalid csrf token',
      '',
    ]);
    const withCsrf = await call(sim, 'PUT', '/nodes/pve1/qemu/100/config', {
      params: { description: 'x' },
      token: null,
      headers: { Cookie: cookie, CSRFPreventionToken },
    });
    expect(withCsrf.status).toBe(200);
  });

  test('a wrong password and a forged ticket answer 401', async () => {
    const wrong = await call(sim, 'POST', '/access/ticket', {
      params: { username: 'root@pam', password: 'nope' },
      token: null,
    });
    expect([wrong.status, wrong.statusMessage]).toEqual([401, 'authentication failure']);
    const forged = await call(sim, 'GET', '/nodes', {
      token: null,
      headers: { Cookie: 'PVEAuthCookie=PVE:root@pam:6B0CF8E1::AAAA' },
    });
    expect(forged.status).toBe(401);
  });
});

describe('fault injection and the call log', () => {
  test('an injected HTTP fault answers with its status and message, then retires after count', async () => {
    await data(sim, 'POST', '/sim/faults', {
      json: { method: 'GET', path: '^/version$', status: 596, message: 'Connection timed out', count: 1 },
    });
    const faulted = await call(sim, 'GET', '/version');
    expect([faulted.status, faulted.statusMessage]).toEqual([596, 'Connection timed out']);
    expect((await call(sim, 'GET', '/version')).status).toBe(200);
  });

  test('an injected task error fails the task that the request starts', async () => {
    await data(sim, 'POST', '/sim/faults', {
      json: {
        path: '/qemu/\\d+/clone$',
        taskError: "can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout",
        count: 1,
      },
    });
    const task = await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 901 } });
    expect(task.exitstatus).toBe("can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout");
    expect(task.log.at(-1)).toBe(
      "TASK ERROR: can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout",
    );
    // As after any failed clone, the VMID is free again and nothing was left on storage.
    expect((await call(sim, 'GET', '/nodes/pve1/qemu/901/config')).status).toBe(500);
    expect(await data(sim, 'GET', '/cluster/nextid', { params: { vmid: 901 } })).toBe('901');
    expect(
      await data(sim, 'GET', '/nodes/pve1/storage/local-lvm/content', { params: { vmid: 901 } }),
    ).toEqual([]);
  });

  test('an injected failure of a create or a restore leaves nothing locked', async () => {
    await data(sim, 'POST', '/sim/faults', {
      json: { path: '^/nodes/pve1/qemu$', taskError: 'boom', count: 1 },
    });
    expect(
      (await runTask(sim, 'POST', '/nodes/pve1/qemu', { params: { vmid: 902, memory: 512 } })).exitstatus,
    ).toBe('boom');
    expect((await call(sim, 'GET', '/nodes/pve1/qemu/902/config')).status).toBe(500);
  });

  test('a delay holds the answer back', async () => {
    await data(sim, 'POST', '/sim/faults', { json: { path: '^/nodes$', delayMs: 150, count: 1 } });
    const started = Date.now();
    expect((await call(sim, 'GET', '/nodes')).status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  test('bad fault rules are refused', async () => {
    const reply = await call(sim, 'POST', '/sim/faults', { json: { path: '(' } });
    expect(reply.status).toBe(400);
  });

  test('the call log counts calls per operation', async () => {
    await data(sim, 'DELETE', '/sim/calls');
    await data(sim, 'GET', '/cluster/nextid');
    await data(sim, 'GET', '/cluster/nextid');
    await call(sim, 'GET', '/nodes/pve1/qemu/4242/config');
    const calls = await data<{ method: string; path: string; status: number; identity?: string }[]>(
      sim,
      'GET',
      '/sim/calls',
    );
    expect(calls.map((c) => `${c.method} ${c.path} ${c.status}`)).toEqual([
      'GET /cluster/nextid 200',
      'GET /cluster/nextid 200',
      'GET /nodes/pve1/qemu/4242/config 500',
    ]);
    expect(calls[0]?.identity).toBe('root@pam!admin');
  });

  test('reset brings back the scenario', async () => {
    await runTask(sim, 'POST', '/nodes/pve1/qemu/9000/clone', { params: { newid: 902 } });
    await data(sim, 'POST', '/sim/reset');
    expect((await call(sim, 'GET', '/nodes/pve1/qemu/902/config')).status).toBe(500);
    expect((await call(sim, 'GET', '/nodes/pve1/qemu/100/config')).status).toBe(200);
  });
});

test('an unknown route answers 501 as PVE does', async () => {
  const reply = await call(sim, 'GET', '/nodes/pve1/bogus');
  expect([reply.status, reply.statusMessage]).toEqual([
    501,
    "Method 'GET /nodes/pve1/bogus' not implemented",
  ]);
});

test('a body parameter that repeats a path parameter with another value is refused', async () => {
  const reply = await call(sim, 'PUT', '/nodes/pve1/qemu/100/config', {
    params: { vmid: 101, description: 'x' },
  });
  expect([reply.status, reply.statusMessage]).toEqual([
    400,
    'duplicate parameter (already defined in URI) with conflicting values!',
  ]);
});

test('query parameters override the body', async () => {
  const reply = await call(sim, 'PUT', '/nodes/pve1/qemu/100/config?description=from-query', {
    params: { description: 'from-body' },
  });
  expect(reply.status).toBe(200);
  expect((await data<{ description: string }>(sim, 'GET', '/nodes/pve1/qemu/100/config')).description).toBe(
    'from-query\n',
  );
});
