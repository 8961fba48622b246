export interface Backoff {
  /** Delay before the first retry or poll. */
  minMs: number;
  /** Ceiling for any single delay. */
  maxMs: number;
  /** Growth per attempt; 2 doubles. */
  factor?: number;
  /**
   * Fraction of each delay that is randomised (0 = exact delays, 1 = anywhere between 0 and the delay),
   * so that many clients retrying the same outage do not arrive in step.
   */
  jitter?: number;
}

/** The delay before attempt `attempt` (0-based) of an exponential backoff. */
export function backoffDelay(attempt: number, backoff: Backoff, random: () => number = Math.random): number {
  const factor = backoff.factor ?? 2;
  const jitter = Math.min(Math.max(backoff.jitter ?? 0, 0), 1);
  const exact = Math.min(backoff.maxMs, backoff.minMs * factor ** Math.max(attempt, 0));
  return Math.round(exact * (1 - jitter * random()));
}
