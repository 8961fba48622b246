import { describe, expect, it } from 'vitest';

import { describeChart, rangeQuery, shapeMetrics, summarizeSeries } from './chart-data.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 30, 12, minute)).toISOString();
const seconds = (minute: number) => Date.UTC(2026, 10, 30, 12, minute) / 1000;

describe('shapeMetrics', () => {
  it('turns CPU ratios into percentages in time order, leaving out a line with no values', () => {
    const data = shapeMetrics({
      series: 'CHART_SERIES_CPU',
      resolutionSeconds: 60,
      from: at(0),
      to: at(3),
      points: [
        { time: at(1), cpuUsageRatio: 0.5 },
        { time: at(0), cpuUsageRatio: 0.25 },
      ],
    });
    expect(data.unit).toBe('percent');
    expect(data.times).toEqual([seconds(0), seconds(1)]);
    expect(data.series).toEqual([{ label: 'CPU used', values: [25, 50] }]);
  });

  it('breaks the line where the agent was silent for more than two steps', () => {
    const data = shapeMetrics({
      series: 'CHART_SERIES_NETWORK',
      resolutionSeconds: 60,
      from: at(0),
      to: at(10),
      points: [
        { time: at(0), networkReceiveBytesPerSecond: 10, networkTransmitBytesPerSecond: 1 },
        { time: at(1), networkReceiveBytesPerSecond: 20, networkTransmitBytesPerSecond: 2 },
        { time: at(9), networkReceiveBytesPerSecond: 30, networkTransmitBytesPerSecond: 3 },
      ],
    });
    expect(data.times).toEqual([seconds(0), seconds(1), seconds(2), seconds(9)]);
    expect(data.series.map((s) => s.values)).toEqual([
      [10, 20, null, 30],
      [1, 2, null, 3],
    ]);
  });

  it('leaves an empty answer empty', () => {
    const data = shapeMetrics({
      series: 'CHART_SERIES_MEMORY',
      resolutionSeconds: 60,
      from: at(0),
      to: at(1),
      points: [],
    });
    expect(data.times).toEqual([]);
    expect(describeChart(data)).toBe('No data for this period yet.');
  });
});

describe('chart summaries', () => {
  it('give latest, average and peak over the values present', () => {
    expect(summarizeSeries([1, null, 3, 2])).toEqual({ latest: 2, average: 2, peak: 3 });
    expect(summarizeSeries([null])).toBeUndefined();
  });

  it('say the numbers a chart shows, in its unit', () => {
    const text = describeChart({
      from: 0,
      to: 3,
      stepSeconds: 60,
      times: [1, 2],
      unit: 'bytes',
      series: [{ label: 'Memory used', values: [1024 ** 3, 3 * 1024 ** 3] }],
    });
    expect(text).toBe('Memory used: latest 3 GiB, average 2 GiB, peak 3 GiB.');
  });
});

describe('rangeQuery', () => {
  it('ends now and starts the range before', () => {
    const now = Date.UTC(2026, 0, 2);
    expect(rangeQuery('24h', now)).toEqual({
      from: '2026-01-01T00:00:00.000Z',
      to: '2026-01-02T00:00:00.000Z',
      step: 900,
    });
    expect(rangeQuery('7d', now)).toMatchObject({ from: '2025-12-26T00:00:00.000Z', step: 3600 });
  });
});
