import { describe, expect, test } from 'vitest';

import { MINUTE, T0 } from './kubelet-fixtures.test-support.js';
import { OutageLog } from './outage-log.js';
import type { OutageLogLine } from './outage-log.js';

const FORBIDDEN =
  'HTTP 403: Forbidden (user=system:serviceaccount:proxima:node-agent, verb=get, resource=nodes, subresource=proxy)';

/** Observes one tick per `stepMs` from T0; `failing(ms since T0)` says whether that tick failed. */
function run(log: OutageLog, totalMs: number, stepMs: number, failing: (elapsedMs: number) => boolean) {
  const lines: (OutageLogLine & { atMs: number })[] = [];
  for (let elapsed = 0; elapsed <= totalMs; elapsed += stepMs) {
    const line = failing(elapsed)
      ? log.observe(false, T0 + elapsed, FORBIDDEN)
      : log.observe(true, T0 + elapsed);
    if (line !== undefined) lines.push({ ...line, atMs: elapsed });
  }
  return lines;
}

describe('OutageLog', () => {
  test('a 30-minute /pods outage: a warning at the start, one every 10 minutes, an info line on recovery', () => {
    const lines = run(
      new OutageLog('pods'),
      40 * MINUTE,
      MINUTE,
      (elapsed) => elapsed >= 5 * MINUTE && elapsed < 35 * MINUTE,
    );
    expect(lines.map(({ level, atMs }) => [level, atMs / MINUTE])).toEqual([
      ['warn', 5],
      ['warn', 15],
      ['warn', 25],
      ['info', 35],
    ]);
    const [start, repeat, , recovery] = lines;
    expect(start?.message).toContain('kubelet /pods failed: HTTP 403: Forbidden');
    expect(start?.message).toContain('workload labels');
    expect(start?.message).toContain('container_restarts_total and container_waiting');
    expect(repeat?.message).toContain('has been failing for 10m');
    expect(repeat?.message).toContain(FORBIDDEN);
    expect(recovery?.message).toBe('kubelet /pods answers again after failing for 30m');
  });

  test('with 30-second ticks still warns at most once per 10 minutes', () => {
    const lines = run(new OutageLog('pods'), 30 * MINUTE - 1, 30_000, () => true);
    expect(lines.map(({ atMs }) => atMs / MINUTE)).toEqual([0, 10, 20]);
  });

  test('says nothing while the endpoint answers, and starts over after a recovery', () => {
    const log = new OutageLog('summary');
    expect(log.observe(true, T0)).toBeUndefined();
    expect(log.observe(false, T0 + MINUTE, 'timeout')?.level).toBe('warn');
    expect(log.observe(true, T0 + MINUTE + 45_000)).toEqual({
      level: 'info',
      message: 'kubelet /stats/summary answers again after failing for 45s',
    });
    expect(log.observe(true, T0 + 2 * MINUTE)).toBeUndefined();
    const again = log.observe(false, T0 + 3 * MINUTE, 'timeout');
    expect(again?.message).toMatch(/^kubelet \/stats\/summary failed: timeout; /);
  });

  test('names what each endpoint’s outage costs', () => {
    expect(new OutageLog('cadvisor').observe(false, T0, 'EOF')?.message).toContain(
      'throttling, OOM and disk I/O',
    );
    expect(new OutageLog('summary').observe(false, T0, 'EOF')?.message).not.toContain('workload labels');
  });
});
