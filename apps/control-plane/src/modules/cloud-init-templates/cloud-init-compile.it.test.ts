import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';

import { sha512Crypt } from '@noderings/domain';
import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { SecretBox } from '../../crypto/secret-box.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { EnvironmentVariableRepository, EnvironmentVariableService } from '../environment-variables/index.js';
import { SecretRepository, SecretService } from '../secrets/index.js';
import { SshKeyRepository, SshKeyService } from '../ssh-keys/index.js';
import { CloudInitCompileService, CloudInitTemplateRepository, CloudInitTemplateService } from './index.js';

interface Rendered {
  userData: string;
  vendorData: string | null;
  networkData: string | null;
  warnings: { code: string; message: string; line: number; key: string }[];
}

interface ErrorBody {
  code: string;
  message: string;
  details: { fieldViolations: { field: string; description: string }[] }[];
}

const NETWORK = {
  ipv4: { address: '203.0.113.10/24', gateway: '203.0.113.1' },
  nameservers: ['203.0.113.53'],
  macAddress: 'BC:24:11:00:00:2A',
};

/** YAML 1.1, as cloud-init reads it. */
function read(yaml: string | undefined): unknown {
  return parse(yaml ?? '', { version: '1.1' });
}

function sshPublicKey(comment: string): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  const key = sshpk.parseKey(publicKey.export({ type: 'spki', format: 'pem' }), 'pem');
  key.comment = comment;
  return key.toString('ssh');
}

