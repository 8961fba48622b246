import { describe, expect, it } from 'vitest';

import { planSeries, seriesKey } from './series-plan.js';

const AGENT = '3f1c2d4e-0000-4000-8000-000000000001';
const CLUSTER = '0b8d6a52-1111-4111-8111-000000000002';

describe('planSeries', () => {
  it('names a series by agent, name and labels, whatever the labels order', () => {
    expect(seriesKey(AGENT, 'up', { a: '1', b: '2' })).toBe(seriesKey(AGENT, 'up', { b: '2', a: '1' }));
    expect(seriesKey(AGENT, 'up', { a: '1' })).not.toBe(seriesKey(AGENT, 'up', { a: '2' }));
    expect(seriesKey(AGENT, 'up', {})).not.toBe(seriesKey('another-agent', 'up', {}));
  });

  it("puts the linked cluster's id on every series, replacing the agent's own cluster_id", () => {
    const plan = planSeries(
      AGENT,
      [
        { n: 'node_cpu_usage_ratio', l: {}, v: 0.5, t: 1000 },
        { n: 'pod_cpu_usage_ratio', l: { pod: 'web', cluster_id: 'spoofed' }, v: 1, t: 1000 },
      ],
      CLUSTER,
    );
    expect(plan.series.map((s) => [s.name, s.labels, s.clusterId])).toEqual([
      ['node_cpu_usage_ratio', { cluster_id: CLUSTER }, CLUSTER],
      ['pod_cpu_usage_ratio', { pod: 'web', cluster_id: CLUSTER }, CLUSTER],
    ]);
    const unlinked = planSeries(AGENT, [{ n: 'up', l: { cluster_id: 'spoofed' }, v: 1, t: 1 }], undefined);
    expect(unlinked.series[0]).toMatchObject({ labels: {}, clusterId: null });
  });

  it('keeps one sample per series and timestamp, decoding NaN and infinities', () => {
    const plan = planSeries(
      AGENT,
      [
        { n: 'up', l: {}, v: 1, t: 1000 },
        { n: 'up', l: {}, v: 0, t: 1000 },
        { n: 'up', l: {}, v: '+Inf', t: 2000 },
        { n: 'up', l: {}, v: 'NaN', t: 3000 },
      ],
      undefined,
    );
    expect(plan.series).toHaveLength(1);
    expect(plan.samples.map((s) => [s.timestampMs, s.value])).toEqual([
      [1000, 0],
      [2000, Infinity],
      [3000, NaN],
    ]);
  });
});
