import { describe, expect, it } from 'vitest';

import { timeAxis } from './time-axis.js';

const HOUR = 3600;
const DAY = 24 * HOUR;
// Local times, so the ticks' roundness holds in whatever time zone the test runs.
const local = (day: number, hour: number, minute = 0) =>
  new Date(2026, 11, day, hour, minute).getTime() / 1000;

function spacings(ticks: readonly number[]): number[] {
  return ticks.slice(1).map((t, i) => t - (ticks[i] ?? 0));
}

describe('timeAxis', () => {
  it('spans exactly the range asked for, however few points there are', () => {
    const to = local(2, 3, 17);
    const axis = timeAxis(to - 7 * DAY, to);
    expect([axis.min, axis.max]).toEqual([to - 7 * DAY, to]);
    for (const t of axis.ticks) {
      expect(t).toBeGreaterThanOrEqual(axis.min);
      expect(t).toBeLessThanOrEqual(axis.max);
    }
  });

  it('ticks every 10 minutes over an hour, on round minutes', () => {
    const to = local(2, 3, 17);
    const axis = timeAxis(to - HOUR, to);
    expect(axis.ticks[0]).toBe(local(2, 2, 20));
    expect(axis.ticks).toHaveLength(6);
    expect(new Set(spacings(axis.ticks))).toEqual(new Set([600]));
  });

  it('ticks every 3 hours over a day, and every day at local midnight over a week', () => {
    const to = local(2, 3, 17);
    const day = timeAxis(to - DAY, to);
    expect(day.ticks[0]).toBe(local(1, 6));
    expect(new Set(spacings(day.ticks))).toEqual(new Set([3 * HOUR]));
    expect(day.ticks).toHaveLength(8);

    const week = timeAxis(to - 7 * DAY, to);
    expect(week.ticks[0]).toBe(new Date(2026, 10, 26).getTime() / 1000);
    expect(week.ticks).toHaveLength(7);
    for (const t of week.ticks) expect(new Date(t * 1000).getHours()).toBe(0);
  });

  it('labels times of day within a day and dates over a week', () => {
    const to = local(2, 3, 17);
    const hour = timeAxis(to - HOUR, to);
    expect(hour.label(local(2, 2, 20))).toMatch(/02.20/);
    const week = timeAxis(to - 7 * DAY, to);
    expect(week.label(local(1, 0))).toMatch(/1/);
    expect(week.label(local(1, 0))).not.toMatch(/00.00/);
  });
});
