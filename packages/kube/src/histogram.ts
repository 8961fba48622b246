/** Default upper bounds in milliseconds: a reconcile takes from a few ms (cache hit) to minutes (clone). */
const DEFAULT_DURATION_BUCKETS_MS = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000];

export interface HistogramSnapshot {
  /** Upper bounds, ascending; a final +Inf bucket is implied by `count`. */
  buckets: readonly number[];
  /** Cumulative counts per bound, as Prometheus exposes them. */
  cumulativeCounts: number[];
  count: number;
  sum: number;
}

/** A cumulative histogram with fixed bounds, shaped for Prometheus exposition later. */
export class Histogram {
  private readonly counts: number[];
  private count = 0;
  private sum = 0;

  constructor(private readonly buckets: readonly number[] = DEFAULT_DURATION_BUCKETS_MS) {
    this.counts = buckets.map(() => 0);
  }

  observe(value: number): void {
    this.count += 1;
    this.sum += value;
    const index = this.buckets.findIndex((bound) => value <= bound);
    if (index >= 0) this.counts[index] = (this.counts[index] ?? 0) + 1;
  }

  snapshot(): HistogramSnapshot {
    let running = 0;
    const cumulativeCounts = this.counts.map((c) => (running += c));
    return { buckets: this.buckets, cumulativeCounts, count: this.count, sum: this.sum };
  }
}
