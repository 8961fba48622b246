import type { BillingPeriod } from './plan-definition.js';

/** One billing period: from `start` (included) to `end` (excluded), both at a UTC boundary. */
export interface PeriodBounds {
  readonly start: Date;
  readonly end: Date;
}

const MONTHS_OF: Partial<Record<BillingPeriod, number>> = {
  BILLING_PERIOD_MONTH: 1,
  BILLING_PERIOD_QUARTER: 3,
  BILLING_PERIOD_YEAR: 12,
};

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/**
 * The period of `period` that holds `at`, on the UTC calendar: hours, days, ISO weeks (from Monday),
 * months, quarters (from January, April, July, October) and years. Traffic allowances reset at its start.
 */
export function billingPeriodAt(period: BillingPeriod, at: Date): PeriodBounds {
  const t = at.getTime();
  switch (period) {
    case 'BILLING_PERIOD_HOUR': {
      const start = Math.floor(t / HOUR_MS) * HOUR_MS;
      return { start: new Date(start), end: new Date(start + HOUR_MS) };
    }
    case 'BILLING_PERIOD_DAY': {
      const start = Math.floor(t / DAY_MS) * DAY_MS;
      return { start: new Date(start), end: new Date(start + DAY_MS) };
    }
    case 'BILLING_PERIOD_WEEK': {
      const day = Math.floor(t / DAY_MS) * DAY_MS;
      // getUTCDay: 0 is Sunday; ISO weeks start on Monday.
      const start = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
      return { start: new Date(start), end: new Date(start + 7 * DAY_MS) };
    }
    default: {
      const months = MONTHS_OF[period] ?? 1;
      const month = Math.floor(at.getUTCMonth() / months) * months;
      return {
        start: new Date(Date.UTC(at.getUTCFullYear(), month, 1)),
        end: new Date(Date.UTC(at.getUTCFullYear(), month + months, 1)),
      };
    }
  }
}

/** The period before the one that holds `at`. */
export function previousBillingPeriod(period: BillingPeriod, bounds: PeriodBounds): PeriodBounds {
  return billingPeriodAt(period, new Date(bounds.start.getTime() - 1));
}
