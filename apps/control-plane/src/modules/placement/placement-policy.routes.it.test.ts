import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createRegion } from '../nodes/node.test-support.js';
import { fieldsOf } from '../plans/plan.test-support.js';

interface Policy {
  defaultStrategy: string;
  regionOverrides: { regionId: string; strategy: string }[];
}

describe.each(DATABASE_KINDS)('the node placement policy on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function policyOf(as: Caller): Promise<Policy> {
    const response = await t.call<{ policy: Policy }>('GET', '/v1/node-placement-policy', { as });
    expect(response.status).toBe(200);
    return response.body.policy;
  }

  it('is FIRST_STABLE everywhere until set, then what was put, replaced whole by the next put', async () => {
    const provider = await t.register();
    const [fra, ams] = [await createRegion(t, provider, 'de-fra'), await createRegion(t, provider, 'nl-ams')];
    expect(await policyOf(provider)).toEqual({
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE',
      regionOverrides: [],
    });
    const policy = {
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS',
      regionOverrides: [
        { regionId: ams, strategy: 'NODE_PLACEMENT_STRATEGY_RANDOM' },
        { regionId: fra, strategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' },
      ],
    };
    const put = await t.call('PUT', '/v1/node-placement-policy', { as: provider, body: policy });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ policy });
    expect(await policyOf(provider)).toEqual(policy);

    const replaced = await t.call('PUT', '/v1/node-placement-policy', {
      as: provider,
      body: { defaultStrategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' },
    });
    expect(replaced.status).toBe(200);
    expect(await policyOf(provider)).toEqual({
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN',
      regionOverrides: [],
    });
  });

  it('refuses a region twice, an unknown strategy and a malformed region id with the field, changing nothing', async () => {
    const provider = await t.register();
    const fra = await createRegion(t, provider);
    const before = await policyOf(provider);
    const twice = await t.call('PUT', '/v1/node-placement-policy', {
      as: provider,
      body: {
        defaultStrategy: 'NODE_PLACEMENT_STRATEGY_RANDOM',
        regionOverrides: [
          { regionId: fra, strategy: 'NODE_PLACEMENT_STRATEGY_RANDOM' },
          { regionId: fra, strategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' },
        ],
      },
    });
    expect(twice.status).toBe(400);
    expect(fieldsOf(twice.body)).toEqual(['regionOverrides.1.regionId']);
    const unknown = await t.call('PUT', '/v1/node-placement-policy', {
      as: provider,
      body: { defaultStrategy: 'NODE_PLACEMENT_STRATEGY_UNSPECIFIED' },
    });
    expect(unknown.status).toBe(400);
    expect(fieldsOf(unknown.body)).toEqual(['defaultStrategy']);
    const malformed = await t.call('PUT', '/v1/node-placement-policy', {
      as: provider,
      body: {
        defaultStrategy: 'NODE_PLACEMENT_STRATEGY_RANDOM',
        regionOverrides: [{ regionId: 'fra', strategy: 'NODE_PLACEMENT_STRATEGY_RANDOM' }],
      },
    });
    expect(malformed.status).toBe(400);
    expect(fieldsOf(malformed.body)).toEqual(['regionOverrides.0.regionId']);
    expect(await policyOf(provider)).toEqual(before);
  });

  it('answers 404 for another organisation’s region and leaves both policies alone', async () => {
    const a = await t.register();
    const b = await t.register();
    const bRegion = await createRegion(t, b);
    const ownPolicy = {
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_RANDOM',
      regionOverrides: [{ regionId: bRegion, strategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' }],
    };
    expect((await t.call('PUT', '/v1/node-placement-policy', { as: b, body: ownPolicy })).status).toBe(200);
    const foreign = await t.call('PUT', '/v1/node-placement-policy', {
      as: a,
      body: {
        defaultStrategy: 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS',
        regionOverrides: [{ regionId: bRegion, strategy: 'NODE_PLACEMENT_STRATEGY_RANDOM' }],
      },
    });
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('NOT_FOUND');
    expect((await policyOf(a)).defaultStrategy).toBe('NODE_PLACEMENT_STRATEGY_FIRST_STABLE');
    expect(await policyOf(b)).toEqual(ownPolicy);
  });

  it('is for provider organisations only, and a deleted region takes its override with it', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', '/v1/node-placement-policy', { as: client })).status).toBe(403);
    const provider = await t.register();
    const region = await createRegion(t, provider, 'fr-par');
    await t.call('PUT', '/v1/node-placement-policy', {
      as: provider,
      body: {
        defaultStrategy: 'NODE_PLACEMENT_STRATEGY_RANDOM',
        regionOverrides: [{ regionId: region, strategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN' }],
      },
    });
    expect((await t.call('DELETE', `/v1/regions/${region}`, { as: provider })).status).toBe(200);
    expect(await policyOf(provider)).toEqual({
      defaultStrategy: 'NODE_PLACEMENT_STRATEGY_RANDOM',
      regionOverrides: [],
    });
  });
});
