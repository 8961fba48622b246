import { describe, expect, it } from 'vitest';

import { countRestarts, restartsWindowMs, stepCount, type RestartSeries } from './cluster-restarts.js';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

/** One sample per minute from `startMinute`, with these values. */
function perMinute(group: string, startMinute: number, ...values: number[]): RestartSeries {
  return {
    group,
    samples: values.map((value, i) => ({ timestampMs: T0 + (startMinute + i) * MINUTE, value })),
  };
}

const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

describe('countRestarts', () => {
  it('counts a counter going 0 → 1 → 3 as three restarts, each in the step it happened', () => {
    const series = perMinute('web', 0, 0, 0, 1, 1, 3, 3, 3);
    const counts = countRestarts([series], { fromMs: T0, toMs: T0 + 6 * MINUTE, stepMs: MINUTE });
    expect(counts.totals).toEqual([0, 0, 1, 0, 2, 0, 0]);
    expect(counts.byGroup.get('web')).toEqual(counts.totals);
    expect(counts.times).toHaveLength(7);
    expect(counts.windowMs).toBe(5 * MINUTE);
  });

  it('counts a recreated pod whose count fell 5 → 0 → 1 as one restart (the fall is clamped to 0)', () => {
    const series = perMinute('db', 0, 5, 5, 0, 1, 1);
    const counts = countRestarts([series], { fromMs: T0 + MINUTE, toMs: T0 + 4 * MINUTE, stepMs: MINUTE });
    expect(counts.totals).toEqual([0, 0, 1, 0]);
  });

  it('counts nothing extra for an agent restart whose gap is shorter than the window', () => {
    const gap: RestartSeries = {
      group: 'web',
      samples: [
        ...perMinute('web', 0, 2, 2, 2).samples,
        // The agent was down from minute 3 to minute 6 and came back with the same count, then one restart.
        ...perMinute('web', 6, 2, 2, 3).samples,
      ],
    };
    const counts = countRestarts([gap], { fromMs: T0, toMs: T0 + 10 * MINUTE, stepMs: MINUTE });
    expect(sum(counts.totals)).toBe(1);
    expect(counts.totals[8]).toBe(1);
  });

  it('counts 0 when a new series starts at 7 (an agent upgrade, a late workload label)', () => {
    const fresh = perMinute('web', 3, 7, 7, 8);
    const counts = countRestarts([fresh], { fromMs: T0, toMs: T0 + 6 * MINUTE, stepMs: MINUTE });
    expect(counts.totals).toEqual([0, 0, 0, 0, 0, 1, 0]);
  });

  it('sums series per step and per group', () => {
    const counts = countRestarts(
      [perMinute('a', 0, 0, 1, 1), perMinute('a', 0, 4, 4, 6), perMinute('b', 0, 1, 2, 2)],
      { fromMs: T0 + MINUTE, toMs: T0 + 2 * MINUTE, stepMs: MINUTE },
    );
    expect(counts.totals).toEqual([2, 2]);
    expect(counts.byGroup.get('a')).toEqual([1, 2]);
    expect(counts.byGroup.get('b')).toEqual([1, 0]);
  });

  it('takes W = max(step, 5m), with left-open windows (t − W, t]', () => {
    expect(restartsWindowMs(MINUTE)).toBe(5 * MINUTE);
    expect(restartsWindowMs(15 * MINUTE)).toBe(15 * MINUTE);
    // One sample at T0 (value 1) and one at T0 + 5m (value 4): with a 1-minute step, the window of
    // T0 + 5m is (T0, T0 + 5m], which no longer holds T0, and the offset window (T0 − 1m, T0 + 4m] does.
    const edge: RestartSeries = {
      group: 'x',
      samples: [
        { timestampMs: T0, value: 1 },
        { timestampMs: T0 + 5 * MINUTE, value: 4 },
      ],
    };
    const counts = countRestarts([edge], { fromMs: T0 + 4 * MINUTE, toMs: T0 + 6 * MINUTE, stepMs: MINUTE });
    expect(counts.totals).toEqual([0, 3, 0]);
    // Step 5m: at T0 + 5m the offset window (T0 − 5m, T0] holds T0, so 1 → 4 counts 3.
    const wide = countRestarts([edge], {
      fromMs: T0 + 5 * MINUTE,
      toMs: T0 + 5 * MINUTE,
      stepMs: 5 * MINUTE,
    });
    expect(wide.totals).toEqual([3]);
    // At T0 + 10m the window (T0 + 5m, T0 + 10m] excludes the sample exactly W before t: nothing counts.
    const late = countRestarts([edge], {
      fromMs: T0 + 10 * MINUTE,
      toMs: T0 + 10 * MINUTE,
      stepMs: 5 * MINUTE,
    });
    expect(late.totals).toEqual([0]);
  });

  it('evaluates from, from + step, … up to and including to', () => {
    expect(stepCount({ fromMs: T0, toMs: T0 + 10 * MINUTE, stepMs: 5 * MINUTE })).toBe(3);
    expect(stepCount({ fromMs: T0, toMs: T0 + 9 * MINUTE, stepMs: 5 * MINUTE })).toBe(2);
    const counts = countRestarts([], { fromMs: T0, toMs: T0 + 9 * MINUTE, stepMs: 5 * MINUTE });
    expect(counts.times).toEqual([T0, T0 + 5 * MINUTE]);
    expect(counts.totals).toEqual([0, 0]);
  });

  it('ignores samples that are not numbers (NaN, infinities)', () => {
    const series: RestartSeries = {
      group: 'x',
      samples: [
        { timestampMs: T0, value: 1 },
        { timestampMs: T0 + MINUTE, value: NaN },
        { timestampMs: T0 + 2 * MINUTE, value: 2 },
      ],
    };
    const counts = countRestarts([series], { fromMs: T0 + MINUTE, toMs: T0 + 2 * MINUTE, stepMs: MINUTE });
    expect(counts.totals).toEqual([0, 1]);
  });
});
