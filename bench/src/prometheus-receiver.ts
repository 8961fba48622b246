import { performance } from 'node:perf_hooks';
import { decodeWriteRequest, postRemoteWrite } from '@noderings/remote-write';
import { startPrometheus } from '@noderings/remote-write/prometheus-process';

export interface ReceiverBenchOptions {
  /** Requests in flight at once (within one scrape). */
  readonly concurrency: number;
}

export interface ReceiverMeasurement {
  /** Samples Prometheus accepted per second of sending. */
  readonly samplesPerSecond: number;
  readonly seconds: number;
  readonly requests: number;
  /** Requests not answered 2xx. */
  readonly errors: number;
  /** Prometheus' answer to the first of them, to tell why. */
  readonly firstError: string | undefined;
}

/** Requests that may go in any order: they hold samples of the same scrape. */
interface Scrape {
  readonly bodies: Uint8Array[];
  readonly samples: number[];
}

/**
 * Consecutive requests whose first sample has the same timestamp. Prometheus refuses a sample older than
 * its series' newest, so one scrape must be in before the next is sent.
 */
function scrapesOf(requests: readonly Uint8Array[]): Scrape[] {
  const scrapes: Scrape[] = [];
  let current: Scrape | undefined;
  let currentTimestamp: number | undefined;
  for (const body of requests) {
    const { timeseries } = decodeWriteRequest(body);
    const timestamp = timeseries[0]?.samples[0]?.timestampMs;
    if (current === undefined || (timestamp !== undefined && timestamp !== currentTimestamp)) {
      current = { bodies: [], samples: [] };
      currentTimestamp = timestamp;
      scrapes.push(current);
    }
    current.bodies.push(body);
    current.samples.push(timeseries.reduce((n, series) => n + series.samples.length, 0));
  }
  return scrapes;
}

/**
 * Sends `requests` to a remote-write endpoint over HTTP, `concurrency` at a time, scrape after scrape (a
 * scrape's requests in any order, the next scrape once they are in), and times it. Requests are decoded
 * before the clock starts, to find the scrapes.
 */
export async function measureRemoteWrite(
  endpoint: string,
  requests: readonly Uint8Array[],
  options: ReceiverBenchOptions & { readonly headers?: Readonly<Record<string, string>> },
): Promise<ReceiverMeasurement> {
  if (!(Number.isInteger(options.concurrency) && options.concurrency > 0))
    throw new RangeError('measureRemoteWrite: concurrency must be a positive integer');
  const scrapes = scrapesOf(requests);
  let accepted = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  for (const scrape of scrapes) {
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let i = next++; i < scrape.bodies.length; i = next++) {
        const response = await postRemoteWrite(
          endpoint,
          scrape.bodies[i] ?? new Uint8Array(),
          options.headers,
        );
        if (response.ok) {
          accepted += scrape.samples[i] ?? 0;
        } else {
          errors++;
          firstError ??= `${response.status} ${response.message}`;
        }
      }
    };
    await Promise.all(Array.from({ length: options.concurrency }, worker));
  }
  const seconds = (performance.now() - started) / 1000;
  return { samplesPerSecond: accepted / seconds, seconds, requests: requests.length, errors, firstError };
}

/**
 * The ceiling to compare our ingest with: a real Prometheus (`--web.enable-remote-write-receiver`, fresh
 * TSDB) receiving the same requests the same way; started before and stopped after the timed part.
 */
export async function measurePrometheusReceiver(
  requests: readonly Uint8Array[],
  options: ReceiverBenchOptions,
): Promise<ReceiverMeasurement> {
  const prometheus = await startPrometheus({
    config: 'global:\n  scrape_interval: 1m\n',
    args: ['--web.enable-remote-write-receiver'],
  });
  try {
    return await measureRemoteWrite(`${prometheus.url}/api/v1/write`, requests, options);
  } finally {
    await prometheus.stop();
  }
}
