import { encodeWriteRequest, postRemoteWrite, type TimeSeries } from '@noderings/remote-write';
import type { BaseLogger } from 'pino';

/** Where accepted series are forwarded for long retention (a Prometheus-compatible remote-write receiver). */
export interface RemoteWriteTarget {
  readonly url: string;
  /** Sent as `Authorization: Bearer …` when set. */
  readonly bearerToken?: string | undefined;
}

const MAX_SAMPLES_PER_REQUEST = 2000;
const MAX_QUEUED_SAMPLES = 500_000;
const FIRST_BACKOFF_MS = 500;
const MAX_BACKOFF_MS = 30_000;
const STOP_FLUSH_MS = 5000;

function samplesOf(series: readonly TimeSeries[]): number {
  return series.reduce((n, s) => n + s.samples.length, 0);
}

/**
 * Forwards what ingest accepted, in the order it was accepted, in requests of at most 2,000 samples (as
 * Prometheus sends them). A refusal (4xx other than 429) drops that request; 429, 5xx and network errors
 * are retried with backoff. The queue is bounded: when the store is down long enough to fill it, the
 * oldest series are dropped (and counted) so ingest never waits for the store.
 */
export class RemoteWriteForwarder {
  readonly #queue: TimeSeries[] = [];
  #queued = 0;
  #dropped = 0;
  #wake: (() => void) | undefined;
  #loop: Promise<void> | undefined;
  #stopping = false;
  #stopDeadline = 0;

  constructor(
    private readonly deps: {
      readonly target: RemoteWriteTarget;
      readonly logger: Pick<BaseLogger, 'warn' | 'error'>;
      readonly maxQueuedSamples?: number;
    },
  ) {}

  /** Samples dropped so far because the queue was full or the store refused them. */
  get dropped(): number {
    return this.#dropped;
  }

  enqueue(series: readonly TimeSeries[]): void {
    if (this.#stopping || series.length === 0) return;
    this.#queue.push(...series);
    this.#queued += samplesOf(series);
    const limit = this.deps.maxQueuedSamples ?? MAX_QUEUED_SAMPLES;
    while (this.#queued > limit && this.#queue.length > 0) {
      const oldest = this.#queue.shift();
      const count = oldest === undefined ? 0 : oldest.samples.length;
      this.#queued -= count;
      this.#dropped += count;
    }
    this.#wake?.();
  }

  start(): void {
    this.#loop ??= this.#run();
  }

  /** Sends what is queued for up to 5 seconds, then stops. */
  async stop(): Promise<void> {
    this.#stopping = true;
    this.#stopDeadline = Date.now() + STOP_FLUSH_MS;
    this.#wake?.();
    await this.#loop;
  }

  async #run(): Promise<void> {
    let backoff = FIRST_BACKOFF_MS;
    for (;;) {
      if (this.#queue.length === 0) {
        if (this.#stopping) return;
        await new Promise<void>((resolve) => (this.#wake = resolve));
        this.#wake = undefined;
        continue;
      }
      if (this.#stopping && Date.now() > this.#stopDeadline) return;
      const batch = this.#nextBatch();
      const sent = await this.#send(batch);
      if (sent) {
        this.#take(batch.length);
        backoff = FIRST_BACKOFF_MS;
        continue;
      }
      await new Promise((resolve) => setTimeout(resolve, this.#stopping ? 100 : backoff).unref());
      backoff = Math.min(MAX_BACKOFF_MS, backoff * 2);
    }
  }

  #nextBatch(): TimeSeries[] {
    const batch: TimeSeries[] = [];
    let samples = 0;
    for (const series of this.#queue) {
      if (batch.length > 0 && samples + series.samples.length > MAX_SAMPLES_PER_REQUEST) break;
      batch.push(series);
      samples += series.samples.length;
    }
    return batch;
  }

  #take(count: number): void {
    const taken = this.#queue.splice(0, count);
    this.#queued -= samplesOf(taken);
  }

  /** True when the batch is done with (stored, or refused for good). */
  async #send(batch: readonly TimeSeries[]): Promise<boolean> {
    const { target } = this.deps;
    try {
      const response = await postRemoteWrite(
        target.url,
        encodeWriteRequest({ timeseries: batch }),
        target.bearerToken === undefined ? {} : { Authorization: `Bearer ${target.bearerToken}` },
      );
      if (response.ok) return true;
      if (response.status !== 429 && response.status < 500) {
        this.#dropped += samplesOf(batch);
        this.deps.logger.error(
          { status: response.status, message: response.message.slice(0, 500) },
          'the metrics store refused forwarded samples; they are dropped',
        );
        return true;
      }
      this.deps.logger.warn({ status: response.status }, 'the metrics store is unavailable; retrying');
      return false;
    } catch (e: unknown) {
      this.deps.logger.warn({ err: e }, 'the metrics store cannot be reached; retrying');
      return false;
    }
  }
}
