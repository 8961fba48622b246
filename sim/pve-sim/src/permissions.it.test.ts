import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { call, data, tokenHeader } from './api-test-client.js';
import { ROLES } from './access-control.js';
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
          { path: '/vms', role: 'PVEVMAdmin' },
          { path: '/storage/local', privileges: ['Datastore.Audit'], propagate: false },
        ],
      },
      {
        id: 'auditor@pve!ro',
        secret: 'c0ffee00-0000-4000-8000-000000000003',
        acl: [{ path: '/', role: 'PVEAuditor' }],
      },
      // No rules: privilege separation off, the token has its user's rights.
      { id: 'operator@pve!shared', secret: 'c0ffee00-0000-4000-8000-000000000004' },
    ],
    users: [
      { userid: 'root@pam', password: 'hunter2' },
      { userid: 'operator@pve', password: 'op-pass', acl: [{ path: '/vms', role: 'PVEVMUser' }] },
    ],
  });
});
afterAll(async () => {
  await sim.close();
});

type Tree = Record<string, Record<string, 0 | 1>>;

const admin = () => tokenHeader(sim, 0);
const operator = () => tokenHeader(sim, 1);
const auditor = () => tokenHeader(sim, 2);
const shared = () => tokenHeader(sim, 3);

function allOf(role: string, flag: 0 | 1): Record<string, 0 | 1> {
  return Object.fromEntries((ROLES[role] ?? []).map((p) => [p, flag]));
}

function permissions(token: string, params: Record<string, string> = {}): Promise<Tree> {
  return data<Tree>(sim, 'GET', '/access/permissions', { token, params });
}

describe('GET /access/permissions of the caller', () => {
  test('root@pam without privilege separation holds every privilege, propagated', async () => {
    expect(await permissions(admin(), { path: '/vms' })).toEqual({ '/vms': allOf('Administrator', 1) });
  });

  test('without path: the top-level and ACL paths where the token holds something, with propagate flags', async () => {
    expect(await permissions(operator())).toEqual({
      '/vms': allOf('PVEVMAdmin', 1),
      '/storage/local': { 'Datastore.Audit': 0 },
    });
  });

  test('with path: exactly that path, inherited privileges included, and empty where there are none', async () => {
    expect(await permissions(operator(), { path: '/vms/100' })).toEqual({
      '/vms/100': allOf('PVEVMAdmin', 1),
    });
    // A rule without propagate stops at its path.
    expect(await permissions(operator(), { path: '/storage/local/sub' })).toEqual({
      '/storage/local/sub': {},
    });
    expect(await permissions(operator(), { path: '/nodes/pve1' })).toEqual({ '/nodes/pve1': {} });
  });

  test('a token without privilege separation has its user’s rights', async () => {
    expect(await permissions(shared(), { path: '/vms/101' })).toEqual({ '/vms/101': allOf('PVEVMUser', 1) });
  });

  test('the answer agrees with the checks the API makes', async () => {
    const held = await permissions(operator(), { path: '/storage/local-lvm' });
    expect(held).toEqual({ '/storage/local-lvm': {} });
    const denied = await call(sim, 'GET', '/nodes/pve1/storage/local-lvm/status', { token: operator() });
    expect(denied.status).toBe(403);
  });
});

describe('GET /access/permissions of someone else', () => {
  test('needs Sys.Audit on /access', async () => {
    const reply = await call(sim, 'GET', '/access/permissions', {
      token: operator(),
      params: { userid: 'auditor@pve!ro' },
    });
    expect([reply.status, reply.statusMessage]).toEqual([
      403,
      'Permission check failed (/access, Sys.Audit)',
    ]);
    expect(reply.json).toEqual({ data: null, message: 'Permission check failed (/access, Sys.Audit)\n' });
  });

  test('with Sys.Audit on /access (propagated from /), a user’s or a token’s rights', async () => {
    expect(await permissions(auditor(), { userid: 'operator@pve!nr', path: '/vms' })).toEqual({
      '/vms': allOf('PVEVMAdmin', 1),
    });
    expect(await permissions(auditor(), { userid: 'operator@pve', path: '/vms' })).toEqual({
      '/vms': allOf('PVEVMUser', 1),
    });
  });

  test('a user may read the rights of its own tokens without Sys.Audit', async () => {
    const login = await data<{ ticket: string }>(sim, 'POST', '/access/ticket', {
      params: { username: 'operator@pve', password: 'op-pass' },
      token: null,
    });
    const reply = await call(sim, 'GET', '/access/permissions', {
      token: null,
      headers: { Cookie: `PVEAuthCookie=${encodeURIComponent(login.ticket)}` },
      params: { userid: 'operator@pve!nr', path: '/storage/local' },
    });
    expect(reply.status).toBe(200);
    expect(reply.json.data).toEqual({ '/storage/local': { 'Datastore.Audit': 0 } });
  });

  test('a user PVE does not know holds nothing (PVE answers no privileges, not an error)', async () => {
    expect(await permissions(auditor(), { userid: 'nobody@pve' })).toEqual({});
    expect(await permissions(auditor(), { userid: 'nobody@pve!tok', path: '/vms' })).toEqual({ '/vms': {} });
  });
});

describe('GET /access/permissions with bad input', () => {
  test('a userid that is neither a user nor a token id is refused by the parameter check', async () => {
    const reply = await call(sim, 'GET', '/access/permissions', {
      token: admin(),
      params: { userid: 'no realm' },
    });
    expect([reply.status, reply.statusMessage]).toEqual([400, 'Parameter verification failed.']);
    expect(reply.json).toEqual({
      data: null,
      errors: { userid: 'value does not match the regex pattern' },
      message: 'Parameter verification failed.\n',
    });
  });

  test('an unknown parameter is refused', async () => {
    const reply = await call(sim, 'GET', '/access/permissions', { token: admin(), params: { user: 'x' } });
    expect(reply.status).toBe(400);
    expect(reply.json.errors).toEqual({
      user: 'property is not defined in schema and the schema does not allow additional properties',
    });
  });

  test('without credentials: 401', async () => {
    const reply = await call(sim, 'GET', '/access/permissions', { token: null });
    expect([reply.status, reply.statusMessage]).toEqual([401, 'No ticket']);
  });
});
