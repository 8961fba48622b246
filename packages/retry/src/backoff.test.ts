import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { Backoff, RetrySchedule } from './backoff.js';

describe('Backoff', () => {
  it('grows by the factor from the base after the first failure, up to the cap', () => {
    const backoff = new Backoff({ baseMs: 100, maxMs: 1_000, jitter: 0 });
    expect([1, 2, 3, 4, 5, 10].map((n) => backoff.delayMs(n))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(new Backoff({ baseMs: 10, maxMs: 1_000, factor: 3, jitter: 0 }).delayMs(3)).toBe(90);
  });

  it('counts no failures, or a negative count, as the first', () => {
    const backoff = new Backoff({ baseMs: 100, maxMs: 1_000, jitter: 0 });
    expect(backoff.delayMs(0)).toBe(100);
    expect(backoff.delayMs(-3)).toBe(100);
  });

  it('takes at most the jitter share off a delay, never adds to it', () => {
    const ceiling = (random: number) =>
      new Backoff({ baseMs: 1_000, maxMs: 1_000, jitter: 0.25 }, () => random);
    expect(ceiling(0).delayMs(1)).toBe(1_000);
    expect(ceiling(0.5).delayMs(1)).toBe(875);
    expect(ceiling(0.999_999).delayMs(1)).toBe(750);
  });

  it('keeps every delay between (1 − jitter) × ceiling and the ceiling, and the ceiling grows to the cap', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.double({ min: 1, max: 4, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        fc.integer({ min: 1, max: 200 }),
        (baseMs, extraMs, factor, jitter, random, failures) => {
          const maxMs = baseMs + extraMs;
          const backoff = new Backoff({ baseMs, maxMs, factor, jitter }, () => random);
          const ceiling = backoff.ceilingMs(failures);
          expect(ceiling).toBeGreaterThanOrEqual(Math.min(baseMs, maxMs));
          expect(ceiling).toBeLessThanOrEqual(maxMs);
          expect(backoff.ceilingMs(failures + 1)).toBeGreaterThanOrEqual(ceiling);
          const delay = backoff.delayMs(failures);
          expect(delay).toBeLessThanOrEqual(Math.round(ceiling));
          expect(delay).toBeGreaterThanOrEqual(Math.floor(ceiling * (1 - jitter)));
        },
      ),
    );
  });

  it('refuses options that make no schedule', () => {
    expect(() => new Backoff({ baseMs: 0, maxMs: 10 })).toThrow(/0 < baseMs <= maxMs/);
    expect(() => new Backoff({ baseMs: 10, maxMs: 5 })).toThrow(RangeError);
    expect(() => new Backoff({ baseMs: 10, maxMs: Infinity })).toThrow(RangeError);
    expect(() => new Backoff({ baseMs: 10, maxMs: 50, factor: 0.5 })).toThrow(/factor/);
    expect(() => new Backoff({ baseMs: 10, maxMs: 50, jitter: 2 })).toThrow(/jitter/);
    expect(() => new Backoff({ baseMs: Number.NaN, maxMs: 50 })).toThrow(RangeError);
  });
});

describe('RetrySchedule', () => {
  it('counts failures in a row and starts over after a success', () => {
    const retries = new RetrySchedule({ baseMs: 15_000, maxMs: 300_000, jitter: 0 });
    expect(Array.from({ length: 7 }, () => retries.next())).toEqual([
      15_000, 30_000, 60_000, 120_000, 240_000, 300_000, 300_000,
    ]);
    expect(retries.failures).toBe(7);
    retries.reset();
    expect(retries.next()).toBe(15_000);
  });
});
