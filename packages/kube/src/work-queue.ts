import { Backoff, type BackoffOptions } from '@noderings/retry';
import type { HistogramSnapshot } from './histogram.js';
import { Histogram } from './histogram.js';
import { Fifo } from './fifo.js';
import type { ReconcileResult } from './reconciler.js';
import { TerminalError } from './reconciler.js';
import type { TokenBucketOptions } from './token-bucket.js';
import { TokenBucket } from './token-bucket.js';

export type ProcessKey = (key: string, signal: AbortSignal) => Promise<ReconcileResult>;

export interface WorkQueueOptions {
  /** Keys processed at once (never the same key twice). Default 1. */
  workers?: number;
  /** Per-key retry delays after errors. Default 5 ms doubling to 5 minutes, 20 % jitter. */
  backoff?: BackoffOptions;
  /** A global limit on how fast reconciles start. Default 10/s with bursts of 100. */
  rateLimit?: TokenBucketOptions;
  /** Called for an error that is retried. */
  onError?: (key: string, error: unknown, failures: number) => void;
  /** Called for a TerminalError; the key is not retried. */
  onTerminalError?: (key: string, error: TerminalError) => void | Promise<void>;
  random?: () => number;
  now?: () => number;
}

export interface WorkQueueMetrics {
  /** Keys waiting to be processed. */
  depth: number;
  /** Keys being processed now. */
  inFlight: number;
  /** Keys waiting for a delayed add (backoff or requeueAfter). */
  waiting: number;
  /** Adds that enqueued a key (merged duplicates not counted). */
  adds: number;
  /** Adds merged into a key already queued or in flight. */
  merged: number;
  /** Reconciles that failed and were scheduled again with backoff. */
  retries: number;
  successes: number;
  terminalFailures: number;
  requeues: number;
  /** Reconcile durations in milliseconds. */
  durations: HistogramSnapshot;
}

export interface ShutdownResult {
  /** Keys whose reconcile was still running at the deadline; their signals were aborted. */
  abandoned: string[];
}

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 5, maxMs: 300_000, jitter: 0.2 };
const DEFAULT_RATE_LIMIT: TokenBucketOptions = { ratePerSecond: 10, burst: 100 };

/**
 * A keyed work queue with controller-runtime's guarantees: a key added while queued is merged; a key
 * added while it is being processed runs once more afterwards; the same key never runs twice at once.
 */
export class WorkQueue {
  private readonly queue = new Fifo<string>();
  private readonly queued = new Set<string>();
  private readonly processing = new Map<string, AbortController>();
  /** Keys added while processing: they go back on the queue when processing ends. */
  private readonly dirty = new Set<string>();
  private readonly delayed = new Map<string, { at: number; timer: NodeJS.Timeout }>();
  private readonly failures = new Map<string, number>();
  private readonly idleWorkers: ((key: string | undefined) => void)[] = [];
  private readonly workerLoops: Promise<void>[] = [];
  private readonly backoff: Backoff;
  private readonly bucket: TokenBucket;
  private readonly durations = new Histogram();
  private readonly stopSignal = new AbortController();
  private readonly now: () => number;
  private counters = { adds: 0, merged: 0, retries: 0, successes: 0, terminalFailures: 0, requeues: 0 };
  private started = false;
  private shuttingDown = false;

  constructor(
    private readonly process: ProcessKey,
    private readonly options: WorkQueueOptions = {},
  ) {
    const workers = options.workers ?? 1;
    if (!Number.isInteger(workers) || workers < 1) throw new RangeError('workers must be a positive integer');
    this.now = options.now ?? Date.now;
    this.backoff = new Backoff(options.backoff ?? DEFAULT_BACKOFF, options.random);
    this.bucket = new TokenBucket(options.rateLimit ?? DEFAULT_RATE_LIMIT, this.now);
  }

  /** Starts the workers. Keys added before this wait in the queue. */
  start(): void {
    if (this.started) return;
    this.started = true;
    for (let i = 0; i < (this.options.workers ?? 1); i++) this.workerLoops.push(this.runWorker());
  }

  add(key: string): void {
    if (this.shuttingDown) return;
    if (this.processing.has(key)) {
      this.counters.merged += 1;
      this.dirty.add(key);
      return;
    }
    if (this.queued.has(key)) {
      this.counters.merged += 1;
      return;
    }
    this.counters.adds += 1;
    const idle = this.idleWorkers.shift();
    if (idle !== undefined) {
      this.processing.set(key, new AbortController());
      idle(key);
      return;
    }
    this.queued.add(key);
    this.queue.push(key);
  }

