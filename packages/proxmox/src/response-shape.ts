import type { z } from 'zod';

import { MalformedResponseError } from './errors.js';
import type { RequestContext } from './errors.js';
import { isUpid } from './upid.js';

/**
 * Checks `data` against the answer's schema before it is handed out typed, so that an answer of the
 * wrong shape (a proxy's page, another API, a field of the wrong type) fails here with an error that
 * names the field, not later as a TypeError.
 */
export function expectData<T>(schema: z.ZodType<T>, data: unknown, context: RequestContext): T {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const [issue] = result.error.issues;
  const field = issue === undefined ? 'data' : fieldPath(issue.path);
  const seen = issue === undefined ? data : valueAt(data, issue.path);
  const got = seen === undefined ? '' : `, got ${excerpt(seen)}`;
  return failWith(context, `${field}: ${issue?.message ?? 'invalid'}${got}`);
}

export function expectUpid(data: unknown, context: RequestContext): string {
  if (typeof data !== 'string' || !isUpid(data)) {
    return failWith(context, `expected a task id (UPID) as data, got ${excerpt(data)}`);
  }
  return data;
}

/** Calls that finish quickly may answer `null` instead of a task id (config POST, older resize). */
export function expectUpidOrNull(data: unknown, context: RequestContext): string | null {
  return data === null ? null : expectUpid(data, context);
}

export function expectNull(data: unknown, context: RequestContext): void {
  if (data !== null) failWith(context, `expected null as data, got ${excerpt(data)}`);
}

/** `data.members[2].content`, as a reader of the answer would write it. */
function fieldPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>(
    (text, key) => (typeof key === 'number' ? `${text}[${key}]` : `${text}.${String(key)}`),
    'data',
  );
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let value = data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function excerpt(data: unknown): string {
  const seen = data === undefined ? 'nothing' : JSON.stringify(data);
  return seen.length > 120 ? `${seen.slice(0, 120)}…` : seen;
}

function failWith(context: RequestContext, pveMessage: string): never {
  throw new MalformedResponseError({ ...context, pveMessage });
}
