import { randomUUID } from 'node:crypto';

import { startPveSim } from '@noderings/pve-sim';
import type { PveSim } from '@noderings/pve-sim';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';

import { ParameterError, PvePermissionDeniedError } from './errors.js';
import { OPERATOR_PRIVILEGES, OPERATOR_ROLES } from './operator-privileges.js';
import { ProxmoxClient } from './proxmox-client.js';

/** getPermissions and the operator's privilege list against the Proxmox simulator over real HTTPS. */

const ADMIN = { id: 'root@pam!sim', secret: randomUUID() };
const LIMITED = { id: 'operator@pve!limited', secret: randomUUID() };
const OPERATOR = { id: 'nr@pve!k8s', secret: randomUUID() };

let sim: PveSim;
const clients: ProxmoxClient[] = [];

beforeAll(async () => {
  sim = await startPveSim({
    taskMs: 5,
    tokens: [
      ADMIN,
      { ...LIMITED, acl: [{ path: '/vms/100', role: 'PVEVMUser' }] },
      { ...OPERATOR, acl: OPERATOR_ROLES.map(({ path, role }) => ({ path, role })) },
    ],
  });
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await sim.close();
});

function client(token: { id: string; secret: string }): ProxmoxClient {
  const pve = new ProxmoxClient({
    baseUrl: sim.url,
    token: `${token.id}=${token.secret}`,
    tls: { caPem: sim.certPem },
  });
  clients.push(pve);
  return pve;
}

describe('getPermissions', () => {
  test('the token’s own privileges by path, with propagate flags', async () => {
    const tree = await client(LIMITED).getPermissions();
    expect(Object.keys(tree)).toEqual(['/vms/100']);
    expect(tree['/vms/100']).toMatchObject({ 'VM.Audit': 1, 'VM.Console': 1, 'VM.PowerMgmt': 1 });
    expect(tree['/vms/100']).not.toHaveProperty('VM.Allocate');
  });

  test('with path: that path only, inherited privileges included, empty where none', async () => {
    const pve = client(LIMITED);
    expect(await pve.getPermissions({ path: '/vms/101' })).toEqual({ '/vms/101': {} });
    const admin = await client(ADMIN).getPermissions({ path: '/storage/local' });
    expect(admin['/storage/local']).toMatchObject({ 'Datastore.AllocateSpace': 1 });
  });

  test('another user’s privileges need Sys.Audit on /access; a malformed userid is a ParameterError', async () => {
    const pve = client(LIMITED);
    const denied = await pve.getPermissions({ userid: 'root@pam' }).catch((e: unknown) => e);
    expect(denied).toBeInstanceOf(PvePermissionDeniedError);
    expect((denied as PvePermissionDeniedError).aclPath).toBe('/access');
    expect((denied as PvePermissionDeniedError).privilege).toBe('Sys.Audit');
    expect(await client(ADMIN).getPermissions({ userid: LIMITED.id, path: '/vms/100' })).toHaveProperty(
      ['/vms/100', 'VM.Audit'],
      1,
    );
    const bad = await pve.getPermissions({ userid: 'no realm' }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ParameterError);
    expect((bad as ParameterError).parameters).toEqual({ userid: 'value does not match the regex pattern' });
  });
});

describe('OPERATOR_PRIVILEGES', () => {
  test('the roles OPERATOR_ROLES suggests carry every privilege the operator needs, propagated', async () => {
    const pve = client(OPERATOR);
    for (const { path, privileges } of OPERATOR_PRIVILEGES) {
      const held = (await pve.getPermissions({ path }))[path] ?? {};
      for (const privilege of privileges)
        expect({ path, privilege, flag: held[privilege] }).toEqual({ path, privilege, flag: 1 });
    }
  });

  test('a token with only some of them is short of the rest', async () => {
    const held = (await client(LIMITED).getPermissions({ path: '/vms' }))['/vms'] ?? {};
    const vmPrivileges = OPERATOR_PRIVILEGES.filter((r) => r.path === '/vms').flatMap((r) => r.privileges);
    expect(vmPrivileges.filter((p) => held[p] !== 1)).toEqual(vmPrivileges);
  });
});