  /** Adds `key` after `ms`. Of several pending delayed adds of one key, the earliest wins. */
  addAfter(key: string, ms: number): void {
    if (this.shuttingDown) return;
    if (ms <= 0) {
      this.add(key);
      return;
    }
    const at = this.now() + ms;
    const pending = this.delayed.get(key);
    if (pending !== undefined && pending.at <= at) return;
    if (pending !== undefined) clearTimeout(pending.timer);
    const timer = setTimeout(() => {
      this.delayed.delete(key);
      this.add(key);
    }, ms);
    this.delayed.set(key, { at, timer });
  }

  /** How many times in a row `key` has failed. */
  failureCount(key: string): number {
    return this.failures.get(key) ?? 0;
  }

  metrics(): WorkQueueMetrics {
    return {
      depth: this.queue.length,
      inFlight: this.processing.size,
      waiting: this.delayed.size,
      ...this.counters,
      durations: this.durations.snapshot(),
    };
  }

  /**
   * Stops accepting keys and drops the queued ones (a level-based system relists on the next start),
   * lets reconciles in flight finish until `deadlineMs`, then aborts their signals and returns without
   * waiting for them further; their outcomes are ignored.
   */
  async shutdown(deadlineMs = 30_000): Promise<ShutdownResult> {
    this.shuttingDown = true;
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
    this.queue.clear();
    this.queued.clear();
    this.dirty.clear();
    this.stopSignal.abort();
    for (const idle of this.idleWorkers.splice(0)) idle(undefined);
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<'deadline'>((resolve) => {
      timer = setTimeout(() => {
        resolve('deadline');
      }, deadlineMs);
    });
    const outcome = await Promise.race([
      Promise.all(this.workerLoops).then(() => 'finished' as const),
      deadline,
    ]);
    clearTimeout(timer);
    if (outcome === 'finished') return { abandoned: [] };
    const abandoned = [...this.processing.keys()];
    for (const controller of this.processing.values()) controller.abort(new Error('Work queue shut down'));
    return { abandoned };
  }

  private async runWorker(): Promise<void> {
    for (;;) {
      const key = await this.next();
      if (key === undefined) return;
      await this.bucket.take(this.stopSignal.signal);
      const controller = this.processing.get(key);
      if (this.shuttingDown || controller === undefined) {
        this.processing.delete(key);
        continue;
      }
      await this.processOne(key, controller);
    }
  }

  /** The next key, marked as processing; `undefined` once shutting down. */
  private next(): Promise<string | undefined> {
    if (this.shuttingDown) return Promise.resolve(undefined);
    const key = this.queue.shift();
    if (key !== undefined) {
      this.queued.delete(key);
      this.processing.set(key, new AbortController());
      return Promise.resolve(key);
    }
    return new Promise((resolve) => this.idleWorkers.push(resolve));
  }

  private async processOne(key: string, controller: AbortController): Promise<void> {
    const startedAt = this.now();
    let outcome: { result: ReconcileResult } | { error: unknown };
    try {
      outcome = { result: await this.process(key, controller.signal) };
    } catch (e: unknown) {
      outcome = { error: e };
    }
    this.durations.observe(this.now() - startedAt);
    // Abandoned at shutdown: nobody is listening for this outcome any more.
    if (this.processing.get(key) !== controller || this.shuttingDown) {
      this.processing.delete(key);
      return;
    }
    this.processing.delete(key);
    await this.settle(key, outcome);
    if (this.dirty.delete(key)) this.add(key);
  }

  private async settle(
    key: string,
    outcome: { result: ReconcileResult } | { error: unknown },
  ): Promise<void> {
    if ('result' in outcome) {
      this.failures.delete(key);
      if ('requeueAfter' in outcome.result) {
        this.counters.requeues += 1;
        this.addAfter(key, outcome.result.requeueAfter);
      } else {
        this.counters.successes += 1;
      }
      return;
    }
    const { error } = outcome;
    if (error instanceof TerminalError) {
      this.failures.delete(key);
      this.counters.terminalFailures += 1;
      try {
        await this.options.onTerminalError?.(key, error);
      } catch (e: unknown) {
        // Recording failed, so the error is not visible anywhere yet: retry the key instead.
        this.retry(key, e);
      }
      return;
    }
    this.retry(key, error);
  }

  private retry(key: string, error: unknown): void {
    const failures = this.failureCount(key) + 1;
    this.failures.set(key, failures);
    this.counters.retries += 1;
    this.options.onError?.(key, error, failures);
    this.addAfter(key, this.backoff.delayMs(failures));
  }
}
