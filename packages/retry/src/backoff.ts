export interface BackoffOptions {
  /** The delay after the first failure. */
  readonly baseMs: number;
  /** The ceiling of any delay. */
  readonly maxMs: number;
  /** Growth per further failure; 2 (the default) doubles. */
  readonly factor?: number;
  /**
   * The share of each delay taken off at random (0 = exact; 0.2, the default, = between 80 % and all of
   * it), so that many clients failing on the same outage do not retry in step. Never more than the
   * delay: a caller's ceiling holds.
   */
  readonly jitter?: number;
}

/**
 * Exponential backoff with jitter: the delay before retrying after `failures` consecutive failures,
 * counted from 1. Stateless; `RetrySchedule` counts the failures of one loop.
 */
export class Backoff {
  readonly #baseMs: number;
  readonly #maxMs: number;
  readonly #factor: number;
  readonly #jitter: number;

  constructor(
    options: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {
    const { baseMs, maxMs, factor = 2, jitter = 0.2 } = options;
    if (!(baseMs > 0) || !(maxMs >= baseMs) || !Number.isFinite(maxMs)) {
      throw new RangeError(`Backoff needs 0 < baseMs <= maxMs, both finite (got ${baseMs}, ${maxMs})`);
    }
    if (!(factor >= 1) || !Number.isFinite(factor))
      throw new RangeError(`Backoff factor must be at least 1 (got ${factor})`);
    if (!(jitter >= 0 && jitter <= 1))
      throw new RangeError(`Backoff jitter must be between 0 and 1 (got ${jitter})`);
    this.#baseMs = baseMs;
    this.#maxMs = maxMs;
    this.#factor = factor;
    this.#jitter = jitter;
  }

  /** The delay without jitter: base × factor^(failures − 1), at most max; failures below 1 count as 1. */
  ceilingMs(failures: number): number {
    const exponent = Math.max(Math.floor(failures) - 1, 0);
    return Math.min(this.#maxMs, this.#baseMs * this.#factor ** exponent);
  }

  /** The delay to wait after `failures` consecutive failures: the ceiling less up to `jitter` of it. */
  delayMs(failures: number): number {
    return Math.round(this.ceilingMs(failures) * (1 - this.#jitter * this.random()));
  }
}

/** One retry loop's failures over a `Backoff`: `next()` after each failure, `reset()` after a success. */
export class RetrySchedule {
  #failures = 0;
  readonly #backoff: Backoff;

  constructor(backoff: Backoff | BackoffOptions) {
    this.#backoff = backoff instanceof Backoff ? backoff : new Backoff(backoff);
  }

  /** Counts one more failure and gives the delay before the next attempt. */
  next(): number {
    this.#failures++;
    return this.#backoff.delayMs(this.#failures);
  }

  /** How many failures in a row so far. */
  get failures(): number {
    return this.#failures;
  }

  reset(): void {
    this.#failures = 0;
  }
}
