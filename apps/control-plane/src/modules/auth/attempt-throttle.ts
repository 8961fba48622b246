/**
 * How attempts of one kind (sign-ins of an account from an address, registrations from an address, …)
 * are admitted. Every admitted attempt is counted when it is admitted, before the work it guards (a
 * password check) is done, so that parallel attempts cannot all pass one check: the repository runs
 * `admitAttempt` under the row's lock and stores what it returns.
 */
export type ThrottleRule =
  /**
   * The first `freeAttempts` pass at once; after attempt `freeAttempts + n` (n ≥ 0) the next waits
   * `baseDelayMs × 2^n`, at most `maxDelayMs`. The count is forgotten `forgetAfterMs` after the last
   * admitted attempt (or at once when the guarded work succeeds, as the caller decides).
   */
  | {
      readonly kind: 'backoff';
      readonly freeAttempts: number;
      readonly baseDelayMs: number;
      readonly maxDelayMs: number;
      readonly forgetAfterMs: number;
    }
  /** At most `limit` attempts in a window of `windowMs` starting at the window's first attempt. */
  | { readonly kind: 'window'; readonly limit: number; readonly windowMs: number };

/** What is stored per throttled key; a key never seen is `EMPTY_THROTTLE_STATE` at any time. */
export interface ThrottleState {
  readonly attempts: number;
  readonly windowStartedAt: Date;
  readonly lastAttemptAt: Date;
  readonly nextAttemptAt: Date;
}

export type ThrottleDecision =
  | { readonly admitted: true; readonly state: ThrottleState }
  | { readonly admitted: false; readonly retryAfterMs: number };

/** The state of a key that has seen no attempt. */
export function emptyThrottleState(now: Date): ThrottleState {
  return { attempts: 0, windowStartedAt: now, lastAttemptAt: now, nextAttemptAt: now };
}

export function admitAttempt(state: ThrottleState, rule: ThrottleRule, now: Date): ThrottleDecision {
  const t = now.getTime();
  if (rule.kind === 'window') {
    const fresh = t - state.windowStartedAt.getTime() >= rule.windowMs;
    const attempts = fresh ? 0 : state.attempts;
    const windowStartedAt = fresh ? now : state.windowStartedAt;
    if (attempts >= rule.limit)
      return { admitted: false, retryAfterMs: windowStartedAt.getTime() + rule.windowMs - t };
    return {
      admitted: true,
      state: { attempts: attempts + 1, windowStartedAt, lastAttemptAt: now, nextAttemptAt: now },
    };
  }
  const forgotten = state.attempts > 0 && t - state.lastAttemptAt.getTime() >= rule.forgetAfterMs;
  if (!forgotten && state.nextAttemptAt.getTime() > t)
    return { admitted: false, retryAfterMs: state.nextAttemptAt.getTime() - t };
  const attempts = (forgotten ? 0 : state.attempts) + 1;
  const beyond = attempts - rule.freeAttempts;
  const delayMs = beyond < 0 ? 0 : Math.min(rule.maxDelayMs, rule.baseDelayMs * 2 ** beyond);
  return {
    admitted: true,
    state: {
      attempts,
      windowStartedAt: forgotten || state.attempts === 0 ? now : state.windowStartedAt,
      lastAttemptAt: now,
      nextAttemptAt: new Date(t + delayMs),
    },
  };
}
