import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { VmSeries } from './metric-facts.js';
import { counterIncrease, cursorKey, planVmUsage, type Cursor } from './vm-usage-plan.js';

const VM = '0b8d6a52-1111-4111-8111-000000000002';
const MINUTE = 60_000;
const T0 = Date.UTC(2026, 10, 30, 12, 0, 0);

function transmit(...samples: [number, number][]): VmSeries {
  return {
    instance: 'pve:8006',
    vmId: VM,
    vmid: 100,
    metric: 'netOut',
    kind: 'counter',
    samples: samples.map(([timestampMs, value]) => ({ timestampMs, value })),
  };
}

describe('counterIncrease', () => {
  it('is the difference, or the whole value after a reset or without a previous sample', () => {
    expect(counterIncrease(100, 250)).toBe(150);
    expect(counterIncrease(100, 100)).toBe(0);
    expect(counterIncrease(1000, 40)).toBe(40);
    expect(counterIncrease(undefined, 70)).toBe(70);
  });
});

describe('planVmUsage', () => {
  it('bills transmitted bytes as egress per hour, across a counter reset', () => {
    const plan = planVmUsage(
      [transmit([T0, 1000], [T0 + 30_000, 3000], [T0 + 60 * MINUTE, 500], [T0 + 61 * MINUTE, 800])],
      new Map(),
    );
    expect(plan.bandwidth).toEqual([
      { vmId: VM, hourMs: T0, direction: 'egress', bytes: 3000 },
      { vmId: VM, hourMs: T0 + 60 * MINUTE, direction: 'egress', bytes: 800 },
    ]);
    expect(plan.cursors).toEqual([{ vmId: VM, metric: 'netOut', sampledAtMs: T0 + 61 * MINUTE, value: 800 }]);
  });

  it('changes nothing for samples at or before the cursor (a replayed request)', () => {
    const cursors = new Map<string, Cursor>([
      [cursorKey(VM, 'netOut'), { sampledAtMs: T0 + 30_000, value: 3000 }],
    ]);
    const replay = planVmUsage([transmit([T0, 1000], [T0 + 30_000, 3000])], cursors);
    expect(replay).toMatchObject({ applied: 0, rollups: [], bandwidth: [], cursors: [] });
    const next = planVmUsage([transmit([T0 + 30_000, 3000], [T0 + 60_000, 3600])], cursors);
    expect(next.bandwidth).toEqual([{ vmId: VM, hourMs: T0, direction: 'egress', bytes: 600 }]);
  });

  it('keeps gauge sums, counts and maxima per minute and hour', () => {
    const cpu: VmSeries = {
      ...transmit(),
      metric: 'cpu',
      kind: 'gauge',
      samples: [
        { timestampMs: T0 + 1000, value: 0.2 },
        { timestampMs: T0 + 31_000, value: 0.6 },
        { timestampMs: T0 + MINUTE + 1000, value: 0.4 },
      ],
    };
    const { rollups } = planVmUsage([cpu], new Map());
    expect(rollups.find((r) => r.resolutionSeconds === 60 && r.bucketMs === T0)).toMatchObject({
      sum: 0.8,
      count: 2,
      max: 0.6,
    });
    expect(rollups.find((r) => r.resolutionSeconds === 3600)).toMatchObject({ count: 3, max: 0.6 });
  });

  it('reports the newest power state', () => {
    const up: VmSeries = { ...transmit([T0, 1], [T0 + 30_000, 0]), metric: 'up', kind: 'gauge' };
    expect(planVmUsage([up], new Map()).powerStates.get(VM)).toEqual({ running: false, atMs: T0 + 30_000 });
  });

  it('bills the same whether samples arrive in one request or split over many, replays included', () => {
    const counter = fc
      .array(
        fc.record({
          gap: fc.integer({ min: 1, max: 120_000 }),
          add: fc.nat(10_000_000),
          reset: fc.boolean(),
        }),
        {
          minLength: 1,
          maxLength: 60,
        },
      )
      .map((steps) => {
        let t = T0;
        let v = 0;
        return steps.map(({ gap, add, reset }): [number, number] => {
          t += gap;
          v = reset ? add : v + add;
          return [t, v];
        });
      });
    fc.assert(
      fc.property(counter, fc.array(fc.nat(), { maxLength: 10 }), (samples, cuts) => {
        const whole = planVmUsage([transmit(...samples)], new Map());
        const total = (p: typeof whole) => p.bandwidth.reduce((sum, b) => sum + b.bytes, 0);
        // Split at arbitrary points, each part sent twice (a retried request).
        const points = [...new Set(cuts.map((c) => c % samples.length))].sort((a, b) => a - b);
        const parts = [0, ...points, samples.length].flatMap((end, i, all) =>
          i === 0 ? [] : [samples.slice(all[i - 1], end)],
        );
        const cursors = new Map<string, Cursor>();
        let billed = 0;
        for (const part of parts.filter((p) => p.length > 0)) {
          for (let attempt = 0; attempt < 2; attempt++) {
            const plan = planVmUsage([transmit(...part)], cursors);
            billed += total(plan);
            for (const c of plan.cursors) cursors.set(cursorKey(c.vmId, c.metric), c);
          }
        }
        expect(billed).toBe(total(whole));
      }),
    );
  });
});
