import 'uplot/dist/uPlot.min.css';

import { useEffect, useId, useRef } from 'react';
import uPlot from 'uplot';

import { describeChart, formatChartValue, type ChartData } from './chart-data.js';

const HEIGHT = 220;
/** Distinguishable for the common colour-vision deficiencies; the legend names each line as well. */
const LINE_COLOURS = ['#1f5fbf', '#c25400', '#2e7d32', '#7b1fa2'] as const;
/** The most rows the data table shows (the newest); the summary covers every point. */
const TABLE_ROWS = 120;

/**
 * One chart drawn by uPlot on a canvas, which assistive technology cannot read: the figure's caption and a
 * sentence summary say what it shows, and the data table under it holds the numbers.
 */
export function MetricsChart({ title, data }: { readonly title: string; readonly data: ChartData }) {
  const containerRef = useRef<HTMLDivElement>(null);
  const captionId = useId();

  useEffect(() => {
    const container = containerRef.current;
    if (container === null || data.times.length === 0) return;
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
      axes: [{}, { size: 80, values: (_plot, ticks) => ticks.map((t) => format(t)) }],
      scales: data.unit === 'percent' ? { y: { range: [0, 100] } } : {},
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
