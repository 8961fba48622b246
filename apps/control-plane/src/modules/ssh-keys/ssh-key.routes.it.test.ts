import { createHash, generateKeyPairSync } from 'node:crypto';

import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

interface SshKeyView {
  id: string;
  name: string;
  publicKey: string;
  keyType: string;
  fingerprint: string;
  organizationId: string;
  createTime: string;
}

type KeySpec =
  | { type: 'ed25519' }
  | { type: 'rsa'; bits: number }
  | { type: 'ec'; curve: 'P-256' | 'P-384' | 'P-521' }
  | { type: 'dsa' };

/** A fresh key pair: the public half as an OpenSSH `.pub` line, the private half as PEM. */
function generate(spec: KeySpec, comment = 'alice@laptop'): { line: string; privatePem: string } {
  const pair =
    spec.type === 'ed25519'
      ? generateKeyPairSync('ed25519')
      : spec.type === 'rsa'
        ? generateKeyPairSync('rsa', { modulusLength: spec.bits })
        : spec.type === 'ec'
          ? generateKeyPairSync('ec', { namedCurve: spec.curve })
          : generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
  const key = sshpk.parseKey(pair.publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  key.comment = comment;
  return {
    line: key.toString('ssh'),
    privatePem: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** What `ssh-keygen -l` prints, computed without sshpk: SHA-256 of the key blob, unpadded base64. */
function keygenFingerprint(line: string): string {
  const blob = Buffer.from(line.split(' ')[1] ?? '', 'base64');
  return `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

function descriptionOf(response: ApiResponse): string {
  const details = response.body.details as { fieldViolations: { field: string; description: string }[] }[];
  const violation = details[0]?.fieldViolations[0];
  return `${violation?.field ?? ''}: ${violation?.description ?? ''}`;
}

describe.each(DATABASE_KINDS)('SSH keys on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  it.each([
    [{ type: 'ed25519' }, 'SSH_KEY_TYPE_ED25519', 'ssh-ed25519'],
    [{ type: 'rsa', bits: 2048 }, 'SSH_KEY_TYPE_RSA', 'ssh-rsa'],
    [{ type: 'rsa', bits: 3072 }, 'SSH_KEY_TYPE_RSA', 'ssh-rsa'],
    [{ type: 'ec', curve: 'P-256' }, 'SSH_KEY_TYPE_ECDSA', 'ecdsa-sha2-nistp256'],
    [{ type: 'ec', curve: 'P-384' }, 'SSH_KEY_TYPE_ECDSA', 'ecdsa-sha2-nistp384'],
    [{ type: 'ec', curve: 'P-521' }, 'SSH_KEY_TYPE_ECDSA', 'ecdsa-sha2-nistp521'],
  ] as const)('accepts %j as %s with the fingerprint ssh-keygen prints', async (spec, keyType, algorithm) => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const { line } = generate(spec);
    const created = await t.call<{ sshKey: SshKeyView }>('POST', '/v1/ssh-keys', {
      as: owner,
      body: { name: 'laptop', publicKey: `${line}\n` },
    });
    expect(created.status).toBe(201);
    const { sshKey } = created.body;
    expect(sshKey).toEqual({
      id: expect.any(String) as unknown,
      name: 'laptop',
      publicKey: line,
      keyType,
      fingerprint: keygenFingerprint(line),
      organizationId: owner.organizationId,
      createTime: expect.any(String) as unknown,
    });
    expect(sshKey.publicKey.startsWith(`${algorithm} AAAA`)).toBe(true);
    expect(sshKey.fingerprint).toBe(sshpk.parseKey(line, 'ssh').fingerprint('sha256').toString());
  });

  it('adds, lists, reads and deletes keys; there is no update', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const { line } = generate({ type: 'ed25519' }, 'no-comment-below');
    const [algorithm, data] = line.split(' ');
    // Extra blanks are normalised away, and a key without a comment keeps none.
    const created = await t.call<{ sshKey: SshKeyView }>('POST', '/v1/ssh-keys', {
      as: owner,
      body: { name: '  ci runner ', publicKey: `  ${algorithm ?? ''} \t ${data ?? ''}  \r\n` },
    });
    expect(created.status).toBe(201);
    const { sshKey } = created.body;
    expect([sshKey.name, sshKey.publicKey]).toEqual(['ci runner', `${algorithm ?? ''} ${data ?? ''}`]);
    const commented = await t.call<{ sshKey: SshKeyView }>('POST', '/v1/ssh-keys', {
      as: owner,
      body: {
        name: 'laptop',
        publicKey: generate({ type: 'ed25519' }).line.replace('alice@laptop', 'alice  @ laptop'),
      },
    });
    expect(commented.body.sshKey.publicKey.endsWith(' alice @ laptop')).toBe(true);

    const list = await t.call<{ sshKeys: SshKeyView[]; totalCount: number }>('GET', '/v1/ssh-keys', {
      as: owner,
    });
    expect(list.body.totalCount).toBe(2);
    expect(list.body.sshKeys.map((k) => k.id).sort()).toEqual([sshKey.id, commented.body.sshKey.id].sort());
    expect((await t.call('GET', `/v1/ssh-keys/${sshKey.id}`, { as: owner })).body).toEqual({ sshKey });
    expect(
      (await t.call('PATCH', `/v1/ssh-keys/${sshKey.id}`, { as: owner, body: { name: 'renamed' } })).status,
    ).toBe(404);
    expect((await t.call('DELETE', `/v1/ssh-keys/${sshKey.id}`, { as: owner })).status).toBe(200);
    expect((await t.call('GET', `/v1/ssh-keys/${sshKey.id}`, { as: owner })).status).toBe(404);
    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select('action')
            .where('target_id', '=', sshKey.id)
            .orderBy('id')
            .execute()
        ).map((e) => e.action),
      )
      .toEqual(['sshKey.create', 'sshKey.delete']);
  });

  it('refuses DSA, short RSA, mismatched, multi-line and damaged keys, saying why', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const ed25519 = generate({ type: 'ed25519' }).line;
    const p256 = generate({ type: 'ec', curve: 'P-256' }).line;
    const [, ed25519Data = ''] = ed25519.split(' ');
    const cases: [string, string][] = [
      [generate({ type: 'dsa' }).line, 'is a DSA key'],
      [generate({ type: 'rsa', bits: 1024 }).line, 'is a 1024-bit RSA key: at least 2048 bits are required'],
      [ed25519.replace('ssh-ed25519', 'ssh-rsa'), 'does not match its type, ssh-rsa'],
      [p256.replace('nistp256 ', 'nistp384 '), 'does not match its type, ecdsa-sha2-nistp384'],
      [`${ed25519}\n${p256}`, 'must be a single line'],
      ['ssh-ed25519 AAAAgarbage', 'damaged or truncated'],
      [`ssh-ed25519 ${ed25519Data}AAAA`, 'is not an OpenSSH public key'],
      ['ssh-ed25519 not*base64', 'not base64'],
      ['hello world', 'supported type'],
      [`command="rm -rf /" ${ed25519}`, 'supported type'],
      [`sk-ssh-ed25519@openssh.com ${ed25519Data}`, 'supported type'],
      [`${ed25519}\u0007`, 'control characters'],
      [ed25519Data, 'supported type'],
    ];
    for (const [publicKey, reason] of cases) {
      const response = await t.call('POST', '/v1/ssh-keys', { as: owner, body: { name: 'bad', publicKey } });
      expect(response.status, publicKey.slice(0, 40)).toBe(400);
      expect(descriptionOf(response)).toContain('publicKey: ');
      expect(descriptionOf(response)).toContain(reason);
    }
    const empty = await t.call('POST', '/v1/ssh-keys', { as: owner, body: { name: '', publicKey: '' } });
    expect(empty.status).toBe(400);
    expect((await t.call('GET', '/v1/ssh-keys', { as: owner })).body.totalCount).toBe(0);
  });

  it('refuses a private key with its own message, and never echoes or logs it', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const { privatePem } = generate({ type: 'rsa', bits: 2048 });
    const openssh = sshpk
      .parsePrivateKey(generate({ type: 'ed25519' }).privatePem, 'pem')
      .toString('ssh-private');
    const opensshBody = openssh.split('\n').slice(1, -2).join('');
    for (const pasted of [privatePem, openssh, opensshBody]) {
      const response = await t.call('POST', '/v1/ssh-keys', {
        as: owner,
        body: { name: 'oops', publicKey: pasted },
      });
      expect(response.status).toBe(400);
      expect(descriptionOf(response)).toMatch(/^publicKey: is a private key.*\.pub file/);
      const text = JSON.stringify(response.body);
      const secretLines = pasted.split('\n').filter((l) => l.length > 20 && !l.startsWith('-----'));
      expect(secretLines.length).toBeGreaterThan(0);
      for (const secretLine of secretLines) {
        expect(text).not.toContain(secretLine);
        expect(t.logLines.filter((l) => l.includes(secretLine.slice(0, 40)))).toEqual([]);
      }
    }
    expect((await t.call('GET', '/v1/ssh-keys', { as: owner })).body.totalCount).toBe(0);
  });

  it('refuses the same key twice in one organization, whatever its comment, but not in another', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const other = await t.register('ORGANIZATION_TYPE_CLIENT');
    const { line } = generate({ type: 'ed25519' }, 'first');
    expect(
      (await t.call('POST', '/v1/ssh-keys', { as: owner, body: { name: 'a', publicKey: line } })).status,
    ).toBe(201);
    const again = await t.call('POST', '/v1/ssh-keys', {
      as: owner,
      body: { name: 'b', publicKey: line.replace(' first', ' second') },
    });
    expect([again.status, again.body.code]).toEqual([409, 'ALREADY_EXISTS']);
    expect(again.body.message).toContain(keygenFingerprint(line));
    expect(
      (await t.call('POST', '/v1/ssh-keys', { as: other, body: { name: 'a', publicKey: line } })).status,
    ).toBe(201);
  });

  it("hides another organization's keys: 404, never 403", async () => {
    const owner = await t.register();
    const stranger = await t.register();
    const created = await t.call<{ sshKey: SshKeyView }>('POST', '/v1/ssh-keys', {
      as: owner,
      body: { name: 'mine', publicKey: generate({ type: 'ed25519' }).line },
    });
    const id = created.body.sshKey.id;
    expect((await t.call('GET', `/v1/ssh-keys/${id}`, { as: stranger })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/ssh-keys/${id}`, { as: stranger })).status).toBe(404);
    expect((await t.call('GET', '/v1/ssh-keys', { as: stranger })).body.totalCount).toBe(0);
    expect((await t.call('GET', `/v1/ssh-keys/${id}`, { as: owner })).status).toBe(200);
  });
});
