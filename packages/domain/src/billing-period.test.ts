import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { billingPeriodAt, previousBillingPeriod } from './billing-period.js';
import { BILLING_PERIODS } from './plan-definition.js';

const iso = (d: Date) => d.toISOString();

describe('billingPeriodAt', () => {
  const at = new Date('2026-11-30T13:45:12.345Z'); // a Monday

  it.each([
    ['BILLING_PERIOD_HOUR', '2026-11-30T13:00:00.000Z', '2026-11-30T14:00:00.000Z'],
    ['BILLING_PERIOD_DAY', '2026-11-30T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['BILLING_PERIOD_WEEK', '2026-11-30T00:00:00.000Z', '2026-12-07T00:00:00.000Z'],
    ['BILLING_PERIOD_MONTH', '2026-11-01T00:00:00.000Z', '2026-12-01T00:00:00.000Z'],
    ['BILLING_PERIOD_QUARTER', '2026-10-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['BILLING_PERIOD_YEAR', '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
  ] as const)('%s holds %s … %s', (period, start, end) => {
    const bounds = billingPeriodAt(period, at);
    expect([iso(bounds.start), iso(bounds.end)]).toEqual([start, end]);
  });

  it('starts ISO weeks on Monday, also from a Sunday', () => {
    const bounds = billingPeriodAt('BILLING_PERIOD_WEEK', new Date('2026-11-29T23:59:59Z'));
    expect(iso(bounds.start)).toBe('2026-11-23T00:00:00.000Z');
  });

  it('tiles time: every instant is in exactly one period, and the previous one ends where it starts', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...BILLING_PERIODS),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }),
        (period, date) => {
          const bounds = billingPeriodAt(period, date);
          expect(bounds.start.getTime()).toBeLessThanOrEqual(date.getTime());
          expect(bounds.end.getTime()).toBeGreaterThan(date.getTime());
          expect(billingPeriodAt(period, bounds.start)).toEqual(bounds);
          expect(previousBillingPeriod(period, bounds).end).toEqual(bounds.start);
        },
      ),
    );
  });
});
