import { AgingMap } from './aging-map.js';

/** One cgroup's CFS counters from one cAdvisor answer; a counter is absent without a CPU limit. */
export interface CfsCounters {
  periods: number | undefined;
  throttledPeriods: number | undefined;
  timestampMs: number;
}

interface ThrottleRatio {
  ratio: number;
  timestampMs: number;
}

interface CompleteCfsCounters {
  periods: number;
  throttledPeriods: number;
  timestampMs: number;
}

/**
 * `container_cpu_throttled_ratio`: Δthrottled periods ÷ Δperiods between two cAdvisor answers, per
 * container. A container can have more than one cgroup for a while (the old one lingers after a restart),
 * so the deltas are summed over the cgroups present in both answers whose timestamps advanced and whose
 * counters did not decrease. No pair like that (first sight, no CPU limit, a restart) gives no ratio; pairs
 * without any elapsed period give 0, an idle container being not throttled.
 */
export class ThrottleRatios {
  private readonly previous: AgingMap<ReadonlyMap<string, CompleteCfsCounters>>;

  constructor(idleRoundsBeforeForgetting: number) {
    this.previous = new AgingMap(idleRoundsBeforeForgetting);
  }

  /** `cgroups` maps a cgroup id to its counters. */
  observe(containerKey: string, cgroups: ReadonlyMap<string, CfsCounters>): ThrottleRatio | undefined {
    const before = this.previous.peek(containerKey);
    const kept = new Map<string, CompleteCfsCounters>();
    let periods = 0;
    let throttledPeriods = 0;
    let timestampMs: number | undefined;
    for (const [id, counters] of cgroups) {
      const current = complete(counters);
      if (current === undefined) continue;
      const last = before?.get(id);
      if (last !== undefined && current.timestampMs <= last.timestampMs) {
        kept.set(id, last);
        continue;
      }
      kept.set(id, current);
      if (last === undefined) continue;
      const periodsDelta = current.periods - last.periods;
      const throttledDelta = current.throttledPeriods - last.throttledPeriods;
      if (periodsDelta < 0 || throttledDelta < 0) continue;
      periods += periodsDelta;
      throttledPeriods += throttledDelta;
      timestampMs = Math.max(timestampMs ?? current.timestampMs, current.timestampMs);
    }
    if (kept.size > 0) this.previous.set(containerKey, kept);
    if (timestampMs === undefined) return undefined;
    return { ratio: periods === 0 ? 0 : throttledPeriods / periods, timestampMs };
  }

  endRound(): void {
    this.previous.endRound();
  }
}

function complete(counters: CfsCounters): CompleteCfsCounters | undefined {
  const { periods, throttledPeriods, timestampMs } = counters;
  if (periods === undefined || throttledPeriods === undefined) return undefined;
  return { periods, throttledPeriods, timestampMs };
}
