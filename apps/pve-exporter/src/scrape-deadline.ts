import { ExporterError } from './exporter-error.js';

/** Time left for writing the answer after the collection gave up, so that Prometheus still receives it. */
const ANSWER_MARGIN_MS = 500;

/**
 * How long a scrape may collect: the timeout Prometheus announces in `X-Prometheus-Scrape-Timeout-Seconds`
 * less a margin (never less than half of it), or `defaultMs` without the header.
 */
export function scrapeDeadlineMs(header: string | undefined, defaultMs: number): number {
  const seconds = header === undefined ? NaN : Number(header);
  if (header === undefined || header.trim() === '' || !Number.isFinite(seconds) || seconds <= 0)
    return defaultMs;
  const ms = seconds * 1000;
  return Math.max(ms - ANSWER_MARGIN_MS, ms / 2);
}

/**
 * Runs `work` with a signal that aborts after `ms` with a SCRAPE_TIMEOUT error (or when `outer` aborts),
 * and settles by then even if `work` does not heed its signal.
 */
export async function withDeadline<T>(
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new ExporterError('SCRAPE_TIMEOUT', `scrape deadline of ${formatSeconds(ms)} exceeded`));
  }, ms);
  const signal = outer === undefined ? controller.signal : AbortSignal.any([outer, controller.signal]);
  const aborted = new Promise<never>((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason as Error);
    signal.addEventListener(
      'abort',
      () => {
        reject(signal.reason as Error);
      },
      { once: true },
    );
  });
  const running = work(signal);
  // Whichever loses the race must not surface later as an unhandled rejection.
  aborted.catch(() => undefined);
  running.catch(() => undefined);
  try {
    return await Promise.race([running, aborted]);
  } finally {
    clearTimeout(timer);
  }
}

function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}
