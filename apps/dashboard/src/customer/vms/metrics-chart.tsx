import 'uplot/dist/uPlot.min.css';

import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';

import { formatDateTime } from '../../format/dates.js';
import { describeChart, formatChartValue, type ChartData } from './chart-data.js';
import { timeAxis } from './time-axis.js';

const HEIGHT = 220;
/** Distinguishable for the common colour-vision deficiencies; the legend names each line as well. */
const LINE_COLOURS = ['#1f5fbf', '#c25400', '#2e7d32', '#7b1fa2'] as const;
/** The most rows the data table shows (the newest); the summary covers every point. */
const TABLE_ROWS = 120;

/**
 * One chart drawn by uPlot on a canvas, which assistive technology cannot read: the figure's caption and a
 * sentence summary say what it shows, and the data table under it holds the numbers. The x axis spans the
 * chosen range (`rangeLabel`, from the answer's `from` to its `to`), whatever points there are in it.
 */
export function MetricsChart({
  title,
  rangeLabel,
  data,
}: {
  readonly title: string;
  readonly rangeLabel: string;
  readonly data: ChartData;
}) {
  const containerRef = useRef<HTMLDivElement>(null);
  const captionId = useId();

  useEffect(() => {
    const container = containerRef.current;
    if (container === null || data.times.length === 0) return;
    const axis = timeAxis(data.from, data.to);
    const format = (value: number | null | undefined) =>
      value === null || value === undefined ? '—' : formatChartValue(data.unit, value);
    const options: uPlot.Options = {
      width: Math.max(280, container.clientWidth),
      height: HEIGHT,
      series: [
        {},
        ...data.series.map((s, i) => ({
          label: s.label,
          stroke: LINE_COLOURS[i % LINE_COLOURS.length],
          width: 2,
          spanGaps: false,
          value: (_plot: uPlot, value: number | null) => format(value),
        })),
      ],
      axes: [
        { splits: () => [...axis.ticks], values: (_plot, ticks) => ticks.map((t) => axis.label(t)) },
        { size: 80, values: (_plot, ticks) => ticks.map((t) => format(t)) },
      ],
      scales: {
        x: { time: true, range: () => [axis.min, axis.max] },
        ...(data.unit === 'percent' ? { y: { range: [0, 100] } } : {}),
      },
    };
    const plot = new uPlot(options, [[...data.times], ...data.series.map((s) => [...s.values])], container);
    const observer = new ResizeObserver(() => {
      plot.setSize({ width: Math.max(280, container.clientWidth), height: HEIGHT });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [data]);

  const rows = data.times.map((time, i) => ({ time, values: data.series.map((s) => s.values[i] ?? null) }));
  const newest = rows
    .filter((r) => r.values.some((v) => v !== null))
    .slice(-TABLE_ROWS)
    .reverse();
  return (
    <figure className="chart" aria-labelledby={captionId}>
      <figcaption id={captionId}>{title}</figcaption>
      <p className="chart-summary" data-testid="chart-span">
        {rangeLabel}: <time dateTime={iso(data.from)}>{formatDateTime(iso(data.from))}</time> to{' '}
        <time dateTime={iso(data.to)}>{formatDateTime(iso(data.to))}</time>, one point per{' '}
        {stepName(data.stepSeconds)}.
      </p>
      <p className="chart-summary">{describeChart(data)}</p>
      {data.times.length > 0 && <div ref={containerRef} className="chart-canvas" aria-hidden="true" />}
      {newest.length > 0 && (
        <details className="chart-table">
          <summary>{title}: data table</summary>
          <table>
            <caption className="visually-hidden">{title}, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                {data.series.map((s) => (
                  <th scope="col" key={s.label}>
                    {s.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {newest.map((row) => (
                <tr key={row.time}>
                  <th scope="row">{new Date(row.time * 1000).toLocaleString()}</th>
                  {row.values.map((v, i) => (
                    <td key={data.series[i]?.label ?? i}>
                      {v === null ? '—' : formatChartValue(data.unit, v)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
    </figure>
  );
}

function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString();
}

/** 60 → "minute", 900 → "15 minutes", 3600 → "hour". */
function stepName(seconds: number): string {
  if (seconds % 3600 === 0) return seconds === 3600 ? 'hour' : `${String(seconds / 3600)} hours`;
  if (seconds % 60 === 0) return seconds === 60 ? 'minute' : `${String(seconds / 60)} minutes`;
  return `${String(seconds)} seconds`;
}
