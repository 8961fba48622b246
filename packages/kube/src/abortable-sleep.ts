/**
 * Whether `signal` has aborted. A function, because TypeScript keeps `signal.aborted` narrowed across
 * awaits, where it may well have changed.
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

/** Resolves after `ms`, or early (without error) when `signal` aborts: callers re-check the signal. */
export function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
