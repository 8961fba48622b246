export interface BackoffOptions {
  /** Delay after the first failure. */
  baseMs: number;
  /** Ceiling of any delay. */
  maxMs: number;
  /** Growth per further failure; 2 doubles. */
  factor?: number;
  /**
   * Fraction of each delay that is randomised downwards (0 = exact, 0.5 = between half and all of it),
   * so that many keys failing on the same outage do not retry in step.
   */
  jitter?: number;
}

/** Exponential backoff with jitter: the delay before retrying after `failures` consecutive failures. */
export class Backoff {
  private readonly factor: number;
  private readonly jitter: number;

  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {
    if (!(options.baseMs > 0) || !(options.maxMs >= options.baseMs)) {
      throw new RangeError('Backoff needs 0 < baseMs <= maxMs');
    }
    this.factor = options.factor ?? 2;
    this.jitter = options.jitter ?? 0.2;
    if (this.factor < 1) throw new RangeError('Backoff factor must be at least 1');
    if (this.jitter < 0 || this.jitter > 1) throw new RangeError('Backoff jitter must be between 0 and 1');
  }

  /** The un-jittered delay: base × factor^(failures−1), capped at max. */
  ceilingMs(failures: number): number {
    const exponent = Math.max(failures - 1, 0);
    return Math.min(this.options.maxMs, this.options.baseMs * this.factor ** exponent);
  }

  delayMs(failures: number): number {
    const ceiling = this.ceilingMs(failures);
    return Math.round(ceiling * (1 - this.jitter * this.random()));
  }
}
