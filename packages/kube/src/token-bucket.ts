import { sleep } from '@noderings/retry';

export interface TokenBucketOptions {
  /** Tokens added per second. */
  ratePerSecond: number;
  /** Most tokens the bucket holds: how many takes may happen at once after a quiet spell. */
  burst: number;
}

/**
 * A token bucket. Waiters reserve a token up front (the level may go negative), so they are served in
 * arrival order without a wait list.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    private readonly options: TokenBucketOptions,
    private readonly now: () => number = Date.now,
  ) {
    if (!(options.ratePerSecond > 0) || !(options.burst >= 1)) {
      throw new RangeError('TokenBucket needs ratePerSecond > 0 and burst >= 1');
    }
    this.tokens = options.burst;
    this.updatedAt = now();
  }

  /** Waits for a token. If `signal` aborts first, the reservation is returned and this resolves `false`. */
  async take(signal?: AbortSignal): Promise<boolean> {
    this.refill();
    this.tokens -= 1;
    if (this.tokens >= 0) return true;
    await sleep((-this.tokens / this.options.ratePerSecond) * 1000, signal);
    if (signal?.aborted === true) {
      this.tokens += 1;
      return false;
    }
    return true;
  }

  private refill(): void {
    const now = this.now();
    const elapsedSeconds = Math.max(now - this.updatedAt, 0) / 1000;
    this.tokens = Math.min(this.options.burst, this.tokens + elapsedSeconds * this.options.ratePerSecond);
    this.updatedAt = now;
  }
}
