import { randomBytes, randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { SecretBox } from '../../crypto/secret-box.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import {
  SecretRepository,
  SecretService,
  TEMPLATE_VARIABLE_VALUE_MAX_BYTES,
  UnreadableSecretError,
} from './index.js';

interface SecretView {
  id: string;
  key: string;
  organizationId: string;
  createdBy: string | null;
  createTime: string;
  updateTime: string;
}

function fieldsOf(response: ApiResponse): string[] {
  const details = response.body.details as { fieldViolations: { field: string }[] }[];
  return details.flatMap((d) => d.fieldViolations.map((v) => v.field));
}

describe.each(DATABASE_KINDS)('secrets on the %s database', (kind) => {
  const secretKey = randomBytes(32);
  let t: TestControlPlane;
  /** The internal (non-HTTP) side, opened with the same key the control plane seals with. */
  let service: SecretService;
  beforeAll(async () => {
    t = await startTestControlPlane(kind, { secretKey });
    service = new SecretService({
      secrets: new SecretRepository(t.cp.db),
      box: new SecretBox(secretKey),
      now: () => new Date(),
    });
  });
  afterAll(() => t.close());

  it('creates, lists, reads, replaces and deletes a secret, and audits each change', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const created = await t.call<{ secret: SecretView }>('POST', '/v1/secrets', {
      as: owner,
      body: { key: 'DB_PASSWORD', value: 'first value' },
    });
    expect(created.status).toBe(201);
    const { secret } = created.body;
    expect(secret).toEqual({
      id: expect.any(String) as unknown,
      key: 'DB_PASSWORD',
      organizationId: owner.organizationId,
      createdBy: owner.userId,
      createTime: expect.any(String) as unknown,
      updateTime: secret.createTime,
    });

    const list = await t.call<{ secrets: SecretView[]; totalCount: number }>('GET', '/v1/secrets', {
      as: owner,
    });
    expect(list.body).toEqual({ secrets: [secret], totalCount: 1 });
    expect((await t.call('GET', `/v1/secrets/${secret.id}`, { as: owner })).body).toEqual({ secret });

    const patched = await t.call<{ secret: SecretView }>('PATCH', `/v1/secrets/${secret.id}`, {
      as: owner,
      body: { value: 'second value' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.secret.key).toBe('DB_PASSWORD');
    expect(Date.parse(patched.body.secret.updateTime)).toBeGreaterThanOrEqual(Date.parse(secret.updateTime));
    expect(await service.openAll(owner.organizationId)).toEqual(new Map([['DB_PASSWORD', 'second value']]));

    expect((await t.call('DELETE', `/v1/secrets/${secret.id}`, { as: owner })).body).toEqual({
      success: true,
    });
    expect((await t.call('GET', `/v1/secrets/${secret.id}`, { as: owner })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/secrets/${secret.id}`, { as: owner })).status).toBe(404);
    expect(await service.openAll(owner.organizationId)).toEqual(new Map());

    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select(['action', 'target_id', 'status_code'])
            .where('organization_id', '=', owner.organizationId)
            .where('action', 'like', 'secret.%')
            .orderBy('id')
            .execute()
        ).map((e) => [e.action, e.target_id, e.status_code]),
      )
      .toEqual([
        ['secret.create', secret.id, 201],
        ['secret.update', secret.id, 200],
        ['secret.delete', secret.id, 200],
        ['secret.delete', secret.id, 404],
      ]);
  });

  it('never returns, logs or stores in clear a value, whatever the route and outcome', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const stranger = await t.register('ORGANIZATION_TYPE_CLIENT');
    const first = `first-${randomUUID()}`;
    const second = `second-${randomUUID()}`;
    const responses: ApiResponse[] = [];
    const call = async <T>(...args: Parameters<TestControlPlane['call']>): Promise<ApiResponse<T>> => {
      const response = await t.call<T>(...args);
      responses.push(response as ApiResponse);
      return response;
    };

    const created = await call<{ secret: SecretView }>('POST', '/v1/secrets', {
      as: owner,
      body: { key: 'API_TOKEN', value: first },
    });
    const id = created.body.secret.id;
    await call('POST', '/v1/secrets', { as: owner, body: { key: 'API_TOKEN', value: first } });
    await call('POST', '/v1/secrets', { as: owner, body: { key: 'api-token', value: first } });
    await call('POST', '/v1/secrets', { as: owner, body: { key: 'OTHER', value: first, note: first } });
    await call('POST', '/v1/secrets', { as: stranger, body: { key: 'API_TOKEN', value: 42 } });
    await call('GET', '/v1/secrets', { as: owner });
    await call('GET', `/v1/secrets/${id}`, { as: owner });
    await call('GET', `/v1/secrets/${id}`, { as: stranger });
    await call('PATCH', `/v1/secrets/${id}`, { as: stranger, body: { value: second } });
    await call('PATCH', `/v1/secrets/${id}`, { as: owner, body: { value: second, key: 'X' } });
    await call('PATCH', `/v1/secrets/${id}`, { as: owner, body: { value: second } });
    await call('PATCH', `/v1/secrets/${randomUUID()}`, { as: owner, body: { value: second } });
    await call('PATCH', `/v1/secrets/${id}`, { as: { token: 'nrs_invalid' }, body: { value: second } });

    expect(responses.map((r) => r.status)).toEqual([
      201, 409, 400, 400, 400, 200, 200, 404, 404, 400, 200, 404, 401,
    ]);
    for (const response of responses) {
      const text = JSON.stringify(response.body);
      expect(text).not.toContain(first);
      expect(text).not.toContain(second);
    }
    expect(t.logLines.length).toBeGreaterThan(0);
    expect(t.logLines.filter((l) => l.includes(first) || l.includes(second))).toEqual([]);

    const row = await t.cp.db
      .selectFrom('secrets')
      .select('ciphertext')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    for (const form of [
      second,
      Buffer.from(second).toString('base64'),
      Buffer.from(second).toString('hex'),
    ]) {
      expect(row.ciphertext).not.toContain(form);
    }
    expect(await service.openAll(owner.organizationId)).toEqual(new Map([['API_TOKEN', second]]));
  });

  it('binds a ciphertext to its organization and key, so a copied one does not open', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const other = await t.register('ORGANIZATION_TYPE_CLIENT');
    const create = async (as: typeof owner, key: string, value: string): Promise<string> =>
      (await t.call<{ secret: SecretView }>('POST', '/v1/secrets', { as, body: { key, value } })).body.secret
        .id;
    const source = await create(owner, 'SOURCE', 'the source value');
    const target = await create(owner, 'TARGET', 'the target value');
    const foreign = await create(other, 'SOURCE', 'another organization');
    const ciphertextOf = async (id: string): Promise<string> =>
      (
        await t.cp.db
          .selectFrom('secrets')
          .select('ciphertext')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).ciphertext;
    const sealed = await ciphertextOf(source);
    expect(await service.openAll(owner.organizationId)).toEqual(
      new Map([
        ['SOURCE', 'the source value'],
        ['TARGET', 'the target value'],
      ]),
    );

    await t.cp.db.updateTable('secrets').set({ ciphertext: sealed }).where('id', '=', target).execute();
    const sameOrganization = service.openAll(owner.organizationId);
    await expect(sameOrganization).rejects.toBeInstanceOf(UnreadableSecretError);
    await expect(sameOrganization).rejects.toMatchObject({ key: 'TARGET' });

    // Same key, other organisation: the organisation is bound too.
    await t.cp.db.updateTable('secrets').set({ ciphertext: sealed }).where('id', '=', foreign).execute();
    await expect(service.openAll(other.organizationId)).rejects.toMatchObject({ key: 'SOURCE' });

    // A box with another key opens nothing either.
    const stranger = new SecretService({
      secrets: new SecretRepository(t.cp.db),
      box: new SecretBox(randomBytes(32)),
      now: () => new Date(),
    });
    await t.cp.db.deleteFrom('secrets').where('id', '=', target).execute();
    await expect(stranger.openAll(owner.organizationId)).rejects.toBeInstanceOf(UnreadableSecretError);
  });

  it('refuses bad keys and values with the field at fault, and writes nothing', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const cases: [unknown, string[]][] = [
      [{ key: 'lower_case', value: 'v' }, ['key']],
      [{ key: '1ST', value: 'v' }, ['key']],
      [{ key: 'WITH-DASH', value: 'v' }, ['key']],
      [{ key: `K${'X'.repeat(128)}`, value: 'v' }, ['key']],
      [{ key: '', value: 'v' }, ['key']],
      [{ key: 'EMPTY', value: '' }, ['value']],
      // Under the limit in characters, over it in bytes.
      [{ key: 'TOO_BIG', value: 'é'.repeat(TEMPLATE_VARIABLE_VALUE_MAX_BYTES / 2 + 1) }, ['value']],
      [{ key: 'NO_VALUE' }, ['value']],
      [{ key: 'EXTRA', value: 'v', createdBy: 'me' }, ['createdBy']],
    ];
    for (const [body, fields] of cases) {
      const response = await t.call('POST', '/v1/secrets', { as: owner, body });
      expect(response.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(response.body.code).toBe('INVALID_ARGUMENT');
      expect(fieldsOf(response)).toEqual(fields);
    }
    expect((await t.call('GET', '/v1/secrets', { as: owner })).body.totalCount).toBe(0);

    const largest = 'x'.repeat(TEMPLATE_VARIABLE_VALUE_MAX_BYTES);
    const accepted = await t.call<{ secret: SecretView }>('POST', '/v1/secrets', {
      as: owner,
      body: { key: `_${'A'.repeat(127)}`, value: largest },
    });
    expect(accepted.status).toBe(201);
    const patch = await t.call('PATCH', `/v1/secrets/${accepted.body.secret.id}`, {
      as: owner,
      body: { value: '' },
    });
    expect([patch.status, fieldsOf(patch)]).toEqual([400, ['value']]);
    expect((await service.openAll(owner.organizationId)).get(`_${'A'.repeat(127)}`)).toBe(largest);
  });

  it('refuses a key that is already a secret or an environment variable of the organization', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect(
      (await t.call('POST', '/v1/secrets', { as: owner, body: { key: 'TOKEN', value: 'a' } })).status,
    ).toBe(201);
    const duplicate = await t.call('POST', '/v1/secrets', { as: owner, body: { key: 'TOKEN', value: 'b' } });
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'ALREADY_EXISTS']);

    await t.call('POST', '/v1/environment-variables', { as: owner, body: { key: 'REGION', value: 'eu' } });
    const clash = await t.call('POST', '/v1/secrets', { as: owner, body: { key: 'REGION', value: 'b' } });
    expect(clash.status).toBe(409);
    expect(clash.body.message).toContain('REGION is already an environment variable');

    // Another organisation has its own namespace.
    const other = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect(
      (await t.call('POST', '/v1/secrets', { as: other, body: { key: 'TOKEN', value: 'c' } })).status,
    ).toBe(201);
    expect(await service.openAll(owner.organizationId)).toEqual(new Map([['TOKEN', 'a']]));
  });

  it("hides another organization's secrets: 404, never 403", async () => {
    const owner = await t.register();
    const stranger = await t.register();
    const created = await t.call<{ secret: SecretView }>('POST', '/v1/secrets', {
      as: owner,
      body: { key: 'MINE', value: 'mine' },
    });
    const id = created.body.secret.id;
    expect((await t.call('GET', `/v1/secrets/${id}`, { as: stranger })).status).toBe(404);
    expect((await t.call('PATCH', `/v1/secrets/${id}`, { as: stranger, body: { value: 'x' } })).status).toBe(
      404,
    );
    expect((await t.call('DELETE', `/v1/secrets/${id}`, { as: stranger })).status).toBe(404);
    expect((await t.call('GET', '/v1/secrets', { as: stranger })).body.totalCount).toBe(0);
    // Naming the other organisation in the header does not help either.
    const header = await t.call('GET', `/v1/secrets/${id}`, {
      as: { token: stranger.token, organizationId: owner.organizationId },
    });
    expect(header.status).toBe(403);
    expect(await service.openAll(owner.organizationId)).toEqual(new Map([['MINE', 'mine']]));
  });

  it('pages with 0-based pages, ordered by key', async () => {
    const owner = await t.register();
    for (const key of ['C', 'A', 'B']) {
      await t.call('POST', '/v1/secrets', { as: owner, body: { key, value: key } });
    }
    const page = async (n: number) =>
      (
        await t.call<{ secrets: SecretView[]; totalCount: number }>(
          'GET',
          `/v1/secrets?page=${n}&pageSize=2`,
          { as: owner },
        )
      ).body;
    const [first, second] = [await page(0), await page(1)];
    expect([...first.secrets, ...second.secrets].map((s) => s.key)).toEqual(['A', 'B', 'C']);
    expect(first.totalCount).toBe(3);
    expect((await t.call('GET', '/v1/secrets?pageSize=0', { as: owner })).status).toBe(400);
  });
});
