import { encodeWriteRequest } from './write-request-encoder.js';
import { postRemoteWrite } from './post-remote-write.js';
import { STALE_NAN } from './stale-marker.js';
import type { Label, TimeSeries } from './types.js';

/** One sample of a scrape: its labels, `__name__` included, and its value. */
export interface ScrapedSample {
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface ScrapeSenderOptions {
  /** The receiver's `…/api/v1/write`. */
  readonly url: string | URL;
  /** Added to the protocol's headers, e.g. `Authorization: Bearer …`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Series per request. Default 2000, as Prometheus' `max_samples_per_send`. */
  readonly maxSeriesPerRequest?: number;
}

export interface ScrapeSender {
  /**
   * Writes one scrape's samples, all at `atMs`, and a staleness marker for every series the previous
   * scrape sent and this one lacks. Rejects with `RemoteWriteRefusedError` when the receiver refuses.
   */
  send(samples: readonly ScrapedSample[], atMs: number): Promise<void>;
}

/** The receiver answered a write with a status other than 2xx. */
export class RemoteWriteRefusedError extends Error {
  override readonly name = 'RemoteWriteRefusedError';

  constructor(
    readonly status: number,
    readonly receiverMessage: string,
  ) {
    super(`the receiver refused the write (${String(status)}): ${receiverMessage}`);
  }
}

const DEFAULT_MAX_SERIES_PER_REQUEST = 2000;

/**
 * What a scraper (Prometheus, Alloy) does after each scrape: sends every sample as one series and, like
 * them, a staleness marker for a series that disappeared since the scrape before, so that the receiver
 * ends it at once instead of after its lookback.
 */
export function createScrapeSender(options: ScrapeSenderOptions): ScrapeSender {
  const perRequest = options.maxSeriesPerRequest ?? DEFAULT_MAX_SERIES_PER_REQUEST;
  if (!Number.isSafeInteger(perRequest) || perRequest < 1)
    throw new RangeError(`maxSeriesPerRequest must be a positive integer, got ${String(perRequest)}`);
  let previous = new Map<string, readonly Label[]>();
  return {
    send: async (samples, atMs) => {
      const current = new Map<string, readonly Label[]>();
      const series: TimeSeries[] = [];
      for (const sample of samples) {
        const labels = Object.entries(sample.labels)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([name, value]) => ({ name, value }));
        const key = labels.map((l) => `${l.name}=${l.value}`).join('\u0000');
        current.set(key, labels);
        series.push({ labels, samples: [{ value: sample.value, timestampMs: atMs }] });
      }
      for (const [key, labels] of previous)
        if (!current.has(key)) series.push({ labels, samples: [{ value: STALE_NAN, timestampMs: atMs }] });
      for (let i = 0; i < series.length; i += perRequest) {
        const response = await postRemoteWrite(
          options.url,
          encodeWriteRequest({ timeseries: series.slice(i, i + perRequest) }),
          options.headers,
        );
        if (!response.ok) throw new RemoteWriteRefusedError(response.status, response.message);
      }
      // Only once everything is written: a failed write's series are not marked stale next time.
      previous = current;
    },
  };
}
