import { sleep } from '@noderings/retry';

/**
 * Runs `work` at `start + k × interval` until the signal aborts: one run at a time, and a run that
 * overruns skips the slots it missed instead of running them back to back, so lateness never adds up.
 * `work` must not throw.
 */
export async function runEvery(
  intervalMs: number,
  signal: AbortSignal,
  work: () => Promise<void>,
  now: () => number = Date.now,
): Promise<void> {
  const startMs = now();
  while (!signal.aborted) {
    await work();
    const nextSlot = Math.floor((now() - startMs) / intervalMs) + 1;
    await sleep(startMs + nextSlot * intervalMs - now(), signal);
  }
}
