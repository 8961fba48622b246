import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Interval } from './interval-set.js';
import { nearestFreeValue, type TakenRuns, type TakenValuesQuery } from './nearest-free-value.js';

/**
 * An ORDER BY … LIMIT over a list of taken values, answered as the database does (maximal runs of distinct
 * values) or as singletons, repeats included (runs need be neither maximal nor disjoint); it keeps the
 * queries it was asked.
 */
function reader(taken: readonly bigint[], style: 'maximal' | 'singletons' = 'maximal') {
  const values = (style === 'maximal' ? [...new Set(taken)] : [...taken]).sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  const queries: TakenValuesQuery[] = [];
  const read = (query: TakenValuesQuery): Promise<TakenRuns> => {
    queries.push(query);
    const inRange = values.filter((v) => v >= query.first && v <= query.last);
    const batch = (query.descending ? inRange.reverse() : inRange).slice(0, query.limit);
    const runs: [bigint, bigint][] = [];
    for (const value of batch) {
      const run = runs.at(-1);
      if (
        style === 'maximal' &&
        run !== undefined &&
        value === (query.descending ? run[0] - 1n : run[1] + 1n)
      ) {
        if (query.descending) run[0] = value;
        else run[1] = value;
      } else runs.push([value, value]);
    }
    return Promise.resolve({ runs, more: batch.length === query.limit });
  };
  return { read, queries };
}

const range = (first: number, last: number): Interval => [BigInt(first), BigInt(last)];

describe('nearestFreeValue', () => {
  it('answers from the first small read when the start is free or a hole is near', async () => {
    const r = reader([10n, 11n, 13n]);
    expect(await nearestFreeValue([range(10, 1000)], false, r.read)).toBe(12n);
    expect(await nearestFreeValue([range(10, 1000)], true, r.read)).toBe(1000n);
    expect(r.queries).toEqual([
      { first: 10n, last: 1000n, descending: false, limit: 64 },
      { first: 10n, last: 1000n, descending: true, limit: 64 },
    ]);
  });

  it('reads on in growing batches across a long taken run, and into the next range', async () => {
    const taken = Array.from({ length: 5000 }, (_, i) => BigInt(i));
    const r = reader(taken);
    expect(await nearestFreeValue([range(0, 2999), range(4000, 6000)], false, r.read)).toBe(5000n);
    expect(r.queries.map((q) => [q.first, q.last, q.limit])).toEqual([
      [0n, 6000n, 64],
      [64n, 6000n, 256],
      [320n, 6000n, 1024],
      [1344n, 6000n, 1024],
      // The first range ends inside this read; what it holds from 3,000 to 3,999 is passed over.
      [2368n, 6000n, 1024],
      [4000n, 6000n, 1024],
    ]);
  });

  it('reads across many small ranges at once rather than one range at a time', async () => {
    // Every tenth value is outside the ranges (reserved, say), and all the others up to 2,000 are taken.
    const ranges = Array.from({ length: 300 }, (_, i) => range(i * 10 + 1, i * 10 + 9));
    const taken = Array.from({ length: 2000 }, (_, i) => BigInt(i)).filter((v) => v % 10n !== 0n);
    const r = reader(taken);
    expect(await nearestFreeValue(ranges, false, r.read)).toBe(2001n);
    expect(r.queries.length).toBeLessThan(5);
    expect(await nearestFreeValue([...ranges].reverse(), true, r.read)).toBe(2999n);
  });

  it('answers undefined when every range is taken, and for no range at all', async () => {
    const r = reader([1n, 2n, 3n, 7n]);
    expect(await nearestFreeValue([range(1, 3), range(7, 7)], false, r.read)).toBeUndefined();
    expect(await nearestFreeValue([range(7, 7), range(1, 3)], true, r.read)).toBeUndefined();
    expect(await nearestFreeValue([], false, r.read)).toBeUndefined();
  });

  it('finds what a scan of every value finds, across batch boundaries and however the runs come', async () => {
    const ranges = fc
      .array(fc.tuple(fc.integer({ min: 0, max: 3000 }), fc.integer({ min: 0, max: 3000 })), {
        maxLength: 4,
      })
      .map((pairs) =>
        pairs
          .map(([a, b]) => range(Math.min(a, b), Math.max(a, b)))
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .reduce<Interval[]>((disjoint, r) => {
            const previous = disjoint.at(-1);
            if (previous === undefined || r[0] > previous[1]) disjoint.push(r);
            return disjoint;
          }, []),
      );
    // Long runs of taken values (so that reads fill up and the batches grow) with a few holes and repeats.
    const taken = fc
      .tuple(
        fc.integer({ min: 0, max: 3000 }),
        fc.integer({ min: 0, max: 3000 }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 20 }),
        fc.array(fc.integer({ min: 0, max: 3000 }), { maxLength: 20 }),
      )
      .map(([from, to, holes, repeats]) => {
        const values = new Set<number>();
        for (let v = Math.min(from, to); v <= Math.max(from, to); v++) values.add(v);
        for (const hole of holes) values.delete(hole);
        return [...values, ...repeats.filter((v) => values.has(v))].map(BigInt);
      });
    const styles = fc.constantFrom('maximal' as const, 'singletons' as const);
    await fc.assert(
      fc.asyncProperty(ranges, taken, fc.boolean(), styles, async (rs, values, descending, style) => {
        const takenSet = new Set(values);
        const ordered = descending ? [...rs].reverse() : rs;
        let expected: bigint | undefined;
        for (const [first, last] of ordered) {
          for (let v = descending ? last : first; v >= first && v <= last; v += descending ? -1n : 1n)
            if (!takenSet.has(v)) {
              expected = v;
              break;
            }
          if (expected !== undefined) break;
        }
        const r = reader(values, style);
        expect(await nearestFreeValue(ordered, descending, r.read)).toBe(expected);
        // Reads stay inside the walk, however its ranges lie.
        for (const q of r.queries)
          expect(q.first >= (rs[0]?.[0] ?? 0n) && q.last <= (rs.at(-1)?.[1] ?? 0n)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
