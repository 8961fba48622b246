import { isRecord } from './json-value.js';

/** RFC 7386 JSON merge patch: objects merge key by key, `null` removes, anything else replaces. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch)) return patch;
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  for (const [key, value] of Object.entries(patch)) {
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- JSON objects are keyed by their data
    if (value === null) delete result[key];
    else result[key] = mergePatch(result[key], value);
  }
  return result;
}
