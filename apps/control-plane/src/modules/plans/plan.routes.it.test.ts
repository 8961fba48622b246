import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createRegion } from '../nodes/node.test-support.js';
import {
  countRows,
  createNode,
  createPlan,
  fieldsOf,
  planBody,
  reportInventory,
  setUpPlans,
} from './plan.test-support.js';

interface PlanView {
  id: string;
  code: string;
  name: string;
  vcpus: number;
  ramGb: number;
  cpuUnits: number;
  cpuLimit: number;
  bandwidthAllowanceGb: number;
  networkRateLimitMbps: number;
  billingType: string;
  currency: string;
  planPrices: { id: string; billingPeriod: string; currency: string; unitAmount: string }[];
  setupFee: string;
  regionId: string | null;
  nodeIds: string[];
  isPublic: boolean;
  onCreditExhaustion: string;
  revision: number;
  status: string;
}

interface Listed {
  nodes: { id: string; name: string; regionId: string; computeType: string; capacity?: string }[];
}

describe.each(DATABASE_KINDS)('plans on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  it('creates a plan with its code derived from the specs, and reads it back', async () => {
    const setup = await setUpPlans(t);
    const created = await t.call<{ plan: PlanView }>('POST', '/v1/plans', {
      as: setup.provider,
      body: planBody(setup.regionId, [setup.nodeId], { setupFee: '9.5' }),
    });
    expect(created.status).toBe(201);
    const { plan } = created.body;
    expect(plan).toMatchObject({
      code: 'SC-GC-2C-4G-40',
      cpuUnits: 1024,
      cpuLimit: 0,
      bandwidthAllowanceGb: 0,
      networkRateLimitMbps: 0,
      billingType: 'BILLING_TYPE_SUBSCRIPTION',
      currency: 'EUR',
      setupFee: '9.500000',
      regionId: setup.regionId,
      nodeIds: [setup.nodeId],
      isPublic: false,
      onCreditExhaustion: 'CREDIT_EXHAUSTION_ACTION_SUSPEND',
      revision: 1,
      status: 'STATUS_ACTIVE',
    });
    expect(plan.planPrices).toEqual([
      {
        id: expect.any(String) as unknown,
        billingPeriod: 'BILLING_PERIOD_MONTH',
        currency: 'EUR',
        unitAmount: '5.000000',
      },
    ]);
    const read = await t.call<{ plan: PlanView }>('GET', `/v1/plans/${plan.id}`, { as: setup.provider });
    expect(read.body.plan).toEqual(plan);

    const dedicated = await t.call<{ plan: PlanView }>('POST', '/v1/plans', {
      as: setup.provider,
      body: planBody(
        setup.regionId,
        [
          await createNode(t, setup, setup.regionId, 'pve-dedicated', {
            computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
          }),
        ],
        {
          code: 'DC-HF-4C-8G-160',
          computeCategory: 'COMPUTE_CATEGORY_DEDICATED_COMPUTE',
          computeType: 'COMPUTE_TYPE_HIGH_FREQUENCY',
          vcpus: 4,
          ramGb: 8,
          diskGb: 160,
        },
      ),
    });
    expect(dedicated.status).toBe(201);
    expect(dedicated.body.plan.code).toBe('DC-HF-4C-8G-160');
  });

  it('refuses a code that does not match the specs, and writes nothing', async () => {
    const setup = await setUpPlans(t);
    const before = await countRows(t, 'plans');
    const response = await t.call('POST', '/v1/plans', {
      as: setup.provider,
      body: planBody(setup.regionId, [setup.nodeId], { code: 'SC-GC-2C-8G-40' }),
    });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['code']);
    expect(JSON.stringify(response.body)).toContain('SC-GC-2C-4G-40');
    expect(await countRows(t, 'plans')).toBe(before);
  });

  it.each([
    ['vcpus', { vcpus: 0 }],
    ['vcpus', { vcpus: 513 }],
    ['ramGb', { ramGb: 1.5 }],
    ['name', { name: '   ' }],
    ['cpuLimit', { cpuLimit: 3 }],
    ['cpuLimit', { cpuLimit: 0.125 }],
    ['nodeIds', { nodeIds: [] }],
    ['planPrices', { planPrices: [] }],
    [
      'planPrices.0.unitAmount',
      { planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '1.0000001' }] },
    ],
    [
      'planPrices.0.unitAmount',
      { planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: 5 }] },
    ],
    [
      'planPrices.0.currency',
      { planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'XYZ', unitAmount: '1' }] },
    ],
    [
      'planPrices.1.billingPeriod',
      {
        planPrices: [
          { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '1' },
          { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '2' },
        ],
      },
    ],
    [
      'planPrices.1.currency',
      {
        planPrices: [
          { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '1' },
          { billingPeriod: 'BILLING_PERIOD_YEAR', currency: 'USD', unitAmount: '10' },
        ],
      },
    ],
    ['planPrices.0.billingPeriod', { billingType: 'BILLING_TYPE_USAGE' }],
    ['setupFee', { setupFee: '-1' }],
    ['onCreditExhaustion', { onCreditExhaustion: 'delete' }],
  ])('answers 400 naming %s, and writes nothing', async (field, overrides) => {
    const setup = await setUpPlans(t);
    const before = await countRows(t, 'plans');
    const response = await t.call('POST', '/v1/plans', {
      as: setup.provider,
      body: planBody(setup.regionId, [setup.nodeId], overrides),
    });
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(fieldsOf(response.body)).toContain(field);
    expect(await countRows(t, 'plans')).toBe(before);
  });

  it('refuses nodes outside the region, of the other compute category or too small, by index', async () => {
    const setup = await setUpPlans(t);
    const elsewhere = await createRegion(t, setup.provider, 'nl-ams');
    const amsterdam = await createNode(t, setup, elsewhere, 'pve-ams');
    const dedicated = await createNode(t, setup, setup.regionId, 'pve-ded', {
      computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
    });
    const tiny = await createNode(t, setup, setup.regionId, 'pve-tiny');
    await reportInventory(t, tiny, { cpuCores: 1, memoryGib: 64, storageGib: 1000 });
    const before = await countRows(t, 'plans');
    const response = await t.call('POST', '/v1/plans', {
      as: setup.provider,
      body: planBody(setup.regionId, [setup.nodeId, amsterdam, dedicated, tiny]),
    });
    expect(response.status).toBe(400);
    expect(fieldsOf(response.body)).toEqual(['nodeIds.1', 'nodeIds.2', 'nodeIds.3']);
    expect(JSON.stringify(response.body)).toContain('1 CPU cores');
    expect(await countRows(t, 'plans')).toBe(before);

    // Once the node reports enough, and while another has reported nothing, the plan is accepted.
    await reportInventory(t, tiny, { cpuCores: 16, memoryGib: 64, storageGib: 1000 });
    const accepted = await t.call('POST', '/v1/plans', {
      as: setup.provider,
      body: planBody(setup.regionId, [setup.nodeId, tiny]),
    });
    expect(accepted.status).toBe(201);
    // The disk goes to the node's VM storage (local-lvm): a pool of another name says nothing about it.
    await reportInventory(t, tiny, { cpuCores: 16, memoryGib: 64, storageGib: 10 });
    const bigDisk = planBody(setup.regionId, [tiny], { vcpus: 4 });
    const noRoom = await t.call('POST', '/v1/plans', { as: setup.provider, body: bigDisk });
    expect([noRoom.status, fieldsOf(noRoom.body)]).toEqual([400, ['nodeIds.0']]);
    await reportInventory(t, tiny, { cpuCores: 16, memoryGib: 64, storageGib: 10, storageId: 'ceph' });
    expect((await t.call('POST', '/v1/plans', { as: setup.provider, body: bigDisk })).status).toBe(201);
  });

  it('hides another organisation’s plans, regions and nodes (404) and changes nothing', async () => {
    const a = await setUpPlans(t);
    const b = await setUpPlans(t);
    const bPlan = await createPlan(t, b);
    const bBefore = await t.call('GET', `/v1/plans/${bPlan}`, { as: b.provider });
    const as = a.provider;
    expect((await t.call('GET', `/v1/plans/${bPlan}`, { as })).status).toBe(404);
    expect((await t.call('PATCH', `/v1/plans/${bPlan}`, { as, body: { name: 'Stolen' } })).status).toBe(404);
    expect((await t.call('DELETE', `/v1/plans/${bPlan}`, { as })).status).toBe(404);
    const foreignRegion = await t.call('POST', '/v1/plans', { as, body: planBody(b.regionId, [a.nodeId]) });
    expect([foreignRegion.status, foreignRegion.body.code]).toEqual([404, 'NOT_FOUND']);
    const foreignNode = await t.call('POST', '/v1/plans', {
      as,
      body: planBody(a.regionId, [a.nodeId, b.nodeId]),
    });
    expect(foreignNode.status).toBe(404);
    expect((await t.call('GET', '/v1/plans', { as })).body).toEqual({ plans: [], totalCount: 0 });
    expect((await t.call('GET', `/v1/plans/${bPlan}`, { as: b.provider })).body).toEqual(bBefore.body);
  });

  it('refuses a second plan with the same code in one organisation (409), not in another', async () => {
    const setup = await setUpPlans(t);
    const first = await createPlan(t, setup);
    const duplicate = await t.call('POST', '/v1/plans', {
      as: setup.provider,
      body: planBody(setup.regionId, [setup.nodeId], { name: 'Other name, same specs' }),
    });
    expect([duplicate.status, duplicate.body.code]).toEqual([409, 'ALREADY_EXISTS']);
    await createPlan(t, await setUpPlans(t));
    // A deleted plan frees its code.
    expect((await t.call('DELETE', `/v1/plans/${first}`, { as: setup.provider })).status).toBe(200);
    await createPlan(t, setup);
  });

  it('lists the organisation’s plans with filters and 0-based pages', async () => {
    const setup = await setUpPlans(t);
    await createPlan(t, setup);
    await createPlan(t, setup, { name: 'Fast', computeType: 'COMPUTE_TYPE_HIGH_FREQUENCY', vcpus: 1 });
    await createPlan(t, setup, {
      name: 'Metered',
      billingType: 'BILLING_TYPE_USAGE',
      ramGb: 8,
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount: '0.01' }],
    });
    const codes = async (query: string) =>
      (
        await t.call<{ plans: PlanView[]; totalCount: number }>('GET', `/v1/plans${query}`, {
          as: setup.provider,
        })
      ).body.plans.map((p) => p.code);
    expect(await codes('')).toEqual(['SC-GC-2C-4G-40', 'SC-HF-1C-4G-40', 'SC-GC-2C-8G-40']);
    expect(await codes('?filterCode=sc-hf-1c-4g-40')).toEqual(['SC-HF-1C-4G-40']);
    expect(await codes('?filterComputeType=HF')).toEqual(['SC-HF-1C-4G-40']);
    expect(await codes('?filterComputeType=COMPUTE_TYPE_GENERAL_COMPUTE')).toHaveLength(2);
    expect(await codes('?billingType=BILLING_TYPE_USAGE')).toEqual(['SC-GC-2C-8G-40']);
    expect(await codes('?search=fas')).toEqual(['SC-HF-1C-4G-40']);
    expect(await codes(`?regionId=${setup.regionId}`)).toHaveLength(3);
    const page = await t.call<{ plans: PlanView[]; totalCount: number }>(
      'GET',
      '/v1/plans?page=1&pageSize=2',
      {
        as: setup.provider,
      },
    );
    expect([page.body.plans.length, page.body.totalCount]).toEqual([1, 3]);
    expect((await t.call('GET', '/v1/plans?filterComputeType=TURBO', { as: setup.provider })).status).toBe(
      400,
    );
  });

  it('keeps what a PATCH leaves out, re-derives the code and counts a revision per change', async () => {
    const setup = await setUpPlans(t);
    const id = await createPlan(t, setup, {
      planPrices: [
        { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '5' },
        { billingPeriod: 'BILLING_PERIOD_YEAR', currency: 'EUR', unitAmount: '50' },
      ],
    });
    const patch = (body: unknown) =>
      t.call<{ plan: PlanView }>('PATCH', `/v1/plans/${id}`, { as: setup.provider, body });
    const original = (await t.call<{ plan: PlanView }>('GET', `/v1/plans/${id}`, { as: setup.provider })).body
      .plan;

    const renamed = (await patch({ name: 'Small II', isPublic: true })).body.plan;
    expect(renamed).toMatchObject({
      name: 'Small II',
      isPublic: true,
      revision: 2,
      code: 'SC-GC-2C-4G-40',
      vcpus: 2,
    });
    expect((await patch({ name: 'Small II', isPublic: true })).body.plan.revision).toBe(2);
    expect((await patch({})).body.plan.revision).toBe(2);

    const bigger = (await patch({ ramGb: 8 })).body.plan;
    expect([bigger.code, bigger.revision, bigger.name]).toEqual(['SC-GC-2C-8G-40', 3, 'Small II']);

    const repriced = (
      await patch({
        planPrices: [
          { billingPeriod: 'BILLING_PERIOD_YEAR', currency: 'EUR', unitAmount: '45.5' },
          { billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount: '0.01' },
        ],
      })
    ).body.plan;
    expect(repriced.revision).toBe(4);
    expect(repriced.planPrices.map((p) => [p.billingPeriod, p.unitAmount])).toEqual([
      ['BILLING_PERIOD_HOUR', '0.010000'],
      ['BILLING_PERIOD_YEAR', '45.500000'],
    ]);
    const yearId = original.planPrices.find((p) => p.billingPeriod === 'BILLING_PERIOD_YEAR')?.id;
    expect(repriced.planPrices.find((p) => p.billingPeriod === 'BILLING_PERIOD_YEAR')?.id).toBe(yearId);

    const wrongCode = await patch({ vcpus: 4, code: 'SC-GC-2C-8G-40' });
    expect([wrongCode.status, fieldsOf(wrongCode.body)]).toEqual([400, ['code']]);
    const switchToUsage = await patch({ billingType: 'BILLING_TYPE_USAGE' });
    expect([switchToUsage.status, fieldsOf(switchToUsage.body)]).toEqual([
      400,
      ['planPrices.1.billingPeriod'],
    ]);
    expect(
      (await t.call<{ plan: PlanView }>('GET', `/v1/plans/${id}`, { as: setup.provider })).body.plan.revision,
    ).toBe(4);
  });

  it('checks the nodes again when the region or specs change', async () => {
    const setup = await setUpPlans(t);
    const id = await createPlan(t, setup);
    const elsewhere = await createRegion(t, setup.provider, 'nl-ams');
    const regionOnly = await t.call('PATCH', `/v1/plans/${id}`, {
      as: setup.provider,
      body: { regionId: elsewhere },
    });
    expect([regionOnly.status, fieldsOf(regionOnly.body)]).toEqual([400, ['nodeIds.0']]);
    const amsterdam = await createNode(t, setup, elsewhere, 'pve-ams');
    const moved = await t.call<{ plan: PlanView }>('PATCH', `/v1/plans/${id}`, {
      as: setup.provider,
      body: { regionId: elsewhere, nodeIds: [amsterdam] },
    });
    expect(moved.status).toBe(200);
    expect([moved.body.plan.regionId, moved.body.plan.nodeIds, moved.body.plan.revision]).toEqual([
      elsewhere,
      [amsterdam],
      2,
    ]);
    await reportInventory(t, amsterdam, { cpuCores: 8, memoryGib: 32, storageGib: 500 });
    const tooBig = await t.call('PATCH', `/v1/plans/${id}`, { as: setup.provider, body: { vcpus: 16 } });
    expect([tooBig.status, fieldsOf(tooBig.body)]).toEqual([400, ['nodeIds.0']]);
  });

  it('soft-deletes: the plan stays readable, leaves the list and lets go of its nodes', async () => {
    const setup = await setUpPlans(t);
    const id = await createPlan(t, setup);
    expect((await t.call('DELETE', `/v1/node/${setup.nodeId}`, { as: setup.provider })).status).toBe(412);
    expect((await t.call('DELETE', `/v1/plans/${id}`, { as: setup.provider })).status).toBe(200);
    const read = await t.call<{ plan: PlanView }>('GET', `/v1/plans/${id}`, { as: setup.provider });
    expect(read.status).toBe(200);
    expect(read.body.plan).toMatchObject({ status: 'STATUS_SOFT_DELETED', nodeIds: [], regionId: null });
    expect(read.body.plan.planPrices).toHaveLength(1);
    expect((await t.call('GET', '/v1/plans', { as: setup.provider })).body.totalCount).toBe(0);
    expect((await t.call('DELETE', `/v1/plans/${id}`, { as: setup.provider })).status).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/plans/${id}`, { as: setup.provider, body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await t.call('DELETE', `/v1/node/${setup.nodeId}`, { as: setup.provider })).status).toBe(200);
    expect((await t.call('DELETE', `/v1/regions/${setup.regionId}`, { as: setup.provider })).status).toBe(
      200,
    );
  });

  it('lists assignable nodes, leaving out those of the other category or known to be too small', async () => {
    const setup = await setUpPlans(t);
    const roomy = await createNode(t, setup, setup.regionId, 'pve-roomy');
    const small = await createNode(t, setup, setup.regionId, 'pve-small');
    const dedicated = await createNode(t, setup, setup.regionId, 'pve-ded', {
      computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
    });
    await createNode(t, setup, await createRegion(t, setup.provider, 'nl-ams'), 'pve-ams');
    await reportInventory(t, roomy, { cpuCores: 32, memoryGib: 256, storageGib: 4000 });
    await reportInventory(t, small, { cpuCores: 2, memoryGib: 2, storageGib: 100 });
    const planId = await createPlan(t, setup);
    const all = await t.call<Listed>(
      'GET',
      `/v1/provider/plans/assignable-nodes?regionId=${setup.regionId}`,
      {
        as: setup.provider,
      },
    );
    expect(all.body.nodes.map((n) => n.id)).toEqual([setup.nodeId, roomy, small, dedicated]);
    expect(all.body.nodes[3]).toEqual({
      id: dedicated,
      name: 'pve-ded',
      regionId: setup.regionId,
      computeType: 'NODE_COMPUTE_TYPE_DEDICATED',
    });
    const forPlan = await t.call<Listed>(
      'GET',
      `/v1/provider/plans/assignable-nodes?regionId=${setup.regionId}&planId=${planId}`,
      { as: setup.provider },
    );
    expect(forPlan.body.nodes.map((n) => [n.name, n.capacity])).toEqual([
      ['pve1', 'CAPACITY_UNKNOWN'],
      ['pve-roomy', 'CAPACITY_FITS'],
    ]);
    const other = await setUpPlans(t);
    const otherPlan = await createPlan(t, other);
    const path = '/v1/provider/plans/assignable-nodes';
    expect((await t.call('GET', `${path}?regionId=${other.regionId}`, { as: setup.provider })).status).toBe(
      404,
    );
    expect(
      (await t.call('GET', `${path}?regionId=${setup.regionId}&planId=${otherPlan}`, { as: setup.provider }))
        .status,
    ).toBe(404);
    expect((await t.call('GET', path, { as: setup.provider })).status).toBe(400);
  });

  it('is for providers only', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const calls: [string, string, unknown][] = [
      ['GET', '/v1/plans', undefined],
      ['POST', '/v1/plans', {}],
      ['POST', '/v1/plans:calculate', {}],
      ['GET', `/v1/provider/plans/assignable-nodes?regionId=${crypto.randomUUID()}`, undefined],
      ['GET', `/v1/plans/${crypto.randomUUID()}`, undefined],
    ];
    for (const [method, path, body] of calls) {
      const response = await t.call(method, path, { as: client, body });
      expect([method, path, response.status]).toEqual([method, path, 403]);
    }
  });

  it('documents the calculator as /v1/plans:calculate', async () => {
    const document = await t.call<{ paths: Record<string, unknown> }>('GET', '/openapi.json');
    expect(Object.keys(document.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/plans:calculate',
        '/v1/plans/{id}',
        '/v1/agents/{id}:generateInstallCommand',
      ]),
    );
  });
});
