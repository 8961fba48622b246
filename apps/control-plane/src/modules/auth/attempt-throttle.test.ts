import { describe, expect, it } from 'vitest';

import {
  admitAttempt,
  emptyThrottleState,
  type ThrottleRule,
  type ThrottleState,
} from './attempt-throttle.js';

const at = (seconds: number) => new Date(Date.UTC(2026, 11, 1) + seconds * 1000);

/** Runs attempts at the given times; returns each decision's wait in seconds (0 when admitted). */
function run(rule: ThrottleRule, times: readonly number[]): number[] {
  let state: ThrottleState = emptyThrottleState(at(times[0] ?? 0));
  return times.map((time) => {
    const decision = admitAttempt(state, rule, at(time));
    if (!decision.admitted) return decision.retryAfterMs / 1000;
    state = decision.state;
    return 0;
  });
}

describe('attempt throttles', () => {
  const backoff: ThrottleRule = {
    kind: 'backoff',
    freeAttempts: 3,
    baseDelayMs: 1000,
    maxDelayMs: 8000,
    forgetAfterMs: 60_000,
  };

  it('admits the free attempts at once, then waits that double up to the cap', () => {
    expect(run(backoff, [0, 0, 0, 0])).toEqual([0, 0, 0, 1]);
    expect(run(backoff, [0, 0, 0, 1, 1, 3, 3, 7, 15, 23])).toEqual([0, 0, 0, 0, 2, 0, 4, 0, 0, 0]);
  });

  it('refuses without counting, and forgets a quiet key', () => {
    // Refusals at 0.5 s do not push the wait further.
    expect(run(backoff, [0, 0, 0, 0.5, 0.5, 1, 1])).toEqual([0, 0, 0, 0.5, 0.5, 0, 2]);
    expect(run(backoff, [0, 0, 0, 0, 61, 61, 61, 61])).toEqual([0, 0, 0, 1, 0, 0, 0, 1]);
  });

  it('counts a fixed window from its first attempt', () => {
    const window: ThrottleRule = { kind: 'window', limit: 2, windowMs: 10_000 };
    expect(run(window, [0, 4, 6, 9, 10, 10, 10])).toEqual([0, 0, 4, 1, 0, 0, 10]);
  });
});
