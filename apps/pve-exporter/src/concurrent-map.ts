/**
 * `fn` over `items` with at most `limit` calls in flight, results in the order of `items`. The first
 * failure rejects at once and no further call starts; an aborted `signal` stops starting calls too.
 */
export async function mapConcurrently<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  signal?: AbortSignal,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (next < items.length && !failed) {
      signal?.throwIfAborted();
      const index = next++;
      try {
        results[index] = await fn(items[index] as T);
      } catch (e: unknown) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
