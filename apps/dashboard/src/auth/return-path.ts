/**
 * Where a visitor sent to sign in wanted to go (the `from` the sign-in redirect carries); only a path of
 * this site, never another origin, else the start page.
 */
export function returnPath(state: unknown): string {
  const from = (state as { from?: unknown } | null)?.from;
  return typeof from === 'string' && from.startsWith('/') && !from.startsWith('//') ? from : '/';
}
