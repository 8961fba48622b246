import { describe, expect, test } from 'vitest';

import { Backoff } from './backoff.js';

describe('Backoff', () => {
  test('doubles from the first delay up to the cap, and starts over after reset', () => {
    const backoff = new Backoff({ initialMs: 15_000, maxMs: 300_000, jitter: 0 });
    expect(Array.from({ length: 7 }, () => backoff.next())).toEqual([
      15_000, 30_000, 60_000, 120_000, 240_000, 300_000, 300_000,
    ]);
    backoff.reset();
    expect(backoff.next()).toBe(15_000);
  });

  test('moves each delay by at most the jitter share, either way', () => {
    expect(new Backoff({ initialMs: 1_000, maxMs: 1_000 }, () => 0).next()).toBe(800);
    expect(new Backoff({ initialMs: 1_000, maxMs: 1_000 }, () => 0.999_999).next()).toBe(1_200);
  });
});
