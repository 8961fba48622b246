import { describe, expect, it } from 'vitest';

import { summarizeBandwidth } from './bandwidth.js';

const period = (egressGb: number) => ({
  start: '2026-11-01T00:00:00Z',
  end: '2026-12-01T00:00:00Z',
  egressBytes: egressGb * 1e9,
  ingressBytes: 0,
  egressGb,
  ingressGb: 0.5,
});

describe('summarizeBandwidth', () => {
  it('counts the current period’s egress against the allowance', () => {
    const s = summarizeBandwidth({
      period: 'BILLING_PERIOD_MONTH',
      allowanceGb: 1000,
      periods: [period(250), period(900)],
    });
    expect(s.usedGb).toBe(250);
    expect(s.percent).toBe(25);
    expect(s.overAllowance).toBe(false);
    expect(s.sentence).toBe('250.0 GiB of 1000 GiB sent this period (25 %).');
  });

  it('caps the meter at 100 % and says when the allowance is exceeded', () => {
    const s = summarizeBandwidth({
      period: 'BILLING_PERIOD_MONTH',
      allowanceGb: 100,
      periods: [period(150)],
    });
    expect(s.percent).toBe(100);
    expect(s.overAllowance).toBe(true);
    expect(s.sentence).toMatch(/over the allowance/);
  });

  it('treats an allowance of 0 as unlimited', () => {
    const s = summarizeBandwidth({ period: 'BILLING_PERIOD_MONTH', allowanceGb: 0, periods: [period(3)] });
    expect(s.allowanceGb).toBeUndefined();
    expect(s.percent).toBeUndefined();
    expect(s.sentence).toMatch(/unlimited/);
  });

  it('reads no periods as nothing sent', () => {
    expect(summarizeBandwidth({ period: 'BILLING_PERIOD_MONTH', allowanceGb: 10, periods: [] }).usedGb).toBe(
      0,
    );
  });
});
