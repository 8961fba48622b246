import { setTimeout as delay } from 'node:timers/promises';

import { describe, expect, test } from 'vitest';

import { runEvery } from './interval-loop.js';

describe('runEvery', () => {
  test('runs on a fixed grid, one run at a time, skipping the slots an overrun missed', async () => {
    const controller = new AbortController();
    const starts: number[] = [];
    let running = 0;
    let overlapped = false;
    const origin = Date.now();
    const loop = runEvery(100, controller.signal, async () => {
      overlapped ||= running > 0;
      running++;
      starts.push(Date.now() - origin);
      // The second run overruns two and a half intervals.
      await delay(starts.length === 2 ? 250 : 10);
      running--;
    });
    await delay(780);
    controller.abort();
    await loop;
    expect(overlapped).toBe(false);
    // Slots 0, 1, then 4 (2 and 3 were missed), then on: never a run off the grid, never one twice.
    const slots = starts.map((ms) => Math.floor(ms / 100));
    expect(slots.slice(0, 3)).toEqual([0, 1, 4]);
    expect(slots.every((slot, i) => i === 0 || slot > (slots[i - 1] ?? 0))).toBe(true);
    for (const ms of starts) expect(ms % 100).toBeLessThan(80);
  });
});
