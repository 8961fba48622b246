/** Polls `check` until it stops throwing, or rethrows its last error after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e: unknown) {
      if (Date.now() > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}
