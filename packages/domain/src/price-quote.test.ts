import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { FailedPreconditionError, InvalidArgumentError } from './domain-error.js';
import { formatMoneyAmount, parseMoneyAmount } from './money.js';
import { parsePercentage } from './percentage.js';
import { BILLING_PERIODS } from './plan-definition.js';
import {
  billingPeriodHours,
  HOURS_PER_MONTH,
  quotePrice,
  type AddonPricing,
  type QuotedPlan,
  type QuoteRequest,
} from './price-quote.js';

const money = (text: string) => parseMoneyAmount(text, 'amount');

const monthly: QuotedPlan = {
  name: 'Small',
  billingType: 'BILLING_TYPE_SUBSCRIPTION',
  planPrices: [
    { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: money('10') },
    { billingPeriod: 'BILLING_PERIOD_YEAR', currency: 'EUR', unitAmount: money('100') },
  ],
  setupFee: money('5'),
};

const hourly: QuotedPlan = {
  name: 'Metered',
  billingType: 'BILLING_TYPE_USAGE',
  planPrices: [{ billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount: money('0.015') }],
  setupFee: 0n,
};

function quote(request: Partial<QuoteRequest> & { plan: QuotedPlan }) {
  const result = quotePrice({
    billingPeriod: 'BILLING_PERIOD_MONTH',
    includeSetupFee: false,
    addons: [],
    taxRate: 0n,
    ...request,
  });
  return {
    ...result,
    amounts: result.lineItems.map((i) => formatMoneyAmount(i.amount)),
    subtotal: formatMoneyAmount(result.subtotal),
    tax: formatMoneyAmount(result.tax),
    total: formatMoneyAmount(result.total),
  };
}

const fixed = (amount: string): AddonPricing => ({
  kind: 'fixed',
  currency: 'EUR',
  unitAmount: money(amount),
});
const percent = (value: number, fallback = '0'): AddonPricing => ({
  kind: 'percentage',
  currency: 'EUR',
  percentage: parsePercentage(value, 'p'),
  zeroBaseFallbackAmount: money(fallback),
});