describe.each(DATABASE_KINDS)('compiling cloud-init templates on the %s database', (kind) => {
  const secretKey = randomBytes(32);
  let t: TestControlPlane;
  /** The order flow's side, opened with the key the control plane seals secrets with. */
  let compiler: CloudInitCompileService;
  beforeAll(async () => {
    t = await startTestControlPlane(kind, { secretKey });
    const now = () => new Date();
    compiler = new CloudInitCompileService({
      templates: new CloudInitTemplateService({ templates: new CloudInitTemplateRepository(t.cp.db), now }),
      secrets: new SecretService({
        secrets: new SecretRepository(t.cp.db),
        box: new SecretBox(secretKey),
        now,
      }),
      variables: new EnvironmentVariableService({
        variables: new EnvironmentVariableRepository(t.cp.db),
        now,
      }),
      sshKeys: new SshKeyService({ sshKeys: new SshKeyRepository(t.cp.db), now }),
      randomBytes,
    });
  });
  afterAll(() => t.close());

  async function post<T = Record<string, unknown>>(as: Caller, path: string, body: unknown): Promise<T> {
    const response = await t.call<T>('POST', path, { as, body });
    if (response.status !== 201) throw new Error(`POST ${path}: ${JSON.stringify(response.body)}`);
    return response.body;
  }

  async function template(
    as: Caller,
    userData: string,
    extra: Record<string, unknown> = {},
  ): Promise<string> {
    const body = await post<{ cloudInitTemplate: { id: string } }>(as, '/v1/cloudinittemplate', {
      name: `t-${randomUUID()}`,
      userData,
      ...extra,
    });
    return body.cloudInitTemplate.id;
  }

  async function secret(as: Caller, key: string, value: string): Promise<string> {
    return (await post<{ secret: { id: string } }>(as, '/v1/secrets', { key, value })).secret.id;
  }

  it('substitutes variables, secrets, keys and a SHA-512-crypt hash of the password', async () => {
    const provider = await t.register();
    const customer = await t.register('ORGANIZATION_TYPE_CLIENT');
    await secret(provider, 'DB_PASSWORD', 'hunter2');
    await post(provider, '/v1/environment-variables', { key: 'REGION', value: 'eu-central' });
    const publicKey = sshPublicKey('alice@laptop');
    const key = await post<{ sshKey: { id: string } }>(customer, '/v1/ssh-keys', {
      name: 'alice',
      publicKey,
    });
    const id = await template(
      provider,
      `#cloud-config
hostname: {{ hostname }}
users:
  - name: ubuntu
    lock_passwd: {{ lock_passwd }}
    hashed_passwd: {{ password_hash }}
    ssh_authorized_keys: {{ ssh_authorized_keys }}
write_files:
  - path: /etc/app.env
    content: |
      REGION={{ env.REGION }}
      DB_PASSWORD={{ secrets.DB_PASSWORD }}
`,
      {
        vendorData: '#cloud-config\nbootcmd: [echo {{ env.REGION }}]\n',
        networkData:
          'version: 2\nethernets:\n  eth0:\n    match: {macaddress: {{ mac_address }}}\n    addresses: {{ addresses }}\n    routes: [{to: default, via: {{ ipv4.gateway }}}]\n    nameservers: {addresses: {{ nameservers }}}\n',
      },
    );

    const withKeys = await compiler.compileForVm(provider.organizationId, id, {
      hostname: 'web-1',
      sshKeyIds: [key.sshKey.id],
      sshKeyOrganizationId: customer.organizationId,
      network: NETWORK,
    });
    expect(withKeys.userData.startsWith('#cloud-config\n')).toBe(true);
    expect(read(withKeys.userData)).toEqual({
      hostname: 'web-1',
      users: [{ name: 'ubuntu', lock_passwd: true, hashed_passwd: '!', ssh_authorized_keys: [publicKey] }],
      write_files: [{ path: '/etc/app.env', content: 'REGION=eu-central\nDB_PASSWORD=hunter2\n' }],
    });
    expect(read(withKeys.vendorData)).toEqual({ bootcmd: ['echo eu-central'] });
    expect(read(withKeys.networkData)).toEqual({
      version: 2,
      ethernets: {
        eth0: {
          match: { macaddress: 'BC:24:11:00:00:2A' },
          addresses: ['203.0.113.10/24'],
          routes: [{ to: 'default', via: '203.0.113.1' }],
          nameservers: { addresses: ['203.0.113.53'] },
        },
      },
    });

    const withPassword = await compiler.compileForVm(provider.organizationId, id, {
      hostname: 'web-2',
      password: 'correct horse battery staple',
      network: NETWORK,
    });
    const users = (
      read(withPassword.userData) as { users: { hashed_passwd: string; lock_passwd: boolean }[] }
    ).users;
    const hash = users[0]?.hashed_passwd ?? '';
    expect(hash).toMatch(/^\$6\$rounds=100000\$[./0-9A-Za-z]{16}\$[./0-9A-Za-z]{86}$/);
    const [, , rounds, salt] = hash.split('$');
    expect(
      sha512Crypt('correct horse battery staple', salt ?? '', Number(rounds?.slice('rounds='.length))),
    ).toBe(hash);
    expect(users[0]?.lock_passwd).toBe(false);
    expect(withPassword.userData).not.toContain('correct horse');
  });

  it('keeps a secret or variable value that looks like YAML as data', async () => {
    const provider = await t.register();
    const attacks = {
      NEWLINE_KEY: 'x\nssh_pwauth: true\nusers: []',
      COLON: 'a: b',
      QUOTES: '"\n- injected\n"',
      SEPARATOR: 'ok\u2028ssh_pwauth: true',
      DOCUMENT: '---\nruncmd: [reboot]',
    };
    for (const [key, value] of Object.entries(attacks)) await secret(provider, key, value);
    await post(provider, '/v1/environment-variables', {
      key: 'ENV_ATTACK',
      value: 'x\n  nested: true\nroot: 1',
    });
    const id = await template(
      provider,
      `#cloud-config
ssh_pwauth: false
a: {{ secrets.NEWLINE_KEY }}
b: "{{ secrets.COLON }} and {{ secrets.QUOTES }}"
c: |
  {{ secrets.SEPARATOR }}
d: [{{ secrets.DOCUMENT }}, {{ env.ENV_ATTACK }}]
`,
    );
    const compiled = await compiler.compileForVm(provider.organizationId, id, {
      hostname: 'vm',
      network: NETWORK,
    });
    expect(read(compiled.userData)).toEqual({
      ssh_pwauth: false,
      a: attacks.NEWLINE_KEY,
      b: `${attacks.COLON} and ${attacks.QUOTES}`,
      c: `${attacks.SEPARATOR}\n`,
      d: [attacks.DOCUMENT, 'x\n  nested: true\nroot: 1'],
    });
  });

  it('does not change what was compiled when a secret is rotated later', async () => {
    const provider = await t.register();
    const secretId = await secret(provider, 'API_TOKEN', 'first-token');
    const id = await template(
      provider,
      '#cloud-config\nwrite_files: [{path: /t, content: {{ secrets.API_TOKEN }}}]\n',
    );
    const request = { hostname: 'vm-1', network: NETWORK };
    const before = await compiler.compileForVm(provider.organizationId, id, request);
    const kept = structuredClone(before);

    const rotated = await t.call('PATCH', `/v1/secrets/${secretId}`, {
      as: provider,
      body: { value: 'second-token' },
    });
    expect(rotated.status).toBe(200);
    const after = await compiler.compileForVm(provider.organizationId, id, request);

    expect(before).toEqual(kept);
    expect(before.userData).toContain('first-token');
    expect(after.userData).toContain('second-token');
    expect(after.userData).not.toContain('first-token');
  });

  it('refuses to compile with a missing secret, naming its line, and explains a key of the other kind', async () => {
    const provider = await t.register();
    await secret(provider, 'ONLY_SECRET', 'v');
    const id = await template(
      provider,
      '#cloud-config\nhostname: {{ hostname }}\na: {{ secrets.GONE }}\nb: {{ env.ONLY_SECRET }}\n',
    );
    const refusal = compiler.compileForVm(provider.organizationId, id, { hostname: 'vm', network: NETWORK });
    await expect(refusal).rejects.toMatchObject({
      code: 'FAILED_PRECONDITION',
      fieldViolations: [
        {
          field: 'userData',
          description: 'line 3, column 4: secrets.GONE: the organization has no secret GONE',
        },
        {
          field: 'userData',
          description:
            'line 4, column 4: env.ONLY_SECRET: ONLY_SECRET is a secret of the organization; write secrets.ONLY_SECRET',
        },
      ],
    });
    const render = await t.call<ErrorBody>('POST', `/v1/cloudinittemplate/${id}:render`, {
      as: provider,
      body: {},
    });
    expect(render.status).toBe(412);
    expect(render.body.details[0]?.fieldViolations.map((v) => v.description.slice(0, 20))).toEqual([
      'line 3, column 4: se',
      'line 4, column 4: en',
    ]);
  });

  it("passes a customer's own user data on untouched, with none of the provider's secrets", async () => {
    const provider = await t.register();
    await secret(provider, 'PROVIDER_KEY', 'provider-only-value');
    const id = await template(provider, '#cloud-config\nhostname: {{ hostname }}\n', {
      vendorData: '#cloud-config\nbootcmd: [echo {{ secrets.PROVIDER_KEY }}]\n',
    });
    const customerUserData = '#cloud-config\nruncmd:\n  - echo {{ secrets.PROVIDER_KEY }} {{ hostname }}\n';
    const compiled = await compiler.compileForVm(provider.organizationId, id, {
      hostname: 'vm',
      userData: customerUserData,
      network: NETWORK,
    });
    expect(compiled.userData).toBe(customerUserData);
    expect(read(compiled.vendorData)).toEqual({ bootcmd: ['echo provider-only-value'] });
    await expect(
      compiler.compileForVm(provider.organizationId, id, {
        hostname: 'vm',
        userData: customerUserData,
        password: 'pw',
        network: NETWORK,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('compiles only from the organization’s own templates, and only valid host names', async () => {
    const provider = await t.register();
    const other = await t.register();
    const foreign = await template(other, '#cloud-config\nhostname: {{ hostname }}\n');
    const request = { hostname: 'vm', network: NETWORK };
    await expect(compiler.compileForVm(provider.organizationId, foreign, request)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(
      compiler.compileForVm(provider.organizationId, 'c10d1a17-5eed-4000-8000-000000000001', request),
    ).rejects.toMatchObject({ code: 'FAILED_PRECONDITION' });
    const own = await template(provider, '#cloud-config\nhostname: {{ hostname }}\n');
    await expect(
      compiler.compileForVm(provider.organizationId, own, { ...request, hostname: 'not a host' }),
    ).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    const otherKey = await post<{ sshKey: { id: string } }>(other, '/v1/ssh-keys', {
      name: 'theirs',
      publicKey: sshPublicKey('bob'),
    });
    await expect(
      compiler.compileForVm(provider.organizationId, own, { ...request, sshKeyIds: [otherKey.sshKey.id] }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('previews with [secret KEY] placeholders and sample values, never a secret value, in answers or logs', async () => {
    const provider = await t.register();
    const value = `preview-secret-${randomUUID()}`;
    await secret(provider, 'API_KEY', value);
    await post(provider, '/v1/environment-variables', { key: 'REGION', value: 'eu-central' });
    const publicKey = sshPublicKey('carol');
    const key = await post<{ sshKey: { id: string } }>(provider, '/v1/ssh-keys', {
      name: 'carol',
      publicKey,
    });
    const id = await template(
      provider,
      '#cloud-config\nhostname: {{ hostname }}\nwrite_files: [{path: /k, content: "{{ secrets.API_KEY }} in {{ env.REGION }}"}]\nssh_authorized_keys: {{ ssh_authorized_keys }}\nusers: [{name: u, hashed_passwd: {{ password_hash }}}]\nhostnam: typo\n',
      { networkData: 'version: 2\nethernets: {eth0: {addresses: {{ addresses }}}}\n' },
    );
    const response = await t.call<Rendered>('POST', `/v1/cloudinittemplate/${id}:render`, {
      as: provider,
      body: {
        hostname: 'sample-1',
        sshKeyIds: [key.sshKey.id],
        withPassword: true,
        ipv4: { address: '198.51.100.7/24', gateway: '198.51.100.1' },
      },
    });
    expect(response.status).toBe(200);
    expect(read(response.body.userData)).toEqual({
      hostname: 'sample-1',
      write_files: [{ path: '/k', content: '[secret API_KEY] in eu-central' }],
      ssh_authorized_keys: [publicKey],
      users: [{ name: 'u', hashed_passwd: '[password hash]' }],
      hostnam: 'typo',
    });
    expect(read(response.body.networkData ?? '')).toEqual({
      version: 2,
      ethernets: { eth0: { addresses: ['198.51.100.7/24', '2001:db8::10/64'] } },
    });
    expect(response.body.vendorData).toBeNull();
    expect(response.body.warnings).toEqual([
      {
        code: 'UNKNOWN_KEY',
        message: expect.stringContaining('hostnam') as unknown,
        line: 6,
        key: 'hostnam',
      },
    ]);

    const member = await t.register('ORGANIZATION_TYPE_CLIENT');
    await t.addMember(provider, member, 'member');
    const asMember = await t.call<Rendered>('POST', `/v1/cloudinittemplate/${id}:render`, {
      as: { token: member.token, organizationId: provider.organizationId },
      body: {},
    });
    expect(asMember.status).toBe(200);
    expect(read(asMember.body.userData)).toMatchObject({
      hostname: 'preview',
      users: [{ hashed_passwd: '!' }],
    });

    for (const body of [JSON.stringify(response.body), JSON.stringify(asMember.body)])
      expect(body).not.toContain(value);
    expect(t.logLines.length).toBeGreaterThan(0);
    expect(t.logLines.filter((line) => line.includes(value))).toEqual([]);
  });

  it('previews a seed, and warns about a template that drops the keys and the password of orders', async () => {
    const provider = await t.register();
    const seed = await t.call<Rendered>(
      'POST',
      '/v1/cloudinittemplate/c10d1a17-5eed-4000-8000-000000000002:render',
      {
        as: provider,
        body: {},
      },
    );
    expect(seed.status).toBe(200);
    expect(seed.body.warnings).toEqual([]);
    expect(read(seed.body.userData)).toMatchObject({ hostname: 'preview', users: [{ name: 'debian' }] });

    const id = await template(provider, '#cloud-config\nhostname: {{ hostname }}\n');
    const bare = await t.call<Rendered>('POST', `/v1/cloudinittemplate/${id}:render`, {
      as: provider,
      body: {},
    });
    expect(bare.body.warnings.map((w) => w.code)).toEqual(['SSH_KEYS_NOT_USED', 'PASSWORD_NOT_USED']);

    const invalid = await t.call<ErrorBody>('POST', `/v1/cloudinittemplate/${id}:render`, {
      as: provider,
      body: {
        hostname: 'bad host',
        ipv4: { address: '198.51.100.7', gateway: '2001:db8::1' },
        nameservers: ['x'],
      },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.details[0]?.fieldViolations.map((v) => v.field).sort()).toEqual([
      'hostname',
      'ipv4.address',
      'ipv4.gateway',
      'nameservers.0',
    ]);
  });
});
