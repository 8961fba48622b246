/**
 * Waits `ms`, or less when `signal` aborts; true when the whole time passed. Never rejects: callers
 * decide what an abort means (stop a loop, or throw `signal.reason`). On the global timers, so a test's
 * fake clock drives it.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<boolean> {
  if (signal?.aborted === true) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(true);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Whether the signal has aborted, read through a call: TypeScript keeps `signal.aborted` narrowed to
 * false across an `await`, which is exactly when it may have changed.
 */
export function isAborted(signal: AbortSignal): boolean {
  return signal.aborted;
}

/** The error an aborted operation rejects with: the signal's own reason, as fetch does. */
export function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  if (reason instanceof Error) return reason;
  return new DOMException('This operation was aborted', 'AbortError');
}
