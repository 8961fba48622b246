import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';

import { runEvery } from './interval-loop.js';

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('runEvery', () => {
  // On a fake clock: the grid is a property of the loop, not of how busy the machine is.
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('runs on a fixed grid, one run at a time, skipping the slots an overrun missed', async () => {
    const controller = new AbortController();
    const starts: number[] = [];
    let running = 0;
    let overlapped = false;
    const loop = runEvery(100, controller.signal, async () => {
      overlapped ||= running > 0;
      running++;
      starts.push(Date.now());
      // The second run overruns two and a half intervals.
      await sleep(starts.length === 2 ? 250 : 10);
      running--;
    });
    await vi.advanceTimersByTimeAsync(780);
    controller.abort();
    await vi.advanceTimersByTimeAsync(100);
    await loop;
    expect(overlapped).toBe(false);
    // Slots 0, 1, then 4 (2 and 3 were missed), then every slot to the end: on the grid, never twice.
    expect(starts).toEqual([0, 100, 400, 500, 600, 700]);
  });

  test('stops at once when aborted between runs', async () => {
    const controller = new AbortController();
    let runs = 0;
    const loop = runEvery(1000, controller.signal, () => {
      runs++;
      return Promise.resolve();
    });
    await vi.advanceTimersByTimeAsync(10);
    controller.abort();
    await loop;
    expect(runs).toBe(1);
  });
});
