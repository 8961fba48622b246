import { describe, expect, test } from 'vitest';

import { backoffDelay } from './backoff.js';

describe('backoffDelay', () => {
  test('doubles from the minimum up to the ceiling', () => {
    const backoff = { minMs: 100, maxMs: 1_000 };
    expect([0, 1, 2, 3, 4, 10].map((attempt) => backoffDelay(attempt, backoff))).toEqual([
      100, 200, 400, 800, 1_000, 1_000,
    ]);
  });

  test('takes another factor', () => {
    expect(backoffDelay(2, { minMs: 10, maxMs: 1_000, factor: 3 })).toBe(90);
  });

  test('jitter only ever shortens a delay, by at most its fraction', () => {
    const backoff = { minMs: 100, maxMs: 1_000, jitter: 0.5 };
    expect(backoffDelay(1, backoff, () => 0)).toBe(200);
    expect(backoffDelay(1, backoff, () => 0.999999)).toBe(100);
    expect(backoffDelay(1, backoff, () => 0.5)).toBe(150);
  });

  test('clamps nonsense jitter and negative attempts', () => {
    expect(backoffDelay(-3, { minMs: 100, maxMs: 1_000, jitter: 7 }, () => 0)).toBe(100);
  });
});
