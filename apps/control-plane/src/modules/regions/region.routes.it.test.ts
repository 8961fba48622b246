import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

describe.each(DATABASE_KINDS)('regions on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  it('creates, lists, reads and deletes a region from the catalogue', async () => {
    const provider = await t.register();
    const created = await t.call<{
      id: string;
      cityCountry: { cityName: string };
      datacenter: { name: string };
    }>('POST', '/v1/regions', {
      as: provider,
      body: { cityCountryId: 'de-fra', datacenterId: 'equinix-fr5' },
    });
    expect(created.status).toBe(201);
    expect(created.body.cityCountry.cityName).toBe('Frankfurt');
    expect(created.body.datacenter.name).toBe('Equinix FR5');

    const list = await t.call<{ regions: { id: string }[]; totalCount: number }>(
      'GET',
      '/v1/regions?search=frank',
      { as: provider },
    );
    expect(list.body.totalCount).toBe(1);
    expect(list.body.regions.map((r) => r.id)).toEqual([created.body.id]);
    expect(
      (await t.call<{ totalCount: number }>('GET', '/v1/regions?search=tokyo', { as: provider })).body
        .totalCount,
    ).toBe(0);

    expect((await t.call('GET', `/v1/regions/${created.body.id}`, { as: provider })).status).toBe(200);
    expect((await t.call('DELETE', `/v1/regions/${created.body.id}`, { as: provider })).status).toBe(200);
    expect((await t.call('GET', `/v1/regions/${created.body.id}`, { as: provider })).status).toBe(404);
  });

  it('refuses a duplicate region, an unknown city and a datacenter in another city', async () => {
    const provider = await t.register();
    const body = { cityCountryId: 'nl-ams', datacenterId: 'equinix-am5' };
    expect((await t.call('POST', '/v1/regions', { as: provider, body })).status).toBe(201);
    const duplicate = await t.call('POST', '/v1/regions', { as: provider, body });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('ALREADY_EXISTS');
    expect(duplicate.body.message).toBe('A region for Equinix AM5 in Amsterdam already exists.');
    const unknown = await t.call('POST', '/v1/regions', {
      as: provider,
      body: { cityCountryId: 'xx-nowhere', datacenterId: 'own-facility' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details).toEqual([
      {
        '@type': 'type.googleapis.com/google.rpc.BadRequest',
        fieldViolations: [{ field: 'cityCountryId', description: expect.any(String) as unknown }],
      },
    ]);
    const elsewhere = await t.call('POST', '/v1/regions', {
      as: provider,
      body: { cityCountryId: 'gb-lon', datacenterId: 'equinix-am5' },
    });
    expect(elsewhere.status).toBe(400);
  });

  it('pages with 0-based pages and reports the total', async () => {
    const provider = await t.register();
    for (const cityCountryId of ['fr-par', 'gb-lon', 'us-nyc']) {
      await t.call('POST', '/v1/regions', {
        as: provider,
        body: { cityCountryId, datacenterId: 'own-facility' },
      });
    }
    const first = await t.call<{ regions: unknown[]; totalCount: number }>(
      'GET',
      '/v1/regions?page=0&pageSize=2',
      { as: provider },
    );
    const second = await t.call<{ regions: unknown[]; totalCount: number }>(
      'GET',
      '/v1/regions?page=1&pageSize=2',
      { as: provider },
    );
    expect([first.body.regions.length, second.body.regions.length, first.body.totalCount]).toEqual([2, 1, 3]);
    expect((await t.call('GET', '/v1/regions?pageSize=101', { as: provider })).status).toBe(400);
    expect((await t.call('GET', '/v1/regions?page=-1', { as: provider })).status).toBe(400);
  });

  it('is for providers only', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const response = await t.call('GET', '/v1/regions', { as: client });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe('PERMISSION_DENIED');
  });
});
