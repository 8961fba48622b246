import { isDeepStrictEqual } from 'node:util';
import { KubeConflictError } from './kube-api-error.js';
import type { KubeObject } from './kube-object.js';
import type { ObjectRef } from './object-key.js';
import type { ResourceClient } from './resource-client.js';

export interface StatusUpdateOptions {
  /** Conflicts tolerated before giving up with the last KubeConflictError. Default 5. */
  maxConflicts?: number;
  signal?: AbortSignal;
}

/**
 * Re-reads the object, computes its status with `desired`, and writes it through /status only if it
 * differs. On a 409 (someone wrote in between) it reads again and re-applies `desired` to the fresh
 * object, so `desired` must be a function of the object it is given.
 * Returns the object as stored afterwards.
 */
export async function updateStatus<S, T extends KubeObject & { status?: S }>(
  client: ResourceClient<T>,
  ref: ObjectRef,
  desired: (current: T) => S | Promise<S>,
  options: StatusUpdateOptions = {},
): Promise<T> {
  const maxConflicts = options.maxConflicts ?? 5;
  for (let conflicts = 0; ; conflicts++) {
    const current = await client.get(ref, options.signal);
    const status = await desired(structuredClone(current));
    if (isDeepStrictEqual(status, current.status)) return current;
    try {
      return await client.replaceStatus({ ...current, status }, { signal: options.signal });
    } catch (e: unknown) {
      if (!(e instanceof KubeConflictError) || conflicts >= maxConflicts) throw e;
    }
  }
}
