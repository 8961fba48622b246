import type { Interval } from './interval-set.js';

/**
 * The taken values of [first, last] nearest the end a walk starts from: ascending from `first`, or
 * descending from `last` when `descending`; at most `limit` of them are looked at.
 */
export interface TakenValuesQuery {
  readonly first: bigint;
  readonly last: bigint;
  readonly descending: boolean;
  readonly limit: number;
}

/** The taken values a query looked at, as runs, so that a long taken stretch costs one pair of numbers. */
export interface TakenRuns {
  /**
   * Each run [lowest, highest] is taken whole; runs come in the query's order (by their end nearest the
   * walk's start), need not be maximal, and may overlap.
   */
  readonly runs: readonly Interval[];
  /** The query stopped at its limit: more taken values may lie beyond the last run. */
  readonly more: boolean;
}

/** Answers a query: an indexed range scan with ORDER BY and LIMIT, its rows grouped into runs. */
export type ReadTakenValues = (query: TakenValuesQuery) => Promise<TakenRuns>;

/** Most walks stop at or right after where they start, so the first read is small. */
const FIRST_BATCH = 64;
/** Each further read looks at this many times more, so a long taken run costs a few round trips. */
const BATCH_GROWTH = 4;
/**
 * Bounds the index entries a read looks at past the free value it finds; a limit near the rows PostgreSQL
 * expects in the range also tempts its planner into reading the whole prefix and sorting it instead.
 */
const LARGEST_BATCH = 1024;

/**
 * The free value nearest the start of a walk over `ranges` (sorted and disjoint: lowest first, or highest
 * first when `descending`), reading the taken values in batches from where the walk stands. What it reads
 * is bounded by the taken values before the first free one plus one batch, not by how many are taken in
 * all. A read spans the rest of the walk rather than one range, so that ranges chopped small (by reserved
 * addresses, say) do not each cost a round trip; taken values between ranges are passed over.
 */
export async function nearestFreeValue(
  ranges: readonly Interval[],
  descending: boolean,
  read: ReadTakenValues,
): Promise<bigint | undefined> {
  const end = ranges.at(-1);
  let index = 0;
  let range = ranges[index];
  if (range === undefined || end === undefined) return undefined;
  /** Whether `a` comes after `b` in the walk. */
  const after = (a: bigint, b: bigint): boolean => (descending ? a < b : a > b);
  /** The end of an interval the walk meets first, and the one it leaves by. */
  const near = ([low, high]: Interval): bigint => (descending ? high : low);
  const far = ([low, high]: Interval): bigint => (descending ? low : high);
  const step = descending ? -1n : 1n;
  let candidate = near(range);
  let limit = FIRST_BATCH;
  for (;;) {
    const { runs, more } = await read(
      descending
        ? { first: end[0], last: candidate, descending, limit }
        : { first: candidate, last: end[1], descending, limit },
    );
    limit = Math.min(limit * BATCH_GROWTH, LARGEST_BATCH);
    for (const run of runs) {
      if (after(candidate, far(run))) continue;
      if (after(near(run), candidate)) return candidate;
      candidate = far(run) + step;
      while (after(candidate, far(range))) {
        range = ranges[++index];
        if (range === undefined) return undefined;
        if (after(near(range), candidate)) candidate = near(range);
      }
    }
    if (!more) return candidate;
  }
}
