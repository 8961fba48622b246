import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { OPERATOR_PRIVILEGES, type EffectivePermissions } from '@noderings/proxmox';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { credentialSecret, operatorPrivilegeRefusal, readProxmoxInstances } from './proxmox-instances.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'nr-instances-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function file(text: string, mode = 0o600): Promise<string> {
  const path = join(dir, 'instances.yaml');
  await writeFile(path, text);
  await chmod(path, mode);
  return path;
}

describe('the Proxmox instances file', () => {
  it('reads an instance with a full token id, defaulting its id', async () => {
    const path = await file(
      [
        'instances:',
        '  - url: https://pve1.example:8006/',
        '    tokenId: "nr@pve!k8s"',
        '    tokenSecret: s3cret',
        '    tlsFingerprint: "AB:CD"',
      ].join('\n'),
    );
    expect(await readProxmoxInstances(path)).toEqual([
      {
        id: 'proxmox-1',
        url: 'https://pve1.example:8006',
        username: 'nr@pve',
        tokenName: 'k8s',
        tokenSecret: 's3cret',
        tlsFingerprint: 'AB:CD',
      },
    ]);
  });

  it('reads a bare list with a separate username', async () => {
    const path = await file(
      [
        '- id: second',
        '  url: https://pve2.example:8006',
        '  username: nr@pam',
        '  tokenId: other',
        '  tokenSecret: s3cret2',
      ].join('\n'),
    );
    expect(await readProxmoxInstances(path)).toEqual([
      {
        id: 'second',
        url: 'https://pve2.example:8006',
        username: 'nr@pam',
        tokenName: 'other',
        tokenSecret: 's3cret2',
      },
    ]);
  });

  it('refuses a file others can read, naming the fix', async () => {
    const path = await file('instances: []', 0o644);
    await expect(readProxmoxInstances(path)).rejects.toThrow(
      `is readable by others (mode 644); it holds token secrets: chmod 600 ${path}`,
    );
  });

  it.each([
    ['instances: []', 'lists no instances'],
    [
      'instances:\n  - url: http://pve:8006\n    tokenId: "a@pve!b"\n    tokenSecret: s',
      'url must be https://, not http://',
    ],
    ['instances:\n  - url: https://pve:8006\n    tokenSecret: s', 'tokenId is required'],
    [
      'instances:\n  - url: https://pve:8006\n    tokenId: b\n    tokenSecret: s',
      'username must be USER@REALM',
    ],
    ['instances:\n  - url: https://pve:8006\n    tokenId: "a@pve!b"', 'tokenSecret is required'],
    [
      'instances:\n  - url: https://pve:8006\n    tokenId: "a@pve!b"\n    username: c@pve\n    tokenSecret: s',
      'tokenId belongs to a@pve, not c@pve',
    ],
    [
      '- id: x\n  url: https://a:8006\n  tokenId: "a@pve!b"\n  tokenSecret: s\n- id: x\n  url: https://b:8006\n  tokenId: "a@pve!b"\n  tokenSecret: s',
      'id "x" is listed twice',
    ],
    ['instances: [', 'is not YAML'],
    [
      '- id: a\n  url: https://a:8006\n  tokenId: "a@pve!b"\n  tokenSecret: s\n- id: b\n  url: https://b:8006\n  tokenId: "a@pve!b"\n  tokenSecret: s',
      'lists 2 instances; an agent serves one Proxmox cluster',
    ],
  ])('refuses %j: %s', async (text, message) => {
    await expect(readProxmoxInstances(await file(text))).rejects.toThrow(message);
  });

  it('puts the credentials in a Secret labelled with the instance, base64-encoded, as the operator reads them', () => {
    const secret = credentialSecret({
      id: 'pve-a',
      url: 'https://pve:8006',
      username: 'nr@pve',
      tokenName: 'k8s',
      tokenSecret: 's3cret',
    }) as {
      metadata: { namespace: string; name: string; labels: Record<string, string> };
      data: Record<string, string>;
    };
    expect(secret.metadata).toEqual({
      namespace: 'proxmox-system',
      name: 'proxmox-credentials-pve-a',
      labels: { 'vm.noderings.com/proxmox-instance': 'default', 'app.kubernetes.io/managed-by': 'nr' },
    });
    const decoded = Object.fromEntries(
      Object.entries(secret.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
    );
    expect(decoded).toEqual({
      PROXMOX_URL: 'https://pve:8006',
      PROXMOX_USERNAME: 'nr@pve',
      PROXMOX_TOKEN_ID: 'k8s',
      PROXMOX_TOKEN_SECRET: 's3cret',
    });
  });
});

describe('the privileges the operator needs', () => {
  /** Everything OPERATOR_PRIVILEGES asks, propagated, less `without` (`path privilege`). */
  function held(...without: string[]): EffectivePermissions {
    const tree: EffectivePermissions = {};
    for (const { path, privileges } of OPERATOR_PRIVILEGES)
      for (const p of privileges) if (!without.includes(`${path} ${p}`)) (tree[path] ??= {})[p] = 1;
    return tree;
  }

  it('passes a token that holds all of them', () => {
    expect(operatorPrivilegeRefusal('nr@pve!k8s', held())).toBeUndefined();
  });

  it('names every missing privilege with its path, what it is for, and roles that grant it', () => {
    const permissions = held(
      '/vms VM.Snapshot',
      '/vms VM.Snapshot.Rollback',
      '/storage Datastore.AllocateSpace',
    );
    expect(operatorPrivilegeRefusal('nr@pve!k8s', permissions)).toBe(
      'the token nr@pve!k8s lacks VM.Snapshot, VM.Snapshot.Rollback on /vms, and Datastore.AllocateSpace on /storage: ' +
        'the operator needs them for snapshots and rollbacks; ' +
        'the disks of full clones, backup archives and restores, and deleting seed ISOs and archives; ' +
        'grant a role with them, propagated (e.g. PVEVMAdmin on /vms, and PVEDatastoreAdmin on /storage)',
    );
  });

  it('counts a privilege granted without propagate as missing, and says so', () => {
    const permissions = held();
    (permissions['/nodes'] ??= {})['Sys.Audit'] = 0;
    expect(operatorPrivilegeRefusal('nr@pve!k8s', permissions)).toBe(
      'the token nr@pve!k8s lacks Sys.Audit on /nodes (Sys.Audit on /nodes is granted without propagate, so not below the path): ' +
        'the operator needs them for reading nodes and their tasks; grant a role with them, propagated (e.g. PVEAuditor on /nodes)',
    );
  });

  it('refuses a token that holds nothing, naming all of it', () => {
    const message = operatorPrivilegeRefusal('nr@pve!k8s', {}) ?? '';
    for (const { path, privileges } of OPERATOR_PRIVILEGES) {
      expect(message).toContain(path);
      for (const p of privileges) expect(message).toContain(p);
    }
  });
});
