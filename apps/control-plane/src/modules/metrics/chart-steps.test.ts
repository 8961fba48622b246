import { describe, expect, it } from 'vitest';

import { mergeRollups } from './chart-steps.js';

const at = (iso: string) => new Date(iso);

describe('chart steps', () => {
  it('adds up sums and counts and keeps the peak of the rollups in each step', () => {
    const merged = mergeRollups(
      [
        { metric: 'cpu', bucket: at('2026-12-01T10:00:00Z'), sum: 1, count: 2, max: 0.7 },
        { metric: 'cpu', bucket: at('2026-12-01T10:01:00Z'), sum: 2, count: 2, max: 0.9 },
        { metric: 'cpu', bucket: at('2026-12-01T10:05:00Z'), sum: 4, count: 4, max: 0.3 },
        { metric: 'netOut', bucket: at('2026-12-01T10:04:00Z'), sum: 600, count: 1, max: 600 },
      ],
      300,
    );
    expect(merged).toEqual([
      { metric: 'cpu', bucket: at('2026-12-01T10:00:00Z'), sum: 3, count: 4, max: 0.9 },
      { metric: 'netOut', bucket: at('2026-12-01T10:00:00Z'), sum: 600, count: 1, max: 600 },
      { metric: 'cpu', bucket: at('2026-12-01T10:05:00Z'), sum: 4, count: 4, max: 0.3 },
    ]);
  });

  it('leaves rollups as they are when the step is their resolution', () => {
    const rollups = [{ metric: 'memory', bucket: at('2026-12-01T10:00:00Z'), sum: 8, count: 2, max: 5 }];
    expect(mergeRollups(rollups, 60)).toEqual(rollups);
  });
});
