import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { countRows, createPlan, fieldsOf, setUpPlans, type PlanSetup } from '../plans/plan.test-support.js';

interface AddonView {
  id: string;
  code: string;
  name: string;
  addonType: string;
  pricing: Record<string, unknown>;
  compatiblePlanIds: string[];
  autoAttach: boolean;
  isPublic: boolean;
  backupPolicy: { schedule: string; retention: number } | null;
  status: string;
}

const BACKUP = {
  code: 'BACKUP-DAILY',
  name: 'Daily backups',
  addonType: 'ADDON_TYPE_BACKUP',
  pricing: { kind: 'percentage', currency: 'EUR', percentageValue: 12.5, zeroBaseFallbackAmount: '1' },
  backupPolicy: { schedule: '0 3 * * *', retention: 7 },
};

const IPV4 = {
  code: 'IPV4',
  name: 'Additional IPv4',
  addonType: 'ADDON_TYPE_ADDITIONAL_IP',
  pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '2.5' },
};

describe.each(DATABASE_KINDS)('addons on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  async function create(setup: PlanSetup, body: Record<string, unknown>) {
    return t.call<{ addon: AddonView }>('POST', '/v1/addons', { as: setup.provider, body });
  }

  it('creates fixed and percentage addons, with a backup policy on backups, and reads them back', async () => {
    const setup = await setUpPlans(t);
    const plan = await createPlan(t, setup);
    const backup = await create(setup, { ...BACKUP, compatiblePlanIds: [plan], autoAttach: true });
    expect(backup.status).toBe(201);
    expect(backup.body.addon).toMatchObject({
      code: 'BACKUP-DAILY',
      pricing: {
        kind: 'percentage',
        currency: 'EUR',
        percentageValue: 12.5,
        zeroBaseFallbackAmount: '1.000000',
      },
      compatiblePlanIds: [plan],
      autoAttach: true,
      isPublic: false,
      backupPolicy: { schedule: '0 3 * * *', retention: 7 },
      status: 'STATUS_ACTIVE',
    });
    const ip = await create(setup, IPV4);
    expect(ip.body.addon).toMatchObject({
      pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '2.500000' },
      compatiblePlanIds: [],
      backupPolicy: null,
    });
    const read = await t.call<{ addon: AddonView }>('GET', `/v1/addons/${backup.body.addon.id}`, {
      as: setup.provider,
    });
    expect(read.body.addon).toEqual(backup.body.addon);

    const codes = async (query: string) =>
      (
        await t.call<{ addons: AddonView[]; totalCount: number }>('GET', `/v1/addons${query}`, {
          as: setup.provider,
        })
      ).body.addons.map((a) => a.code);
    expect(await codes('')).toEqual(['BACKUP-DAILY', 'IPV4']);
    expect(await codes('?addonType=ADDON_TYPE_ADDITIONAL_IP')).toEqual(['IPV4']);
    expect(await codes('?search=daily')).toEqual(['BACKUP-DAILY']);
    expect(await codes('?page=1&pageSize=1')).toEqual(['IPV4']);
  });

  it.each([
    ['backupPolicy', { ...BACKUP, backupPolicy: undefined }],
    ['backupPolicy', { ...IPV4, backupPolicy: { schedule: '0 3 * * *', retention: 7 } }],
    ['backupPolicy.schedule', { ...BACKUP, backupPolicy: { schedule: '0 25 * * *', retention: 7 } }],
    ['backupPolicy.schedule', { ...BACKUP, backupPolicy: { schedule: '@daily', retention: 7 } }],
    ['backupPolicy.retention', { ...BACKUP, backupPolicy: { schedule: '0 3 * * *', retention: 0 } }],
    ['backupPolicy.retention', { ...BACKUP, backupPolicy: { schedule: '0 3 * * *', retention: 366 } }],
    ['pricing.percentageValue', { ...BACKUP, pricing: { ...BACKUP.pricing, percentageValue: 100.5 } }],
    ['pricing.percentageValue', { ...BACKUP, pricing: { ...BACKUP.pricing, percentageValue: 0.00001 } }],
    [
      'pricing.zeroBaseFallbackAmount',
      { ...BACKUP, pricing: { ...BACKUP.pricing, zeroBaseFallbackAmount: undefined } },
    ],
    ['pricing.unitAmount', { ...IPV4, pricing: { kind: 'fixed', currency: 'EUR' } }],
    ['pricing.currency', { ...IPV4, pricing: { ...IPV4.pricing, currency: 'eur' } }],
    ['pricing.kind', { ...IPV4, pricing: { kind: 'tiered', currency: 'EUR', unitAmount: '1' } }],
    ['code', { ...IPV4, code: 'ipv4 extra' }],
    ['name', { ...IPV4, name: ' ' }],
    ['addonType', { ...IPV4, addonType: 'ADDON_TYPE_GPU' }],
    ['compatiblePlanIds.0', { ...IPV4, compatiblePlanIds: ['not-a-uuid'] }],
  ])('answers 400 naming %s, and writes nothing', async (field, body) => {
    const setup = await setUpPlans(t);
    const before = await countRows(t, 'addons');
    const response = await create(setup, body);
    expect(response.status, JSON.stringify(response.body)).toBe(400);
    expect(fieldsOf(response.body)).toContain(field);
    expect(await countRows(t, 'addons')).toBe(before);
  });

  it('refuses a backup schedule whose date never occurs, naming the field and why', async () => {
    const setup = await setUpPlans(t);
    const response = await create(setup, {
      ...BACKUP,
      backupPolicy: { schedule: '0 0 31 2 *', retention: 7 },
    });
    expect(response.status).toBe(400);
    const violations = (
      response.body as unknown as {
        details: { fieldViolations?: { field: string; description: string }[] }[];
      }
    ).details.flatMap((d) => d.fieldViolations ?? []);
    expect(violations).toEqual([
      { field: 'backupPolicy.schedule', description: expect.stringContaining('never runs') as unknown },
    ]);
  });

  it('takes only the organisation’s live plans as compatible plans', async () => {
    const setup = await setUpPlans(t);
    const plan = await createPlan(t, setup);
    const other = await setUpPlans(t);
    const foreignPlan = await createPlan(t, other);
    const before = await countRows(t, 'addons');
    const foreign = await create(setup, { ...IPV4, compatiblePlanIds: [plan, foreignPlan] });
    expect([foreign.status, foreign.body]).toMatchObject([404, { code: 'NOT_FOUND' }]);
    const twice = await create(setup, { ...IPV4, compatiblePlanIds: [plan, plan] });
    expect([twice.status, fieldsOf(twice.body)]).toEqual([400, ['compatiblePlanIds.1']]);
    await t.call('DELETE', `/v1/plans/${plan}`, { as: setup.provider });
    expect((await create(setup, { ...IPV4, compatiblePlanIds: [plan] })).status).toBe(404);
    expect(await countRows(t, 'addons')).toBe(before);
  });

  it('refuses a second addon with the same code (409) until the first is deleted', async () => {
    const setup = await setUpPlans(t);
    const first = await create(setup, IPV4);
    const duplicate = await create(setup, { ...IPV4, name: 'Another' });
    expect([duplicate.status, duplicate.body]).toMatchObject([409, { code: 'ALREADY_EXISTS' }]);
    expect((await create(await setUpPlans(t), IPV4)).status).toBe(201);
    await t.call('DELETE', `/v1/addons/${first.body.addon.id}`, { as: setup.provider });
    expect((await create(setup, IPV4)).status).toBe(201);
  });

  it('changes what a PATCH gives and keeps the rest; never the code or type', async () => {
    const setup = await setUpPlans(t);
    const plan = await createPlan(t, setup);
    const { id } = (await create(setup, BACKUP)).body.addon;
    const patch = (body: unknown) =>
      t.call<{ addon: AddonView }>('PATCH', `/v1/addons/${id}`, { as: setup.provider, body });
    const changed = await patch({
      pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '3' },
      compatiblePlanIds: [plan],
      backupPolicy: { schedule: '30 2 * * MON-FRI', retention: 14 },
    });
    expect(changed.status).toBe(200);
    expect(changed.body.addon).toMatchObject({
      name: 'Daily backups',
      code: 'BACKUP-DAILY',
      pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '3.000000' },
      compatiblePlanIds: [plan],
      backupPolicy: { schedule: '30 2 * * MON-FRI', retention: 14 },
    });
    expect((await patch({ isPublic: true })).body.addon).toMatchObject({
      isPublic: true,
      compatiblePlanIds: [plan],
    });
    const code = await patch({ code: 'OTHER' });
    expect([code.status, fieldsOf(code.body)]).toEqual([400, ['code']]);
    const badCron = await patch({ backupPolicy: { schedule: '0 3 * *', retention: 7 } });
    expect([badCron.status, fieldsOf(badCron.body)]).toEqual([400, ['backupPolicy.schedule']]);
    expect((await patch({ compatiblePlanIds: [crypto.randomUUID()] })).status).toBe(404);
    const ip = (await create(setup, IPV4)).body.addon.id;
    const policyOnIp = await t.call('PATCH', `/v1/addons/${ip}`, {
      as: setup.provider,
      body: { backupPolicy: { schedule: '0 3 * * *', retention: 7 } },
    });
    expect([policyOnIp.status, fieldsOf(policyOnIp.body)]).toEqual([400, ['backupPolicy']]);
  });

  it('soft-deletes: the addon stays readable but is no longer listed or editable', async () => {
    const setup = await setUpPlans(t);
    const { id } = (await create(setup, IPV4)).body.addon;
    expect((await t.call('DELETE', `/v1/addons/${id}`, { as: setup.provider })).status).toBe(200);
    const read = await t.call<{ addon: AddonView }>('GET', `/v1/addons/${id}`, { as: setup.provider });
    expect([read.status, read.body.addon.status]).toEqual([200, 'STATUS_SOFT_DELETED']);
    expect((await t.call('GET', '/v1/addons', { as: setup.provider })).body.totalCount).toBe(0);
    expect((await t.call('DELETE', `/v1/addons/${id}`, { as: setup.provider })).status).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/addons/${id}`, { as: setup.provider, body: { name: 'x' } })).status,
    ).toBe(404);
  });

  it('hides another organisation’s addons (404) and is for providers only', async () => {
    const setup = await setUpPlans(t);
    const { id } = (await create(setup, IPV4)).body.addon;
    const other = await setUpPlans(t);
    expect((await t.call('GET', `/v1/addons/${id}`, { as: other.provider })).status).toBe(404);
    expect(
      (await t.call('PATCH', `/v1/addons/${id}`, { as: other.provider, body: { name: 'x' } })).status,
    ).toBe(404);
    expect((await t.call('DELETE', `/v1/addons/${id}`, { as: other.provider })).status).toBe(404);
    expect((await t.call('GET', `/v1/addons/${id}`, { as: setup.provider })).body).toMatchObject({
      addon: { name: 'Additional IPv4', status: 'STATUS_ACTIVE' },
    });
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('GET', '/v1/addons', { as: client })).status).toBe(403);
    expect((await t.call('POST', '/v1/addons', { as: client, body: IPV4 })).status).toBe(403);
  });
});
