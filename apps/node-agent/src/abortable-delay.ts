import { setTimeout as delay } from 'node:timers/promises';

/** Waits `ms`, or less when `signal` aborts; true when the whole time passed. Never rejects. */
export async function abortableDelay(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return false;
  try {
    await delay(ms, undefined, { signal });
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether the signal has aborted, read through a call: TypeScript keeps `signal.aborted` narrowed to
 * false across an `await`, which is exactly when it may have changed.
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
