/**
 * The cluster restarts query over `container_restarts_total`, exactly as seed 004 prescribes, per step t:
 *
 *   sum(clamp_min(last_over_time(x[W]) - last_over_time(x[W] offset step), 0)),  W = max(step, 5m)
 *
 * A range `[W]` at t holds the samples in (t − W, t] (Prometheus 3's left-open ranges). A series with no
 * sample in either window contributes nothing, so a new pod, a late workload label or an agent restart
 * never reads as a spike, and a recreated pod whose count fell to 0 is clamped to 0. Not increase(),
 * which extrapolates and counts a new series' first value. Pure: the arithmetic is tested on its own.
 */

const MIN_RESTARTS_WINDOW_MS = 5 * 60_000;
export const MAX_RESTART_STEPS = 11_000;

interface RestartSample {
  readonly timestampMs: number;
  readonly value: number;
}

export interface RestartSeries {
  /** What the series is summed into besides the total (its workload, with by=workload). */
  readonly group: string;
  /** Oldest first. */
  readonly samples: readonly RestartSample[];
}

export interface RestartsRange {
  readonly fromMs: number;
  readonly toMs: number;
  readonly stepMs: number;
}

export interface RestartCounts {
  /** The evaluation times: from, from + step, … up to to. */
  readonly times: number[];
  readonly windowMs: number;
  /** Restarts per step, over every series. */
  readonly totals: number[];
  /** Restarts per step, by group. */
  readonly byGroup: Map<string, number[]>;
}

export function restartsWindowMs(stepMs: number): number {
  return Math.max(stepMs, MIN_RESTARTS_WINDOW_MS);
}

export function stepCount(range: RestartsRange): number {
  return Math.floor((range.toMs - range.fromMs) / range.stepMs) + 1;
}

/** The newest value of a series in (t − window, t], for t increasing from one call to the next. */
function lastOverTime(
  samples: readonly RestartSample[],
  windowMs: number,
): (t: number) => number | undefined {
  let next = 0;
  let last: RestartSample | undefined;
  return (t) => {
    for (let s = samples[next]; s !== undefined && s.timestampMs <= t; s = samples[++next]) {
      if (Number.isFinite(s.value)) last = s;
    }
    return last !== undefined && last.timestampMs > t - windowMs ? last.value : undefined;
  };
}

export function countRestarts(series: readonly RestartSeries[], range: RestartsRange): RestartCounts {
  const { fromMs, stepMs } = range;
  const windowMs = restartsWindowMs(stepMs);
  const times = Array.from({ length: stepCount(range) }, (_, i) => fromMs + i * stepMs);
  const totals = times.map(() => 0);
  const byGroup = new Map<string, number[]>();
  for (const s of series) {
    let counts = byGroup.get(s.group);
    if (counts === undefined) byGroup.set(s.group, (counts = times.map(() => 0)));
    const at = lastOverTime(s.samples, windowMs);
    let before = at(fromMs - stepMs);
    times.forEach((t, i) => {
      const now = at(t);
      if (now !== undefined && before !== undefined) {
        const restarts = Math.max(now - before, 0);
        totals[i] = (totals[i] ?? 0) + restarts;
        counts[i] = (counts[i] ?? 0) + restarts;
      }
      before = now;
    });
  }
  return { times, windowMs, totals, byGroup };
}
