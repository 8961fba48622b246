import { describe, expect, test } from 'vitest';

import { mapConcurrently } from './concurrent-map.js';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('mapConcurrently', () => {
  test('keeps at most `limit` calls in flight and the results in the order of the items', async () => {
    let running = 0;
    let peak = 0;
    const results = await mapConcurrently([5, 1, 4, 2, 3, 6, 7], 3, async (n) => {
      running++;
      peak = Math.max(peak, running);
      for (let i = 0; i < n; i++) await tick();
      running--;
      return n * 10;
    });
    expect(results).toEqual([50, 10, 40, 20, 30, 60, 70]);
    expect(peak).toBe(3);
  });

  test('the first failure rejects, and no call starts after it', async () => {
    const started: number[] = [];
    const failure = new Error('boom');
    const mapping = mapConcurrently([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw failure;
      return n;
    });
    await expect(mapping).rejects.toBe(failure);
    await tick();
    await tick();
    expect(started).toEqual([1, 2, 3]);
  });

  test('an aborted signal stops starting calls', async () => {
    const controller = new AbortController();
    const reason = new Error('deadline');
    const started: number[] = [];
    const mapping = mapConcurrently(
      [1, 2, 3],
      1,
      async (n) => {
        started.push(n);
        controller.abort(reason);
        await tick();
        return n;
      },
      controller.signal,
    );
    await expect(mapping).rejects.toBe(reason);
    expect(started).toEqual([1]);
  });
});
