import { afterEach, describe, expect, it, vi } from 'vitest';
import { reportFigure, type BenchResult } from './bench-result.js';

function captureStdout(): string[] {
  const lines: string[] = [];
  vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    lines.push(String(chunk));
    return true;
  });
  return lines;
}

function parseLine(line: string | undefined): BenchResult {
  const match = /^BENCH_RESULT (.*)\n$/.exec(line ?? '');
  if (!match?.[1]) throw new Error(`not a BENCH_RESULT line: ${JSON.stringify(line)}`);
  return JSON.parse(match[1]) as BenchResult;
}

describe('reportFigure', () => {
  afterEach(() => vi.restoreAllMocks());

  it('prints one BENCH_RESULT line with the figure and the load average', () => {
    const lines = captureStdout();
    reportFigure({ bench: 'kube', figure: 'work_queue_keys_per_s', value: 51234.5, unit: 'keys/s' });
    expect(lines).toHaveLength(1);
    const result = parseLine(lines[0]);
    expect(result).toEqual({
      bench: 'kube',
      figure: 'work_queue_keys_per_s',
      value: 51234.5,
      unit: 'keys/s',
      loadavg: [expect.any(Number), expect.any(Number), expect.any(Number)],
    });
    expect(result.loadavg.every((n) => n >= 0)).toBe(true);
  });

  it('reports the anchor and the ratio of the value to it', () => {
    const lines = captureStdout();
    reportFigure({
      bench: 'api',
      figure: 'get_nodes_req_per_s',
      value: 3000,
      unit: 'req/s',
      anchor: 'pgbench',
      anchorValue: 12000,
    });
    const result = parseLine(lines[0]);
    expect(result).toMatchObject({ anchor: 'pgbench', anchorValue: 12000, ratio: 0.25 });
    expect(Object.keys(result)).toEqual([
      'bench',
      'figure',
      'value',
      'unit',
      'anchor',
      'anchorValue',
      'ratio',
      'loadavg',
    ]);
  });

  it('refuses a value that is not a finite number and prints nothing', () => {
    const lines = captureStdout();
    const figure = { bench: 'kube', figure: 'watch_events_per_s', unit: 'events/s' };
    expect(() => {
      reportFigure({ ...figure, value: NaN });
    }).toThrow(/watch_events_per_s: value/);
    expect(() => {
      reportFigure({ ...figure, value: Infinity });
    }).toThrow(RangeError);
    expect(() => {
      reportFigure({ ...figure, value: 1, anchor: 'x', anchorValue: NaN });
    }).toThrow(/anchorValue/);
    expect(() => {
      reportFigure({ ...figure, value: 1, anchor: 'x', anchorValue: 0 });
    }).toThrow(/ratio/);
    expect(lines).toEqual([]);
  });
});
