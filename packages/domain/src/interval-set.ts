/** A closed range of integers, both ends included. */
export type Interval = readonly [first: bigint, last: bigint];

/**
 * A set of integers kept as sorted, disjoint, non-adjacent intervals. Address pools are far too large to
 * list (a /64 holds 2^64 addresses) but what is taken in them is small, so every question about free values
 * is answered by walking or binary-searching the gaps between taken intervals.
 */
export class IntervalSet {
  /** Invariant: sorted by first value, and each interval ends at least two below the next one's start. */
  readonly #intervals: readonly Interval[];

  private constructor(intervals: readonly Interval[]) {
    this.#intervals = intervals;
  }

  /** Any intervals, in any order, overlapping or not; those with last < first are empty and dropped. */
  static of(intervals: readonly Interval[]): IntervalSet {
    const sorted = intervals.filter(([first, last]) => first <= last).sort(([a], [b]) => compare(a, b));
    return new IntervalSet(coalesce(sorted));
  }

  /**
   * Single values, in any order, repeats allowed. Sorted input (rows read with ORDER BY) is taken as it
   * is, and runs of consecutive values become one interval without a tuple per value.
   */
  static ofValues(values: readonly bigint[]): IntervalSet {
    const sorted = isSorted(values) ? values : [...values].sort(compare);
    const intervals: Interval[] = [];
    let runStart: bigint | undefined;
    let runEnd = 0n;
    for (const value of sorted) {
      if (runStart !== undefined && value <= runEnd + 1n) {
        runEnd = value;
        continue;
      }
      if (runStart !== undefined) intervals.push([runStart, runEnd]);
      runStart = value;
      runEnd = value;
    }
    if (runStart !== undefined) intervals.push([runStart, runEnd]);
    return new IntervalSet(intervals);
  }

  /** One linear merge of the two sorted lists. */
  union(other: IntervalSet): IntervalSet {
    const a = this.#intervals;
    const b = other.#intervals;
    if (b.length === 0) return this;
    if (a.length === 0) return other;
    const byStart: Interval[] = [];
    let i = 0;
    let j = 0;
    while (i < a.length || j < b.length) {
      const x = a[i];
      const y = b[j];
      if (y === undefined || (x !== undefined && x[0] <= y[0])) {
        if (x !== undefined) byStart.push(x);
        i++;
      } else {
        byStart.push(y);
        j++;
      }
    }
    return new IntervalSet(coalesce(byStart));
  }

  /** Only the values in [first, last]. */
  clip(first: bigint, last: bigint): IntervalSet {
    return IntervalSet.of(
      this.#intervals.map(([a, b]): Interval => [a > first ? a : first, b < last ? b : last]),
    );
  }

  get size(): bigint {
    return this.#intervals.reduce((sum, [first, last]) => sum + (last - first + 1n), 0n);
  }

  get max(): bigint | undefined {
    return this.#intervals.at(-1)?.[1];
  }

  /** The lowest value in [from, upTo] not in the set. */
  firstFreeAtOrAfter(from: bigint, upTo: bigint): bigint | undefined {
    const interval = this.#lastStartingAtOrBefore(from);
    // Intervals never touch, so the value right after a covering interval is always free.
    const candidate = interval !== undefined && from <= interval[1] ? interval[1] + 1n : from;
    return candidate <= upTo ? candidate : undefined;
  }

  /** The highest value in [downTo, from] not in the set. */
  lastFreeAtOrBefore(from: bigint, downTo: bigint): bigint | undefined {
    const interval = this.#lastStartingAtOrBefore(from);
    const candidate = interval !== undefined && from <= interval[1] ? interval[0] - 1n : from;
    return candidate >= downTo ? candidate : undefined;
  }

  /** The runs of values in [first, last] not in the set, lowest first. */
  *gaps(first: bigint, last: bigint): Generator<Interval, void, undefined> {
    let next = first;
    for (const [start, end] of this.#intervals) {
      if (next > last) return;
      if (end < next) continue;
      if (start > next) yield [next, start - 1n < last ? start - 1n : last];
      next = end + 1n;
    }
    if (next <= last) yield [next, last];
  }

  /** The last interval whose first value is at most `value`: the only one that can contain it. */
  #lastStartingAtOrBefore(value: bigint): Interval | undefined {
    let low = 0;
    let high = this.#intervals.length - 1;
    let found: Interval | undefined;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const interval = this.#intervals[middle];
      if (interval !== undefined && interval[0] <= value) {
        found = interval;
        low = middle + 1;
      } else {
        high = middle - 1;
      }
    }
    return found;
  }
}

/** Merges overlapping and adjacent neighbours of a list sorted by first value. */
function coalesce(sorted: readonly Interval[]): Interval[] {
  const merged: Interval[] = [];
  let current: Interval | undefined;
  for (const interval of sorted) {
    if (current !== undefined && interval[0] <= current[1] + 1n) {
      if (interval[1] > current[1]) current = [current[0], interval[1]];
    } else {
      if (current !== undefined) merged.push(current);
      current = interval;
    }
  }
  if (current !== undefined) merged.push(current);
  return merged;
}

function isSorted(values: readonly bigint[]): boolean {
  for (let i = 1; i < values.length; i++) {
    const previous = values[i - 1];
    const value = values[i];
    if (previous !== undefined && value !== undefined && value < previous) return false;
  }
  return true;
}

function compare(a: bigint, b: bigint): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
