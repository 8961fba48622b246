/**
 * Waits `ms`, or less when `signal` aborts; true when the whole time passed. Never rejects. On the global
 * timers, so a test's fake clock drives it.
 */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Whether the signal has aborted, read through a call: TypeScript keeps `signal.aborted` narrowed to
 * false across an `await`, which is exactly when it may have changed.
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}
