import { MalformedResponseError } from './errors.js';
import type { RequestContext } from './errors.js';
import { isUpid } from './upid.js';

/**
 * Checks on the top level of `data` before it is handed out typed, so that an answer of the wrong
 * shape (a proxy's page, another API) fails here with a clear error, not later as a TypeError.
 * Fields inside objects are trusted to follow Proxmox's documented shapes.
 */
// The caller names the documented shape; this checks only that it is an object at all.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function expectObject<T extends object>(data: unknown, context: RequestContext): T {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw wrongShape(context, 'an object', data);
  }
  return data as T;
}

export function expectArray<T>(data: unknown, context: RequestContext): T[] {
  if (!Array.isArray(data)) throw wrongShape(context, 'a list', data);
  return data as T[];
}

export function expectUpid(data: unknown, context: RequestContext): string {
  if (typeof data !== 'string' || !isUpid(data)) throw wrongShape(context, 'a task id (UPID)', data);
  return data;
}

/** Calls that finish quickly may answer `null` instead of a task id (config POST, older resize). */
export function expectUpidOrNull(data: unknown, context: RequestContext): string | null {
  return data === null ? null : expectUpid(data, context);
}

export function expectNull(data: unknown, context: RequestContext): void {
  if (data !== null) throw wrongShape(context, 'null', data);
}

function wrongShape(context: RequestContext, expected: string, data: unknown): MalformedResponseError {
  const seen = JSON.stringify(data);
  const excerpt = seen.length > 120 ? `${seen.slice(0, 120)}…` : seen;
  return new MalformedResponseError({
    ...context,
    pveMessage: `expected ${expected} as data, got ${excerpt}`,
  });
}
