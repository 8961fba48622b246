import { createHash, generateKeyPairSync, randomUUID } from 'node:crypto';

import sshpk from 'sshpk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

interface AccountView {
  id: string;
  name: string;
  description: string;
  isActive: boolean;
  allowedIps: string[];
  role: 'MEMBER_ROLE_ADMIN' | 'MEMBER_ROLE_MEMBER';
  organizationId: string;
  lastUsedAt: string | null;
  activeTokenCount: number;
  createTime: string;
}

interface TokenView {
  tokenId: string;
  name: string;
  expiresAt: string;
  lastUsedAt: string | null;
  revoked: boolean;
  createTime: string;
}

interface Minted {
  token: string;
  tokenId: string;
  expiresAt: string;
}

const DAY_MS = 24 * 60 * 60_000;

function fieldsOf(response: ApiResponse): string[] {
  const details = response.body.details as { fieldViolations: { field: string }[] }[];
  return details.flatMap((d) => d.fieldViolations.map((v) => v.field)).sort();
}

describe.each(DATABASE_KINDS)('service accounts on the %s database', (kind) => {
  /** The control plane's clock: tests move it forward to expire tokens. */
  let clock = new Date();
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind, { now: () => clock });
  });
  afterAll(() => t.close());

  async function createAccount(owner: Caller, body: Record<string, unknown> = {}): Promise<AccountView> {
    const response = await t.call<{ serviceAccount: AccountView }>('POST', '/v1/service-accounts', {
      as: owner,
      body: { name: `robot ${randomUUID()}`, ...body },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.serviceAccount;
  }

  async function mintToken(
    owner: Caller,
    accountId: string,
    body: Record<string, unknown> = {},
  ): Promise<Minted> {
    const response = await t.call<Minted>('POST', `/v1/service-accounts/${accountId}/tokens`, {
      as: owner,
      body: { name: 'ci', ...body },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body;
  }

  async function accountOf(owner: Caller, id: string): Promise<ApiResponse<{ serviceAccount: AccountView }>> {
    return t.call<{ serviceAccount: AccountView }>('GET', `/v1/service-accounts/${id}`, { as: owner });
  }

  it('creates, lists, reads, changes and soft-deletes an account', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const account = await createAccount(owner, { name: 'deployer' });
    expect(account).toEqual({
      id: expect.any(String) as unknown,
      name: 'deployer',
      description: '',
      isActive: true,
      allowedIps: [],
      role: 'MEMBER_ROLE_MEMBER',
      organizationId: owner.organizationId,
      lastUsedAt: null,
      activeTokenCount: 0,
      createTime: clock.toISOString(),
    });
    const list = async (query = ''): Promise<string[]> =>
      (
        await t.call<{ serviceAccounts: AccountView[] }>('GET', `/v1/service-accounts${query}`, { as: owner })
      ).body.serviceAccounts.map((a) => a.name);
    expect(await list()).toEqual(['deployer']);

    const patched = await t.call<{ serviceAccount: AccountView }>(
      'PATCH',
      `/v1/service-accounts/${account.id}`,
      {
        as: owner,
        body: {
          name: 'builder',
          description: 'Builds images',
          isActive: false,
          allowedIps: ['192.0.2.0/24', '2001:db8::1'],
          role: 'MEMBER_ROLE_ADMIN',
        },
      },
    );
    expect(patched.body.serviceAccount).toMatchObject({
      name: 'builder',
      description: 'Builds images',
      isActive: false,
      allowedIps: ['192.0.2.0/24', '2001:db8::1'],
      role: 'MEMBER_ROLE_ADMIN',
    });
    expect(await list()).toEqual([]);
    expect(await list('?includeInactive=true')).toEqual(['builder']);
    expect((await accountOf(owner, account.id)).body.serviceAccount.isActive).toBe(false);
    // An empty change changes nothing.
    const unchanged = await t.call('PATCH', `/v1/service-accounts/${account.id}`, { as: owner, body: {} });
    expect(unchanged.body).toEqual(patched.body);

    expect((await t.call('DELETE', `/v1/service-accounts/${account.id}`, { as: owner })).status).toBe(200);
    expect((await accountOf(owner, account.id)).status).toBe(404);
    expect(await list('?includeInactive=true')).toEqual([]);
    expect((await t.call('DELETE', `/v1/service-accounts/${account.id}`, { as: owner })).status).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/service-accounts/${account.id}`, { as: owner, body: { isActive: true } }))
        .status,
    ).toBe(404);
    // The row stays (for the audit trail) but its name is free again.
    expect(
      await t.cp.db
        .selectFrom('service_accounts')
        .select('deleted_at')
        .where('id', '=', account.id)
        .executeTakeFirst(),
    ).toEqual({ deleted_at: clock });
    await createAccount(owner, { name: 'builder' });

    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select(['action', 'status_code'])
            .where('target_id', '=', account.id)
            .orderBy('id')
            .execute()
        ).map((e) => `${e.action} ${e.status_code}`),
      )
      .toEqual([
        'serviceAccount.create 201',
        'serviceAccount.update 200',
        'serviceAccount.update 200',
        'serviceAccount.delete 200',
        'serviceAccount.delete 404',
        'serviceAccount.update 404',
      ]);
  });

  it('refuses bad input with the field at fault, and writes nothing', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const cases: [unknown, string[]][] = [
      [
        { name: 'a', allowedIps: ['10.0.0.1', 'ten.0.0.0', '10.0.0.0/33', '::1/129', '10.0.0.0/8'] },
        ['allowedIps.1', 'allowedIps.2', 'allowedIps.3'],
      ],
      [{ name: 'a', allowedIps: '10.0.0.0/8' }, ['allowedIps']],
      [{ name: 'a', role: 'MEMBER_ROLE_OWNER' }, ['role']],
      [{ name: '   ' }, ['name']],
      [{ name: 'a', description: 'x'.repeat(1001) }, ['description']],
      [{ name: 'a', isActive: false }, ['isActive']],
      [{}, ['name']],
    ];
    for (const [body, fields] of cases) {
      const response = await t.call('POST', '/v1/service-accounts', { as: owner, body });
      expect([response.status, fieldsOf(response)], JSON.stringify(body)).toEqual([400, fields]);
    }
    expect(
      (await t.call('GET', '/v1/service-accounts?includeInactive=true', { as: owner })).body.totalCount,
    ).toBe(0);

    const account = await createAccount(owner, { allowedIps: ['198.51.100.7'] });
    const badPatch = await t.call('PATCH', `/v1/service-accounts/${account.id}`, {
      as: owner,
      body: { name: 'renamed', allowedIps: ['198.51.100.7', 'everywhere'] },
    });
    expect([badPatch.status, fieldsOf(badPatch)]).toEqual([400, ['allowedIps.1']]);
    expect((await accountOf(owner, account.id)).body.serviceAccount).toMatchObject({
      name: account.name,
      allowedIps: ['198.51.100.7'],
    });
    for (const expiresInDays of [0, 366, 1.5, '90']) {
      const response = await t.call('POST', `/v1/service-accounts/${account.id}/tokens`, {
        as: owner,
        body: { name: 'ci', expiresInDays },
      });
      expect([response.status, fieldsOf(response)]).toEqual([400, ['expiresInDays']]);
    }
    expect((await accountOf(owner, account.id)).body.serviceAccount.activeTokenCount).toBe(0);
  });

  it('keeps names unique among the live accounts of an organization', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    await createAccount(owner, { name: 'backup' });
    const second = await createAccount(owner, { name: 'monitoring' });
    const duplicate = await t.call('POST', '/v1/service-accounts', { as: owner, body: { name: 'backup' } });
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'ALREADY_EXISTS']);
    const rename = await t.call('PATCH', `/v1/service-accounts/${second.id}`, {
      as: owner,
      body: { name: 'backup' },
    });
    expect(rename.status).toBe(409);
    const other = await t.register('ORGANIZATION_TYPE_CLIENT');
    await createAccount(other, { name: 'backup' });
  });

  it('mints a token shown once and stored only as its SHA-256, usable as a bearer token', async () => {
    const provider = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const stranger = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const account = await createAccount(provider);
    const minted = await mintToken(provider, account.id);
    expect(minted.token).toMatch(/^nrsa_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(minted.expiresAt)).toBe(clock.getTime() + 90 * DAY_MS);

    const row = await t.cp.db
      .selectFrom('access_tokens')
      .selectAll()
      .where('id', '=', minted.tokenId)
      .executeTakeFirstOrThrow();
    // PGlite reads bytea as a Uint8Array, pg as a Buffer.
    expect(Buffer.from(row.token_hash).equals(createHash('sha256').update(minted.token).digest())).toBe(true);
    expect(JSON.stringify(row)).not.toContain(minted.token.slice(5));
    expect(row).toMatchObject({
      kind: 'service_account',
      service_account_id: account.id,
      organization_id: provider.organizationId,
    });

    const tokens = await t.call<{ tokens: TokenView[]; totalCount: number }>(
      'GET',
      `/v1/service-accounts/${account.id}/tokens`,
      { as: provider },
    );
    expect(tokens.body).toEqual({
      tokens: [
        {
          tokenId: minted.tokenId,
          name: 'ci',
          expiresAt: minted.expiresAt,
          lastUsedAt: null,
          revoked: false,
          createTime: clock.toISOString(),
        },
      ],
      totalCount: 1,
    });
    expect(JSON.stringify(tokens.body)).not.toContain(minted.token);
    expect((await accountOf(provider, account.id)).body.serviceAccount.activeTokenCount).toBe(1);

    const robot = { token: minted.token };
    expect((await t.call('GET', '/v1/regions', { as: robot })).status).toBe(200);
    expect(
      (await t.call('GET', '/v1/regions', { as: { ...robot, organizationId: provider.organizationId } }))
        .status,
    ).toBe(200);
    const elsewhere = await t.call('GET', '/v1/regions', {
      as: { ...robot, organizationId: stranger.organizationId },
    });
    expect([elsewhere.status, elsewhere.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await t.call('GET', '/v1/secrets', { as: robot })).status).toBe(200);

    await expect
      .poll(async () => (await accountOf(provider, account.id)).body.serviceAccount.lastUsedAt)
      .toBe(clock.toISOString());
    expect(t.logLines.filter((l) => l.includes(minted.token))).toEqual([]);
  });

  it('lets a token be used only from its allowed addresses', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const account = await createAccount(owner, { allowedIps: ['10.0.0.0/8'] });
    const robot = { token: (await mintToken(owner, account.id)).token };
    const refused = await t.call('GET', '/v1/secrets', { as: robot });
    expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_DENIED']);

    await t.call('PATCH', `/v1/service-accounts/${account.id}`, {
      as: owner,
      body: { allowedIps: ['10.0.0.0/8', '127.0.0.1/32'] },
    });
    expect((await t.call('GET', '/v1/secrets', { as: robot })).status).toBe(200);
    await t.call('PATCH', `/v1/service-accounts/${account.id}`, { as: owner, body: { allowedIps: ['::2'] } });
    expect((await t.call('GET', '/v1/secrets', { as: robot })).status).toBe(403);
    await t.call('PATCH', `/v1/service-accounts/${account.id}`, { as: owner, body: { allowedIps: [] } });
    expect((await t.call('GET', '/v1/secrets', { as: robot })).status).toBe(200);
  });

  it('stops the tokens of a revoked token, a deactivated account and a deleted account', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const account = await createAccount(owner);
    const revoked = await mintToken(owner, account.id, { name: 'old' });
    const kept = await mintToken(owner, account.id, { name: 'new' });
    const use = async (minted: Minted): Promise<number> =>
      (await t.call('GET', '/v1/environment-variables', { as: { token: minted.token } })).status;
    expect([await use(revoked), await use(kept)]).toEqual([200, 200]);

    expect(
      (await t.call('DELETE', `/v1/service-accounts/tokens/${revoked.tokenId}`, { as: owner })).status,
    ).toBe(200);
    expect(
      (await t.call('DELETE', `/v1/service-accounts/tokens/${revoked.tokenId}`, { as: owner })).status,
    ).toBe(200);
    expect(
      (await t.call('DELETE', `/v1/service-accounts/tokens/${randomUUID()}`, { as: owner })).status,
    ).toBe(404);
    expect([await use(revoked), await use(kept)]).toEqual([401, 200]);
    const tokens = await t.call<{ tokens: TokenView[] }>('GET', `/v1/service-accounts/${account.id}/tokens`, {
      as: owner,
    });
    expect(Object.fromEntries(tokens.body.tokens.map((tk) => [tk.name, tk.revoked]))).toEqual({
      old: true,
      new: false,
    });
    expect((await accountOf(owner, account.id)).body.serviceAccount.activeTokenCount).toBe(1);

    await t.call('PATCH', `/v1/service-accounts/${account.id}`, { as: owner, body: { isActive: false } });
    expect(await use(kept)).toBe(401);
    const onInactive = await t.call('POST', `/v1/service-accounts/${account.id}/tokens`, {
      as: owner,
      body: { name: 'refused' },
    });
    expect([onInactive.status, onInactive.body.code]).toEqual([412, 'FAILED_PRECONDITION']);
    await t.call('PATCH', `/v1/service-accounts/${account.id}`, { as: owner, body: { isActive: true } });
    expect(await use(kept)).toBe(200);

    expect((await t.call('DELETE', `/v1/service-accounts/${account.id}`, { as: owner })).status).toBe(200);
    expect(await use(kept)).toBe(401);
    expect((await accountOf(owner, account.id)).status).toBe(404);
    expect((await t.call('GET', `/v1/service-accounts/${account.id}/tokens`, { as: owner })).status).toBe(
      404,
    );
    expect(
      (await t.call('DELETE', `/v1/service-accounts/tokens/${kept.tokenId}`, { as: owner })).status,
    ).toBe(404);
    const rows = await t.cp.db
      .selectFrom('access_tokens')
      .select('revoked_at')
      .where('service_account_id', '=', account.id)
      .execute();
    expect(rows.map((r) => r.revoked_at)).toEqual([expect.any(Date), expect.any(Date)]);

    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select(['action', 'target_type'])
            .where('target_id', 'in', [revoked.tokenId, kept.tokenId])
            .orderBy('id')
            .execute()
        ).map((e) => `${e.action} ${e.target_type ?? ''}`),
      )
      .toEqual([
        'serviceAccount.createToken serviceAccountToken',
        'serviceAccount.createToken serviceAccountToken',
        'serviceAccount.revokeToken serviceAccountToken',
        'serviceAccount.revokeToken serviceAccountToken',
        'serviceAccount.revokeToken serviceAccountToken',
      ]);
  });

  it('expires a token when its lifetime has passed', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const account = await createAccount(owner);
    const minted = await mintToken(owner, account.id, { expiresInDays: 1 });
    expect(Date.parse(minted.expiresAt)).toBe(clock.getTime() + DAY_MS);
    const robot = { token: minted.token };
    clock = new Date(clock.getTime() + DAY_MS - 60_000);
    expect((await t.call('GET', '/v1/secrets', { as: robot })).status).toBe(200);
    clock = new Date(clock.getTime() + 2 * 60_000);
    const expired = await t.call('GET', '/v1/secrets', { as: robot });
    expect([expired.status, expired.body.code]).toEqual([401, 'UNAUTHENTICATED']);
    const fresh = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', `/v1/service-accounts/${account.id}`, { as: fresh })).status).toBe(404);
  });

  it('gives a token the role of its account', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const member = { token: (await mintToken(owner, (await createAccount(owner)).id)).token };
    const adminAccount = await createAccount(owner, { role: 'MEMBER_ROLE_ADMIN' });
    const admin = { token: (await mintToken(owner, adminAccount.id)).token };

    const refused = await t.call('POST', '/v1/secrets', { as: member, body: { key: 'K', value: 'v' } });
    expect([refused.status, refused.body.code]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await t.call('GET', '/v1/environment-variables', { as: member })).status).toBe(200);
    expect((await t.call('GET', '/v1/secrets', { as: member })).status).toBe(200);
    // Credentials are an admin's business, reads included.
    expect((await t.call('GET', '/v1/service-accounts', { as: member })).status).toBe(403);

    const created = await t.call<{ secret: { createdBy: string } }>('POST', '/v1/secrets', {
      as: admin,
      body: { key: 'K', value: 'v' },
    });
    expect([created.status, created.body.secret.createdBy]).toEqual([201, adminAccount.id]);
    expect((await t.call('GET', '/v1/service-accounts', { as: admin })).status).toBe(200);
  });

  it('finds nothing of another organization with a token: 404, never 403', async () => {
    const a = await t.register('ORGANIZATION_TYPE_CLIENT');
    const b = await t.register('ORGANIZATION_TYPE_CLIENT');
    const robotA = {
      token: (await mintToken(a, (await createAccount(a, { role: 'MEMBER_ROLE_ADMIN' })).id)).token,
    };

    const bAccount = await createAccount(b, { role: 'MEMBER_ROLE_ADMIN' });
    const bMinted = await mintToken(b, bAccount.id);
    const secret = await t.call<{ secret: { id: string } }>('POST', '/v1/secrets', {
      as: b,
      body: { key: 'B_SECRET', value: 'b' },
    });
    const variable = await t.call<{ environmentVariable: { id: string } }>(
      'POST',
      '/v1/environment-variables',
      {
        as: b,
        body: { key: 'B_VARIABLE', value: 'b' },
      },
    );
    const publicKey = sshpk
      .parseKey(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }), 'pem')
      .toString('ssh');
    const sshKey = await t.call<{ sshKey: { id: string } }>('POST', '/v1/ssh-keys', {
      as: b,
      body: { name: 'b', publicKey },
    });
    const paths = [
      `/v1/secrets/${secret.body.secret.id}`,
      `/v1/environment-variables/${variable.body.environmentVariable.id}`,
      `/v1/ssh-keys/${sshKey.body.sshKey.id}`,
      `/v1/service-accounts/${bAccount.id}`,
    ];
    for (const path of paths) {
      expect((await t.call('GET', path, { as: robotA })).status, path).toBe(404);
      expect((await t.call('DELETE', path, { as: robotA })).status, path).toBe(404);
    }
    for (const path of paths.filter((p) => !p.includes('ssh-keys') && !p.includes('service-accounts'))) {
      expect((await t.call('PATCH', path, { as: robotA, body: { value: 'a' } })).status, path).toBe(404);
    }
    // Changing an account or minting its tokens is refused to every token before any lookup (ADR 0019):
    // the same 403 for B's account as for one that exists nowhere.
    for (const id of [bAccount.id, randomUUID()]) {
      const changed = await t.call('PATCH', `/v1/service-accounts/${id}`, {
        as: robotA,
        body: { isActive: false },
      });
      const minted = await t.call('POST', `/v1/service-accounts/${id}/tokens`, {
        as: robotA,
        body: { name: 'x' },
      });
      expect([changed.status, minted.status]).toEqual([403, 403]);
    }
    expect((await t.call('GET', `/v1/service-accounts/${bAccount.id}/tokens`, { as: robotA })).status).toBe(
      404,
    );
    expect(
      (await t.call('DELETE', `/v1/service-accounts/tokens/${bMinted.tokenId}`, { as: robotA })).status,
    ).toBe(404);

    // B's objects are untouched and B's token still works.
    for (const path of paths) expect((await t.call('GET', path, { as: b })).status, path).toBe(200);
    expect((await accountOf(b, bAccount.id)).body.serviceAccount).toMatchObject({
      isActive: true,
      activeTokenCount: 1,
    });
    expect((await t.call('GET', '/v1/secrets', { as: { token: bMinted.token } })).body.totalCount).toBe(1);
  });
});
