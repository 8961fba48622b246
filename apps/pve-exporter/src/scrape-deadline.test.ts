import { describe, expect, test } from 'vitest';

import { ExporterError } from './exporter-error.js';
import { scrapeDeadlineMs, withDeadline } from './scrape-deadline.js';

describe('scrapeDeadlineMs', () => {
  test.each([
    [undefined, 10_000],
    ['', 10_000],
    ['abc', 10_000],
    ['0', 10_000],
    ['-3', 10_000],
    ['10', 9_500],
    ['2.5', 2_000],
    ['0.6', 300],
  ])('header %j with a default of 10 s → %d ms', (header, ms) => {
    expect(scrapeDeadlineMs(header, 10_000)).toBe(ms);
  });
});

describe('withDeadline', () => {
  test('resolves with the work when it finishes in time', async () => {
    expect(await withDeadline(1_000, () => Promise.resolve(42))).toBe(42);
  });

  test('aborts the work with SCRAPE_TIMEOUT, and answers on time even if the work ignores its signal', async () => {
    let seen: AbortSignal | undefined;
    const started = Date.now();
    const error = await withDeadline(50, (signal) => {
      seen = signal;
      return new Promise(() => undefined);
    }).catch((e: unknown) => e);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(ExporterError);
    expect((error as ExporterError).code).toBe('SCRAPE_TIMEOUT');
    expect((error as ExporterError).message).toBe('scrape deadline of 0.05 s exceeded');
    expect(seen?.aborted).toBe(true);
  });

  test('an outer signal aborts too, with its own reason', async () => {
    const outer = new AbortController();
    const reason = new Error('closing');
    const running = withDeadline(10_000, () => new Promise(() => undefined), outer.signal);
    outer.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  test('a failure of the work is passed on', async () => {
    const failure = new Error('401');
    await expect(withDeadline(1_000, () => Promise.reject(failure))).rejects.toBe(failure);
  });
});
