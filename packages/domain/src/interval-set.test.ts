import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { IntervalSet, type Interval } from './interval-set.js';

// Small, dense values, so that runs of neighbours are common and a plain Set is the oracle.
const value = fc.bigInt({ min: -3n, max: 20n });
const interval = fc.tuple(value, value).map(([a, b]): Interval => (a <= b ? [a, b] : [b, a]));
const sets = fc.tuple(
  fc.array(interval, { maxLength: 4 }),
  fc.array(fc.bigInt({ min: 0n, max: 15n }), { maxLength: 12 }),
);

function members(intervals: readonly Interval[], values: readonly bigint[]): Set<bigint> {
  const set = new Set(values);
  for (const [first, last] of intervals) for (let v = first; v <= last; v++) set.add(v);
  return set;
}

describe('an interval set', () => {
  it('answers every question as a brute-force set does', () => {
    fc.assert(
      fc.property(sets, value, value, ([intervals, values], from, to) => {
        const range = (a: bigint, b: bigint): bigint[] => {
          const result: bigint[] = [];
          for (let v = a; v <= b; v++) result.push(v);
          return result;
        };
        const built: [IntervalSet, Set<bigint>][] = [
          [IntervalSet.of(intervals), members(intervals, [])],
          [IntervalSet.ofValues(values), members([], values)],
          [IntervalSet.of(intervals).union(IntervalSet.ofValues(values)), members(intervals, values)],
        ];
        for (const [set, oracle] of built) {
          const freeFrom = range(from, to).filter((v) => !oracle.has(v));
          expect(set.size).toBe(BigInt(oracle.size));
          expect(set.max).toBe(
            [...oracle].reduce<bigint | undefined>((m, v) => (m === undefined || v > m ? v : m), undefined),
          );
          expect(set.firstFreeAtOrAfter(from, to)).toBe(freeFrom[0]);
          expect(set.lastFreeAtOrBefore(to, from)).toBe(freeFrom.at(-1));
          expect([...set.gaps(from, to)].flatMap(([a, b]) => range(a, b))).toEqual(freeFrom);
          expect(set.clip(from, to).size).toBe(BigInt(range(from, to).filter((v) => oracle.has(v)).length));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('keeps neighbouring values as one interval, so the value after one is always free', () => {
    const values = IntervalSet.ofValues([3n, 1n, 2n, 2n, 7n]);
    expect(values.firstFreeAtOrAfter(1n, 9n)).toBe(4n);
    expect(values.lastFreeAtOrBefore(3n, -5n)).toBe(0n);
    const set = values.union(IntervalSet.of([[4n, 5n]]));
    expect([...set.gaps(0n, 9n)]).toEqual([
      [0n, 0n],
      [6n, 6n],
      [8n, 9n],
    ]);
    expect(set.firstFreeAtOrAfter(1n, 9n)).toBe(6n);
  });
});
