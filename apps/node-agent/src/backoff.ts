export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  /** Each delay is the previous one times this, up to `maxMs`. Default 2. */
  readonly factor?: number;
  /** Each delay is moved at random by up to this share of itself, either way. Default 0.2. */
  readonly jitter?: number;
}

/** Exponential backoff with jitter, so that a fleet restarted at once does not retry in step. */
export class Backoff {
  private attempt = 0;

  constructor(
    private readonly options: BackoffOptions,
    private readonly random: () => number = Math.random,
  ) {}

  /** The delay before the next attempt. */
  next(): number {
    const { initialMs, maxMs, factor = 2, jitter = 0.2 } = this.options;
    const base = Math.min(maxMs, initialMs * factor ** this.attempt);
    if (base < maxMs) this.attempt++;
    return Math.round(base * (1 - jitter + 2 * jitter * this.random()));
  }

  reset(): void {
    this.attempt = 0;
  }
}
