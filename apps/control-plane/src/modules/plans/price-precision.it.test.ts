import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { createTenantFixture, type TenantFixture } from '../../http/tenant-fixture.test-support.js';

interface ErrorBody {
  code: string;
  details: { fieldViolations: { field: string; description: string }[] }[];
}

function violations(body: unknown): { field: string; description: string }[] {
  return (body as ErrorBody).details[0]?.fieldViolations ?? [];
}

describe.each(DATABASE_KINDS)('prices in the currency’s minor units on the %s database', (kind) => {
  let t: TestControlPlane;
  let fixture: TenantFixture;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
    fixture = await createTenantFixture(t);
  }, 60_000);
  afterAll(() => t.close());

  let plans = 0;
  /** Each plan a size of its own: an organisation sells one plan per size and region. */
  function plan(overrides: Record<string, unknown>) {
    plans += 1;
    return t.call('POST', '/v1/plans', {
      as: fixture.owner,
      body: {
        name: `Plan ${String(Math.random()).slice(2, 8)}`,
        computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
        vcpus: 2,
        ramGb: 2,
        diskGb: 20 + plans,
        planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '4.99' }],
        regionId: fixture.ids.region,
        nodeIds: [fixture.ids.node],
        ...overrides,
      },
    });
  }

  it('refuses a plan price or setup fee with more decimals than its currency has', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [
        { planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '3.14159' }] },
        'planPrices.0.unitAmount',
        'EUR',
      ],
      [
        { planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'JPY', unitAmount: '500.5' }] },
        'planPrices.0.unitAmount',
        'JPY',
      ],
      [{ setupFee: '9.999' }, 'setupFee', 'EUR'],
      [
        {
          billingType: 'BILLING_TYPE_USAGE',
          planPrices: [{ billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'JPY', unitAmount: '0.00001' }],
        },
        'planPrices.0.unitAmount',
        'JPY',
      ],
    ];
    for (const [overrides, field, currency] of cases) {
      const refused = await plan(overrides);
      expect(refused.status, JSON.stringify(refused.body)).toBe(400);
      const [violation, ...others] = violations(refused.body);
      expect(others).toEqual([]);
      expect(violation?.field).toBe(field);
      expect(violation?.description).toContain(currency);
    }
    const listed = await t.call<{ totalCount: number }>('GET', '/v1/plans', { as: fixture.owner });
    expect(listed.body.totalCount).toBe(1);

    const patched = await t.call('PATCH', `/v1/plans/${fixture.ids.plan}`, {
      as: fixture.owner,
      body: { setupFee: '0.005' },
    });
    expect(patched.status).toBe(400);
    expect(violations(patched.body).map((v) => v.field)).toEqual(['setupFee']);
  });

  it('takes cents, whole yen and sub-cent hourly rates', async () => {
    const euro = await plan({ setupFee: '9.99' });
    expect(euro.status, JSON.stringify(euro.body)).toBe(201);
    const yen = await plan({
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'JPY', unitAmount: '500' }],
      setupFee: '1000',
    });
    expect(yen.status, JSON.stringify(yen.body)).toBe(201);
    // An hourly rate is a rate: what is charged is the sum over the hours, rounded once.
    const hourly = await plan({
      billingType: 'BILLING_TYPE_USAGE',
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount: '0.0052' }],
    });
    expect(hourly.status, JSON.stringify(hourly.body)).toBe(201);
  });

  it('refuses an addon amount with more decimals than its currency has', async () => {
    const refused = await t.call('POST', '/v1/addons', {
      as: fixture.owner,
      body: {
        code: 'EXTRA-IP',
        name: 'Extra IP',
        addonType: 'ADDON_TYPE_ADDITIONAL_IP',
        pricing: { kind: 'fixed', currency: 'EUR', unitAmount: '1.005' },
        compatiblePlanIds: [fixture.ids.plan],
      },
    });
    expect(refused.status).toBe(400);
    expect(violations(refused.body).map((v) => v.field)).toEqual(['pricing.unitAmount']);
    const fallback = await t.call('PATCH', `/v1/addons/${fixture.ids.addon}`, {
      as: fixture.owner,
      body: {
        pricing: {
          kind: 'percentage',
          currency: 'EUR',
          percentageValue: 20,
          zeroBaseFallbackAmount: '0.125',
        },
      },
    });
    expect(fallback.status).toBe(400);
    expect(violations(fallback.body).map((v) => v.field)).toEqual(['pricing.zeroBaseFallbackAmount']);
    const addon = await t.call<{ addon: { pricing: Record<string, unknown> } }>(
      'GET',
      `/v1/addons/${fixture.ids.addon}`,
      { as: fixture.owner },
    );
    expect(addon.body.addon.pricing.zeroBaseFallbackAmount).toBe('1.000000');
  });
});
