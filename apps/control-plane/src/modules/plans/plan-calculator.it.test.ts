import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createPlan, fieldsOf, setUpPlans, type PlanSetup } from './plan.test-support.js';

interface Quote {
  currency: string;
  chargedHours: number;
  lineItems: {
    productType: string;
    referenceId?: string;
    quantity: number;
    unitAmount: string;
    amount: string;
  }[];
  subtotal: string;
  tax: string;
  total: string;
}

const monthly = (unitAmount: string) => [
  { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount },
];
const hourly = (unitAmount: string) => [
  { billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount },
];

describe.each(DATABASE_KINDS)('the price calculator on the %s database', (kind) => {
  let t: TestControlPlane;
  let setup: PlanSetup;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    setup = await setUpPlans(t);
  });
  afterAll(() => t.close());

  const calculate = (body: unknown, as: PlanSetup['provider'] = setup.provider) =>
    t.call<Quote>('POST', '/v1/plans:calculate', { as, body });

  async function addon(body: Record<string, unknown>): Promise<string> {
    const response = await t.call<{ addon: { id: string } }>('POST', '/v1/addons', {
      as: setup.provider,
      body,
    });
    if (response.status !== 201) throw new Error(JSON.stringify(response.body));
    return response.body.addon.id;
  }

  it('prices a saved plan with its addons and tax, exactly', async () => {
    const planId = await createPlan(t, setup, {
      vcpus: 3,
      planPrices: [
        { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '10.01' },
        { billingPeriod: 'BILLING_PERIOD_YEAR', currency: 'EUR', unitAmount: '100' },
      ],
      setupFee: '4.99',
    });
    const ip = await addon({
      code: 'IP-CALC',
      name: 'IPv4',
      addonType: 'ADDON_TYPE_ADDITIONAL_IP',
      pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '2.03' },
      compatiblePlanIds: [planId],
    });
    const backup = await addon({
      code: 'BACKUP-CALC',
      name: 'Backups',
      addonType: 'ADDON_TYPE_BACKUP',
      pricing: { kind: 'percentage', currency: 'EUR', percentageValue: 20.5, zeroBaseFallbackAmount: '1' },
      compatiblePlanIds: [planId],
      backupPolicy: { schedule: '0 3 * * *', retention: 7 },
    });
    const quote = await calculate({
      planId,
      billingPeriod: 'BILLING_PERIOD_MONTH',
      includeSetupFee: true,
      addons: [{ addonId: ip, quantity: 2 }, { addonId: backup }],
      taxRatePercent: 19,
    });
    expect(quote.status, JSON.stringify(quote.body)).toBe(200);
    expect(quote.body.lineItems.map((i) => [i.productType, i.quantity, i.unitAmount, i.amount])).toEqual([
      ['PRODUCT_TYPE_PLAN', 1, '10.010000', '10.010000'],
      ['PRODUCT_TYPE_PLAN', 1, '4.990000', '4.990000'],
      ['PRODUCT_TYPE_ADDON', 2, '2.030000', '4.060000'],
      ['PRODUCT_TYPE_ADDON', 1, '2.052050', '2.052050'],
    ]);
    expect(quote.body.lineItems.map((i) => i.referenceId)).toEqual([planId, planId, ip, backup]);
    // 21.112050 × 19 % = 4.0112895 → 4.011290 (half up)
    expect([quote.body.currency, quote.body.subtotal, quote.body.tax, quote.body.total]).toEqual([
      'EUR',
      '21.112050',
      '4.011290',
      '25.123340',
    ]);

    const yearly = await calculate({
      planId,
      billingPeriod: 'BILLING_PERIOD_YEAR',
      addons: [{ addonId: ip }],
    });
    expect(yearly.body.lineItems.map((i) => i.amount)).toEqual(['100.000000', '24.360000']);
    const week = await calculate({ planId, billingPeriod: 'BILLING_PERIOD_WEEK' });
    expect([week.status, week.body]).toMatchObject([412, { code: 'FAILED_PRECONDITION' }]);
  });

  it('caps usage at 730 hours a month and steps by 0.000001', async () => {
    const planConfig = { billingType: 'BILLING_TYPE_USAGE', planPrices: hourly('0.000001') };
    const capped = await calculate({ planConfig, billingPeriod: 'BILLING_PERIOD_MONTH', hours: 744 });
    expect([capped.body.chargedHours, capped.body.total]).toEqual([730, '0.000730']);
    const partial = await calculate({ planConfig, billingPeriod: 'BILLING_PERIOD_MONTH', hours: 1 });
    expect(partial.body.total).toBe('0.000001');
    const fullMonth = await calculate({ planConfig, billingPeriod: 'BILLING_PERIOD_MONTH' });
    expect(fullMonth.body.total).toBe('0.000730');
    const year = await calculate({ planConfig, billingPeriod: 'BILLING_PERIOD_YEAR', hours: 9000 });
    expect([year.body.chargedHours, year.body.total]).toEqual([8760, '0.008760']);
    const tenth = await calculate({
      planConfig: { billingType: 'BILLING_TYPE_USAGE', planPrices: hourly('0.1') },
      billingPeriod: 'BILLING_PERIOD_MONTH',
      hours: 3,
      addons: [{ pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '0.2' } }],
    });
    // 0.1 × 3 is 0.30000000000000004 in floating point; 0.2 × 3/730 rounds once to 0.000822.
    expect(tenth.body.lineItems.map((i) => i.amount)).toEqual(['0.300000', '0.000822']);
    expect(tenth.body.total).toBe('0.300822');
  });

  it('charges the fallback of a percentage addon when the plan costs nothing', async () => {
    const pricing = {
      kind: 'percentage',
      currency: 'EUR',
      percentageValue: 30,
      zeroBaseFallbackAmount: '1.5',
    };
    const free = await calculate({
      planConfig: { planPrices: monthly('0') },
      billingPeriod: 'BILLING_PERIOD_MONTH',
      addons: [{ pricing, quantity: 2 }],
    });
    expect(free.body.lineItems.map((i) => i.amount)).toEqual(['0.000000', '3.000000']);
    const paid = await calculate({
      planConfig: { planPrices: monthly('0.000003') },
      billingPeriod: 'BILLING_PERIOD_MONTH',
      addons: [{ pricing }],
    });
    // 30 % of 0.000003 is 0.0000009, rounded half up once to 0.000001.
    expect(paid.body.lineItems.map((i) => i.amount)).toEqual(['0.000003', '0.000001']);
  });

  it('lets members calculate, though not change plans', async () => {
    const user = await t.register('ORGANIZATION_TYPE_CLIENT');
    await t.addMember(setup.provider, user, 'member');
    const member = { token: user.token, organizationId: setup.provider.organizationId };
    const body = { planConfig: { planPrices: monthly('3') }, billingPeriod: 'BILLING_PERIOD_MONTH' };
    expect((await calculate(body, member)).body.total).toBe('3.000000');
    const create = await t.call('POST', '/v1/plans', { as: member, body: {} });
    expect(create.status).toBe(403);
  });

  it('names what is wrong in a calculation, and hides other organisations’ plans and addons', async () => {
    const planId = await createPlan(t, setup, { vcpus: 5 });
    const incompatible = await addon({
      code: 'SNAP-CALC',
      name: 'Snapshots',
      addonType: 'ADDON_TYPE_SNAPSHOT',
      pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '1' },
    });
    const usd = await addon({
      code: 'IP-USD',
      name: 'IPv4 (USD)',
      addonType: 'ADDON_TYPE_ADDITIONAL_IP',
      pricing: { kind: 'fixed', currency: 'USD', unitAmount: '1' },
      compatiblePlanIds: [planId],
    });
    const month = 'BILLING_PERIOD_MONTH';
    const cases: [unknown, number, string[]][] = [
      [{ billingPeriod: month }, 400, ['planId']],
      [{ planId, planConfig: { planPrices: monthly('1') }, billingPeriod: month }, 400, ['planId']],
      [{ planId, billingPeriod: month, hours: 5 }, 400, ['hours']],
      [{ planId, billingPeriod: month, addons: [{ addonId: incompatible }] }, 400, ['addons.0.addonId']],
      [{ planId, billingPeriod: month, addons: [{ addonId: usd }] }, 400, ['addons.0']],
      [{ planId, billingPeriod: month, addons: [{}] }, 400, ['addons.0']],
      [{ planId, billingPeriod: month, taxRatePercent: 101 }, 400, ['taxRatePercent']],
      [
        { planConfig: { planPrices: [...monthly('1'), ...monthly('2')] }, billingPeriod: month },
        400,
        ['planConfig.planPrices.1.billingPeriod'],
      ],
      [
        { planConfig: { planPrices: monthly('0.0000001') }, billingPeriod: month },
        400,
        ['planConfig.planPrices.0.unitAmount'],
      ],
    ];
    for (const [body, status, fields] of cases) {
      const response = await calculate(body);
      expect([JSON.stringify(body), response.status, fieldsOf(response.body)]).toEqual([
        JSON.stringify(body),
        status,
        fields,
      ]);
    }
    const other = await setUpPlans(t);
    const foreignPlan = await createPlan(t, other);
    expect((await calculate({ planId: foreignPlan, billingPeriod: month })).status).toBe(404);
    expect((await calculate({ planId: foreignPlan, billingPeriod: month }, other.provider)).status).toBe(200);
    expect(
      (
        await calculate(
          { planId: foreignPlan, billingPeriod: month, addons: [{ addonId: incompatible }] },
          other.provider,
        )
      ).status,
    ).toBe(404);
    await t.call('DELETE', `/v1/plans/${planId}`, { as: setup.provider });
    expect((await calculate({ planId, billingPeriod: month })).status).toBe(404);
  });
});
