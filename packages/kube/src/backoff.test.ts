import { describe, expect, it } from 'vitest';
import { Backoff } from './backoff.js';

describe('Backoff', () => {
  it('doubles from the base up to the ceiling', () => {
    const backoff = new Backoff({ baseMs: 100, maxMs: 1000, jitter: 0 });
    expect([1, 2, 3, 4, 5, 10].map((n) => backoff.delayMs(n))).toEqual([100, 200, 400, 800, 1000, 1000]);
  });

  it('keeps jittered delays between (1 − jitter) × ceiling and the ceiling', () => {
    const low = new Backoff({ baseMs: 100, maxMs: 10_000, jitter: 0.25 }, () => 0.999_999);
    const high = new Backoff({ baseMs: 100, maxMs: 10_000, jitter: 0.25 }, () => 0);
    for (const failures of [1, 2, 3, 6]) {
      const ceiling = high.ceilingMs(failures);
      expect(high.delayMs(failures)).toBe(ceiling);
      expect(low.delayMs(failures)).toBe(Math.round(ceiling * 0.75));
    }
  });

  it('rejects options that cannot work', () => {
    expect(() => new Backoff({ baseMs: 0, maxMs: 10 })).toThrow(RangeError);
    expect(() => new Backoff({ baseMs: 10, maxMs: 5 })).toThrow(RangeError);
    expect(() => new Backoff({ baseMs: 10, maxMs: 50, jitter: 2 })).toThrow(RangeError);
  });
});
