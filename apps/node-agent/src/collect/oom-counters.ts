import { AgingMap } from './aging-map.js';

/** A cgroup missing from this many answers in a row is gone (a cgroup id is never reused). */
const CGROUP_MISSES_BEFORE_FORGETTING = 3;
const OOM_KILLED = 'OOMKilled';

interface CgroupCount {
  value: number;
  misses: number;
}

interface OomCount {
  total: number;
  cgroups: Map<string, CgroupCount>;
  restartCount: number | undefined;
  lastTimestampMs: number;
}

/**
 * `container_oom_events_total`, a counter the agent keeps per (pod UID, container):
 * - it starts at the container's first cAdvisor value (summed over its cgroups), or at 0 when /pods shows
 *   the container first;
 * - it adds every increase of cAdvisor's per-cgroup counter, a cgroup seen for the first time later counting
 *   whole (it is a new cgroup, whose counter started at 0);
 * - it adds the kills /pods reveals: the restart count grew and the last termination reason is OOMKilled,
 *   adding the growth.
 * Both are needed: when the OOM killer ends the container's PID 1, the runtime removes the cgroup with its
 * counter, so cAdvisor never shows that kill; /pods never shows OOMs of child processes the container
 * survives. A PID-1 kill that a scrape catches before its cgroup is removed is counted by both, which is rare
 * and errs towards showing the kill.
 */
export class OomCounters {
  private readonly counts: AgingMap<OomCount>;

  constructor(idleRoundsBeforeForgetting: number) {
    this.counts = new AgingMap(idleRoundsBeforeForgetting);
  }

  /** The container's `container_oom_events_total` per cgroup id, from one cAdvisor answer. */
  observeCgroups(containerKey: string, valuesByCgroup: ReadonlyMap<string, number>): void {
    const count = this.count(containerKey);
    for (const [id, cgroup] of count.cgroups) {
      if (valuesByCgroup.has(id)) continue;
      cgroup.misses++;
      if (cgroup.misses >= CGROUP_MISSES_BEFORE_FORGETTING) count.cgroups.delete(id);
    }
    for (const [id, value] of valuesByCgroup) {
      const cgroup = count.cgroups.get(id);
      if (cgroup === undefined) {
        count.total += value;
        count.cgroups.set(id, { value, misses: 0 });
        continue;
      }
      if (value > cgroup.value) count.total += value - cgroup.value;
      cgroup.value = value;
      cgroup.misses = 0;
    }
  }

  /** The container's restart count and last termination reason, from one /pods answer. */
  observeRestarts(
    containerKey: string,
    restartCount: number,
    lastTerminationReason: string | undefined,
  ): void {
    const count = this.count(containerKey);
    const restarts = count.restartCount === undefined ? 0 : restartCount - count.restartCount;
    if (restarts > 0 && lastTerminationReason === OOM_KILLED) count.total += restarts;
    count.restartCount = restartCount;
  }

  /**
   * The count to publish now, and a timestamp no earlier than the one published before: the series mixes
   * cAdvisor's line timestamps with the tick's time when only /pods reported the container.
   */
  sample(containerKey: string, timestampMs: number): { value: number; timestampMs: number } | undefined {
    const count = this.counts.peek(containerKey);
    if (count === undefined) return undefined;
    count.lastTimestampMs = Math.max(count.lastTimestampMs, timestampMs);
    return { value: count.total, timestampMs: count.lastTimestampMs };
  }

  endRound(): void {
    this.counts.endRound();
  }

  private count(containerKey: string): OomCount {
    return this.counts.use(containerKey, () => ({
      total: 0,
      cgroups: new Map(),
      restartCount: undefined,
      lastTimestampMs: -Infinity,
    }));
  }
}
