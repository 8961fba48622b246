import { describe, expect, it } from 'vitest';

import { latestPowerReport } from './power-report.js';

const at = (second: number) => new Date(Date.UTC(2026, 11, 2, 3, 0, second));
const none = {
  observedPowerState: '',
  observedAt: undefined,
  reportedPowerState: undefined,
  reportedPowerStateAt: undefined,
};

describe('latestPowerReport', () => {
  it('takes the operator’s observation when it is newer than the last scrape (a Stop just done)', () => {
    expect(
      latestPowerReport({
        observedPowerState: 'Stopped',
        observedAt: at(40),
        reportedPowerState: 'Running',
        reportedPowerStateAt: at(14),
      }),
    ).toEqual({ state: 'Stopped', at: at(40) });
  });

  it('takes a scrape that is newer than the observation', () => {
    expect(
      latestPowerReport({
        observedPowerState: 'Running',
        observedAt: at(10),
        reportedPowerState: 'Running',
        reportedPowerStateAt: at(30),
      }),
    ).toEqual({ state: 'Running', at: at(30) });
  });

  it('has no report before either source said anything', () => {
    expect(latestPowerReport(none)).toBeUndefined();
    expect(latestPowerReport({ ...none, observedAt: at(1) })).toBeUndefined();
    expect(latestPowerReport({ ...none, observedPowerState: 'Running', observedAt: at(1) })).toEqual({
      state: 'Running',
      at: at(1),
    });
  });
});