describe('the price calculator', () => {
  it('charges a subscription its price for the period, plus the setup fee when asked', () => {
    const result = quote({ plan: monthly, includeSetupFee: true });
    expect(result.amounts).toEqual(['10.000000', '5.000000']);
    expect([result.subtotal, result.total, result.chargedHours]).toEqual(['15.000000', '15.000000', 730]);
    expect(quote({ plan: monthly, billingPeriod: 'BILLING_PERIOD_YEAR' }).total).toBe('100.000000');
  });

  it('refuses a period the plan has no price for, and hours on a subscription', () => {
    expect(() => quote({ plan: monthly, billingPeriod: 'BILLING_PERIOD_WEEK' })).toThrow(
      FailedPreconditionError,
    );
    expect(() => quote({ plan: monthly, hours: 10 })).toThrow(InvalidArgumentError);
  });

  it('bills usage by the hour, capped at 730 hours a month', () => {
    expect(quote({ plan: hourly, hours: 100 }).total).toBe('1.500000');
    expect(quote({ plan: hourly, hours: 744 }).total).toBe('10.950000');
    expect(quote({ plan: hourly, hours: 744 }).chargedHours).toBe(HOURS_PER_MONTH);
    expect(quote({ plan: hourly }).total).toBe('10.950000');
    expect(quote({ plan: hourly, hours: 10_000, billingPeriod: 'BILLING_PERIOD_DAY' }).chargedHours).toBe(24);
    expect(quote({ plan: hourly, hours: 0 }).total).toBe('0.000000');
  });

  it('is exact to the micro-unit in 0.000001 steps', () => {
    const tiny: QuotedPlan = {
      ...hourly,
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_HOUR', currency: 'EUR', unitAmount: 1n }],
    };
    expect(quote({ plan: tiny, hours: 730 }).total).toBe('0.000730');
    expect(quote({ plan: tiny, hours: 1 }).total).toBe('0.000001');
    const result = quote({
      plan: {
        ...monthly,
        planPrices: [
          { billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: money('0.000003') },
        ],
      },
      addons: [{ name: 'third', pricing: percent(33.3333), quantity: 1 }],
    });
    expect(result.amounts).toEqual(['0.000003', '0.000001']);
  });

  it('prorates fixed addons by the hours charged and multiplies by the quantity', () => {
    const ip = { name: 'IPv4', pricing: fixed('2'), quantity: 3 };
    expect(quote({ plan: monthly, addons: [ip] }).amounts).toEqual(['10.000000', '6.000000']);
    expect(quote({ plan: monthly, billingPeriod: 'BILLING_PERIOD_YEAR', addons: [ip] }).amounts).toEqual([
      '100.000000',
      '72.000000',
    ]);
    // 2 / 730 × 100 h = 0.273972602… → 0.273973 per IP
    expect(quote({ plan: hourly, hours: 100, addons: [ip] }).amounts).toEqual(['1.500000', '0.821919']);
  });

  it('charges percentage addons on the plan, and the fallback when the plan costs nothing', () => {
    const backup = { name: 'Backups', pricing: percent(20, '1.5'), quantity: 1 };
    expect(quote({ plan: monthly, addons: [backup] }).amounts).toEqual(['10.000000', '2.000000']);
    const free: QuotedPlan = {
      ...monthly,
      planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: 0n }],
    };
    expect(quote({ plan: free, addons: [backup] }).amounts).toEqual(['0.000000', '1.500000']);
    // A metered plan used for no hours is not free: its percentage is of nothing.
    expect(quote({ plan: hourly, hours: 0, addons: [backup] }).amounts).toEqual(['0.000000', '0.000000']);
  });

  it('refuses an addon in another currency, naming it by index', () => {
    const usd = { name: 'IP', pricing: { ...fixed('1'), currency: 'USD' }, quantity: 1 };
    try {
      quote({ plan: monthly, addons: [{ name: 'ok', pricing: fixed('1'), quantity: 1 }, usd] });
      expect.unreachable();
    } catch (e: unknown) {
      expect(e).toBeInstanceOf(InvalidArgumentError);
      expect((e as InvalidArgumentError).fieldViolations[0]?.field).toBe('addons.1');
    }
  });

  it('adds tax on the subtotal', () => {
    const result = quote({ plan: monthly, includeSetupFee: true, taxRate: parsePercentage(19, 't') });
    expect([result.subtotal, result.tax, result.total]).toEqual(['15.000000', '2.850000', '17.850000']);
  });

  it('keeps every line item and total exact against a BigInt oracle', () => {
    const amount = fc.bigInt({ min: 0n, max: 10n ** 15n });
    fc.assert(
      fc.property(
        amount,
        fc.constantFrom(...BILLING_PERIODS),
        fc.array(fc.tuple(amount, fc.integer({ min: 1, max: 64 })), { maxLength: 5 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (price, period, addons, taxUnits) => {
          const plan: QuotedPlan = {
            ...monthly,
            planPrices: [{ billingPeriod: period, currency: 'EUR', unitAmount: price }],
          };
          const result = quotePrice({
            plan,
            billingPeriod: period,
            includeSetupFee: true,
            addons: addons.map(([unitAmount, quantity]) => ({
              name: 'a',
              pricing: { kind: 'fixed', currency: 'EUR', unitAmount },
              quantity,
            })),
            taxRate: BigInt(taxUnits),
          });
          const hours = BigInt(billingPeriodHours(period));
          const month = BigInt(HOURS_PER_MONTH);
          const oracleAddons = addons.map(([a, q]) => ((2n * a * hours + month) / (2n * month)) * BigInt(q));
          const oracleSubtotal = oracleAddons.reduce((s, a) => s + a, price + monthly.setupFee);
          const oracleTax = (2n * oracleSubtotal * BigInt(taxUnits) + 1_000_000n) / 2_000_000n;
          expect(result.lineItems.slice(2).map((i) => i.amount)).toEqual(oracleAddons);
          expect(result.subtotal).toBe(oracleSubtotal);
          expect(result.tax).toBe(oracleTax);
          expect(result.total).toBe(oracleSubtotal + oracleTax);
          for (const i of result.lineItems) expect(i.amount).toBe(i.unitAmount * BigInt(i.quantity));
        },
      ),
    );
  });
});
