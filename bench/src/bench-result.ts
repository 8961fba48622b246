import { loadavg } from 'node:os';

/** One headline figure of a benchmark, optionally next to the anchor it is measured against. */
export type Figure = {
  /** The benchmark's name as `npm run bench -- <name>` knows it. */
  bench: string;
  /** A short stable id, e.g. `status_reads_1_in_flight_per_s`. */
  figure: string;
  value: number;
  /** `req/s`, `ms`, `MiB`, `cores`, ... */
  unit: string;
} & ({ anchor?: undefined; anchorValue?: undefined } | { anchor: string; anchorValue: number });

/** What one `BENCH_RESULT` line holds. */
export interface BenchResult {
  bench: string;
  figure: string;
  value: number;
  unit: string;
  anchor?: string;
  anchorValue?: number;
  /**
   * value / anchorValue: above 1 means our figure is larger than the anchor's for the same work
   * (faster for a rate, slower for a latency).
   */
  ratio?: number;
  /** `os.loadavg()` when the figure was reported: 1, 5 and 15 minutes. */
  loadavg: [number, number, number];
}

function finite(name: string, n: number, figure: string): number {
  if (!Number.isFinite(n)) throw new RangeError(`${figure}: ${name} is not a finite number (${n})`);
  return n;
}

/** Prints one `BENCH_RESULT {json}` line for a figure; refuses values that are not finite numbers. */
export function reportFigure(figure: Figure): void {
  const value = finite('value', figure.value, figure.figure);
  const anchored =
    figure.anchor === undefined
      ? {}
      : {
          anchor: figure.anchor,
          anchorValue: finite('anchorValue', figure.anchorValue, figure.figure),
          ratio: finite('ratio', value / figure.anchorValue, figure.figure),
        };
  const [one = 0, five = 0, fifteen = 0] = loadavg();
  const result: BenchResult = {
    bench: figure.bench,
    figure: figure.figure,
    value,
    unit: figure.unit,
    ...anchored,
    loadavg: [one, five, fifteen],
  };
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
}

/** `reportFigure` for one benchmark's figures without an anchor: `figure('p50_ms', 12.5, 'ms')`. */
export function figureReporter(bench: string): (figure: string, value: number, unit: string) => void {
  return (figure, value, unit) => {
    reportFigure({ bench, figure, value, unit });
  };
}
