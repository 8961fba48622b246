import type { MetricPoint, MetricSeriesName, MetricsAnswer } from '../../api/api-resources.js';
import { formatByteRate, formatBytes } from '../../format/bytes.js';

export type ChartRange = '1h' | '6h' | '24h' | '7d';

/**
 * The ranges a customer can choose, each with the step its points are asked in: about a hundred points
 * whatever the range (1-minute rollups are kept 48 hours, so a week is asked by the hour).
 */
interface ChartRangeChoice {
  readonly value: ChartRange;
  readonly label: string;
  readonly seconds: number;
  readonly stepSeconds: number;
}

const LAST_HOUR: ChartRangeChoice = { value: '1h', label: 'Last hour', seconds: 3_600, stepSeconds: 60 };

export const CHART_RANGES: readonly ChartRangeChoice[] = [
  LAST_HOUR,
  { value: '6h', label: 'Last 6 hours', seconds: 6 * 3_600, stepSeconds: 300 },
  { value: '24h', label: 'Last 24 hours', seconds: 24 * 3_600, stepSeconds: 900 },
  { value: '7d', label: 'Last 7 days', seconds: 7 * 24 * 3_600, stepSeconds: 3_600 },
];

export function chartRange(range: ChartRange): ChartRangeChoice {
  return CHART_RANGES.find((r) => r.value === range) ?? LAST_HOUR;
}

/** `from`, `to` and `step` of a range ending now, as the metrics route takes them. */
export function rangeQuery(range: ChartRange, now: number): { from: string; to: string; step: number } {
  const { seconds, stepSeconds } = chartRange(range);
  return {
    from: new Date(now - seconds * 1000).toISOString(),
    to: new Date(now).toISOString(),
    step: stepSeconds,
  };
}

export type ChartUnit = 'percent' | 'bytes' | 'bytes-per-second';

interface ChartSeries {
  readonly label: string;
  readonly values: readonly (number | null)[];
}

/**
 * Columns as uPlot takes them: times in Unix seconds, one value array per series, null for a gap; and the
 * range the answer covers (Unix seconds), which the x axis spans whatever points there are.
 */
export interface ChartData {
  readonly from: number;
  readonly to: number;
  /** Seconds per point. */
  readonly stepSeconds: number;
  readonly times: readonly number[];
  readonly series: readonly ChartSeries[];
  readonly unit: ChartUnit;
}

interface SeriesShape {
  readonly unit: ChartUnit;
  readonly lines: readonly { label: string; read: (p: MetricPoint) => number | undefined }[];
}

const PERCENT = 100;

const SHAPES: Readonly<Record<MetricSeriesName, SeriesShape>> = {
  CHART_SERIES_CPU: {
    unit: 'percent',
    lines: [
      {
        label: 'CPU used',
        read: (p) => (p.cpuUsageRatio === undefined ? undefined : p.cpuUsageRatio * PERCENT),
      },
      {
        label: 'CPU peak',
        read: (p) => (p.cpuUsageRatioMax === undefined ? undefined : p.cpuUsageRatioMax * PERCENT),
      },
    ],
  },
  CHART_SERIES_MEMORY: {
    unit: 'bytes',
    lines: [
      { label: 'Memory used', read: (p) => p.memoryUsedBytes },
      { label: 'Memory peak', read: (p) => p.memoryUsedBytesMax },
    ],
  },
  CHART_SERIES_NETWORK: {
    unit: 'bytes-per-second',
    lines: [
      { label: 'Received', read: (p) => p.networkReceiveBytesPerSecond },
      { label: 'Sent', read: (p) => p.networkTransmitBytesPerSecond },
    ],
  },
  CHART_SERIES_DISK: {
    unit: 'bytes-per-second',
    lines: [
      { label: 'Read', read: (p) => p.diskReadBytesPerSecond },
      { label: 'Written', read: (p) => p.diskWriteBytesPerSecond },
    ],
  },
};

/**
 * The API's points as chart columns. Where points are missing for longer than two steps (the agent was
 * silent) a null breaks the line, so a chart never draws a straight line across an outage. A line the
 * answer has no value for at all (the peak of a 1-minute rollup) is left out.
 */
export function shapeMetrics(answer: MetricsAnswer): ChartData {
  const shape = SHAPES[answer.series];
  const points = [...answer.points].sort((a, b) => Date.parse(a.time) - Date.parse(b.time));
  const maxStep = Math.max(1, answer.resolutionSeconds) * 2;
  const times: number[] = [];
  const columns = shape.lines.map(() => [] as (number | null)[]);
  let previous: number | undefined;
  for (const point of points) {
    const time = Math.floor(Date.parse(point.time) / 1000);
    if (previous !== undefined && time - previous > maxStep) {
      times.push(previous + answer.resolutionSeconds);
      for (const column of columns) column.push(null);
    }
    times.push(time);
    shape.lines.forEach((line, i) => columns[i]?.push(line.read(point) ?? null));
    previous = time;
  }
  const series = shape.lines
    .map((line, i) => ({ label: line.label, values: columns[i] ?? [] }))
    .filter((s) => s.values.some((v) => v !== null));
  const from = Math.floor(Date.parse(answer.from) / 1000);
  const to = Math.floor(Date.parse(answer.to) / 1000);
  return { from, to, stepSeconds: answer.resolutionSeconds, times, series, unit: shape.unit };
}

export interface SeriesSummary {
  readonly latest: number;
  readonly average: number;
  readonly peak: number;
}

/** Latest, average and peak of the values present; undefined when there are none. */
export function summarizeSeries(values: readonly (number | null)[]): SeriesSummary | undefined {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v));
  const latest = present.at(-1);
  if (latest === undefined) return undefined;
  return {
    latest,
    average: present.reduce((sum, v) => sum + v, 0) / present.length,
    peak: Math.max(...present),
  };
}

export function formatChartValue(unit: ChartUnit, value: number): string {
  if (unit === 'percent') return `${value.toFixed(value < 10 ? 1 : 0)} %`;
  if (unit === 'bytes') return formatBytes(value);
  return formatByteRate(value);
}

/** The text a chart stands for: "CPU used: latest 8 %, average 12 %, peak 40 %." per line. */
export function describeChart(data: ChartData): string {
  if (data.times.length === 0) return 'No data for this period yet.';
  return data.series
    .map((s) => {
      const summary = summarizeSeries(s.values);
      if (summary === undefined) return `${s.label}: no data.`;
      const f = (v: number) => formatChartValue(data.unit, v);
      return `${s.label}: latest ${f(summary.latest)}, average ${f(summary.average)}, peak ${f(summary.peak)}.`;
    })
    .join(' ');
}
