import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type ApiResponse,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

interface VariableView {
  id: string;
  key: string;
  value: string;
  organizationId: string;
  createTime: string;
  updateTime: string;
}

interface VariableList {
  environmentVariables: VariableView[];
  totalCount: number;
}

function fieldsOf(response: ApiResponse): string[] {
  const details = response.body.details as { fieldViolations: { field: string }[] }[];
  return details.flatMap((d) => d.fieldViolations.map((v) => v.field));
}

describe.each(DATABASE_KINDS)('environment variables on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  it('creates, lists, reads, changes and deletes a variable, value included', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const created = await t.call<{ environmentVariable: VariableView }>('POST', '/v1/environment-variables', {
      as: owner,
      body: { key: 'APP_ENV', value: 'production' },
    });
    expect(created.status).toBe(201);
    const variable = created.body.environmentVariable;
    expect(variable).toMatchObject({
      key: 'APP_ENV',
      value: 'production',
      organizationId: owner.organizationId,
    });

    expect((await t.call('GET', '/v1/environment-variables', { as: owner })).body).toEqual({
      environmentVariables: [variable],
      totalCount: 1,
    });
    expect((await t.call('GET', `/v1/environment-variables/${variable.id}`, { as: owner })).body).toEqual({
      environmentVariable: variable,
    });
    const patched = await t.call<{ environmentVariable: VariableView }>(
      'PATCH',
      `/v1/environment-variables/${variable.id}`,
      { as: owner, body: { value: 'staging' } },
    );
    expect(patched.body.environmentVariable).toMatchObject({
      id: variable.id,
      key: 'APP_ENV',
      value: 'staging',
    });
    // An empty value is a value: unlike a secret, a variable may be set to nothing.
    const emptied = await t.call<{ environmentVariable: VariableView }>(
      'PATCH',
      `/v1/environment-variables/${variable.id}`,
      { as: owner, body: { value: '' } },
    );
    expect(emptied.body.environmentVariable.value).toBe('');

    expect((await t.call('DELETE', `/v1/environment-variables/${variable.id}`, { as: owner })).status).toBe(
      200,
    );
    expect((await t.call('GET', `/v1/environment-variables/${variable.id}`, { as: owner })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/environment-variables/${variable.id}`, { as: owner })).status).toBe(
      404,
    );

    await expect
      .poll(async () =>
        (
          await t.cp.db
            .selectFrom('audit_events')
            .select('action')
            .where('organization_id', '=', owner.organizationId)
            .where('target_id', '=', variable.id)
            .orderBy('id')
            .execute()
        ).map((e) => e.action),
      )
      .toEqual([
        'environmentVariable.create',
        'environmentVariable.update',
        'environmentVariable.update',
        'environmentVariable.delete',
        'environmentVariable.delete',
      ]);
  });

  it('filters by a part of the key, taking underscores literally and ignoring case', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    for (const key of ['DB_HOST', 'DBXHOST', 'DB_PORT', 'CACHE_HOST']) {
      await t.call('POST', '/v1/environment-variables', {
        as: owner,
        body: { key, value: key.toLowerCase() },
      });
    }
    const keys = async (query: string): Promise<[string[], number]> => {
      const list = await t.call<VariableList>('GET', `/v1/environment-variables?${query}`, { as: owner });
      return [list.body.environmentVariables.map((v) => v.key), list.body.totalCount];
    };
    expect(await keys('filterKey=B_H')).toEqual([['DB_HOST'], 1]);
    expect(await keys('filterKey=host')).toEqual([['CACHE_HOST', 'DBXHOST', 'DB_HOST'], 3]);
    expect(await keys('filterKey=host&pageSize=2&page=1')).toEqual([['DB_HOST'], 3]);
    expect(await keys('filterKey=')).toEqual([['CACHE_HOST', 'DBXHOST', 'DB_HOST', 'DB_PORT'], 4]);
    expect(await keys('filterKey=%25')).toEqual([[], 0]);
  });

  it('refuses bad keys and values with the field at fault, and writes nothing', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const cases: [string, string, unknown, string[]][] = [
      ['POST', '/v1/environment-variables', { key: 'lower', value: 'v' }, ['key']],
      ['POST', '/v1/environment-variables', { key: '9LIVES', value: 'v' }, ['key']],
      ['POST', '/v1/environment-variables', { key: 'SPACE KEY', value: 'v' }, ['key']],
      ['POST', '/v1/environment-variables', { key: 'NUMBER', value: 7 }, ['value']],
      ['POST', '/v1/environment-variables', { key: 'HUGE', value: 'x'.repeat(64 * 1024 + 1) }, ['value']],
      ['POST', '/v1/environment-variables', { value: 'v' }, ['key']],
    ];
    for (const [method, path, body, fields] of cases) {
      const response = await t.call(method, path, { as: owner, body });
      expect([response.status, fieldsOf(response)]).toEqual([400, fields]);
    }
    expect((await t.call('GET', '/v1/environment-variables?pageSize=101', { as: owner })).status).toBe(400);
    expect((await t.call('GET', '/v1/environment-variables/not-a-uuid', { as: owner })).status).toBe(400);
    expect(
      (await t.call<VariableList>('GET', '/v1/environment-variables', { as: owner })).body.totalCount,
    ).toBe(0);
  });

  it('keeps one namespace per organization for secrets and variables', async () => {
    const owner = await t.register('ORGANIZATION_TYPE_CLIENT');
    const post = (kind: 'env' | 'secret', key: string): Promise<ApiResponse> =>
      t.call('POST', kind === 'env' ? '/v1/environment-variables' : '/v1/secrets', {
        as: owner,
        body: { key, value: 'v' },
      });
    expect((await post('env', 'HOSTNAME')).status).toBe(201);
    const duplicate = await post('env', 'HOSTNAME');
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'ALREADY_EXISTS']);
    expect(duplicate.body.message).toBe('The organization already has an environment variable HOSTNAME.');

    expect((await post('secret', 'PASSWORD')).status).toBe(201);
    const clash = await post('env', 'PASSWORD');
    expect(clash.status).toBe(409);
    expect(clash.body.message).toContain('PASSWORD is already a secret');
    expect(
      (await t.call<VariableList>('GET', '/v1/environment-variables', { as: owner })).body.totalCount,
    ).toBe(1);

    // Racing creates of one key as a secret and as a variable: exactly one wins.
    const raced = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post(i % 2 === 0 ? 'env' : 'secret', 'RACED')),
    );
    expect(raced.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it("hides another organization's variables: 404, never 403", async () => {
    const owner = await t.register();
    const stranger = await t.register();
    const created = await t.call<{ environmentVariable: VariableView }>('POST', '/v1/environment-variables', {
      as: owner,
      body: { key: 'MINE', value: 'mine' },
    });
    const id = created.body.environmentVariable.id;
    expect((await t.call('GET', `/v1/environment-variables/${id}`, { as: stranger })).status).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/environment-variables/${id}`, { as: stranger, body: { value: 'x' } }))
        .status,
    ).toBe(404);
    expect((await t.call('DELETE', `/v1/environment-variables/${id}`, { as: stranger })).status).toBe(404);
    expect((await t.call('GET', '/v1/environment-variables', { as: stranger })).body.totalCount).toBe(0);
    expect(
      (
        await t.call<{ environmentVariable: VariableView }>('GET', `/v1/environment-variables/${id}`, {
          as: owner,
        })
      ).body.environmentVariable.value,
    ).toBe('mine');
  });
});
