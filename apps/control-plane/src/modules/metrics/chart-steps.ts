import type { RollupPoint } from './vm-metrics.repository.js';

/**
 * Rollups merged into buckets of `stepSeconds` (a multiple of their resolution), for a chart over a long
 * range that wants fewer points than the rollups hold: sums and counts add up, the peak is the largest.
 * Each step starts at a multiple of itself since the epoch, as the rollup buckets do.
 */
export function mergeRollups(rollups: readonly RollupPoint[], stepSeconds: number): RollupPoint[] {
  const stepMs = stepSeconds * 1000;
  const merged = new Map<string, RollupPoint>();
  for (const r of rollups) {
    const start = Math.floor(r.bucket.getTime() / stepMs) * stepMs;
    const key = `${r.metric}\u0000${String(start)}`;
    const seen = merged.get(key);
    merged.set(
      key,
      seen === undefined
        ? { ...r, bucket: new Date(start) }
        : { ...seen, sum: seen.sum + r.sum, count: seen.count + r.count, max: Math.max(seen.max, r.max) },
    );
  }
  return [...merged.values()].sort((a, b) => a.bucket.getTime() - b.bucket.getTime());
}
