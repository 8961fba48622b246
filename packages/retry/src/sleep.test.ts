import { describe, expect, it, vi } from 'vitest';

import { abortError, sleep } from './sleep.js';

describe('sleep', () => {
  it('says whether the whole time passed or the signal cut it short', async () => {
    vi.useFakeTimers();
    try {
      const full = sleep(1_000);
      await vi.advanceTimersByTimeAsync(1_000);
      expect(await full).toBe(true);

      const controller = new AbortController();
      const cut = sleep(60_000, controller.signal);
      controller.abort();
      expect(await cut).toBe(false);
      expect(vi.getTimerCount()).toBe(0);
      expect(await sleep(1_000, controller.signal)).toBe(false);
    } finally {
      vi.useRealTimers();
    }
  });

  it('gives the signal’s own reason as the abort error, or an AbortError', () => {
    const reason = new Error('shutting down');
    expect(abortError(AbortSignal.abort(reason))).toBe(reason);
    expect(abortError(AbortSignal.abort('text')).name).toBe('AbortError');
  });
});
