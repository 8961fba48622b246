import type { KubeObject } from './kube-object.js';
import type { ResourceClient } from './resource-client.js';

export function hasFinalizer(obj: KubeObject, finalizer: string): boolean {
  return obj.metadata?.finalizers?.includes(finalizer) ?? false;
}

/** `obj` with `finalizer` added, or `undefined` when it already has it. */
export function withFinalizer<T extends KubeObject>(obj: T, finalizer: string): T | undefined {
  if (hasFinalizer(obj, finalizer)) return undefined;
  return {
    ...obj,
    metadata: { ...obj.metadata, finalizers: [...(obj.metadata?.finalizers ?? []), finalizer] },
  };
}

/** `obj` without `finalizer`, or `undefined` when it does not have it. */
export function withoutFinalizer<T extends KubeObject>(obj: T, finalizer: string): T | undefined {
  if (!hasFinalizer(obj, finalizer)) return undefined;
  const finalizers = (obj.metadata?.finalizers ?? []).filter((f) => f !== finalizer);
  return { ...obj, metadata: { ...obj.metadata, finalizers } };
}

export function isBeingDeleted(obj: KubeObject): boolean {
  return obj.metadata?.deletionTimestamp !== undefined;
}

/**
 * Adds `finalizer` with a PUT guarded by the object's resourceVersion (so another manager's finalizers
 * are never lost), writing nothing when it is already there. Returns the object as it now stands. A
 * ConflictError means the object changed: the reconcile should fail and run again.
 */
export async function ensureFinalizer<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  finalizer: string,
): Promise<T> {
  const updated = withFinalizer(obj, finalizer);
  return updated === undefined ? obj : client.replace(updated);
}

/**
 * Removes `finalizer` the same way. Call it only after the external resource is gone: once the last
 * finalizer goes, the API server deletes the object.
 */
export async function removeFinalizer<T extends KubeObject>(
  client: ResourceClient<T>,
  obj: T,
  finalizer: string,
): Promise<T> {
  const updated = withoutFinalizer(obj, finalizer);
  return updated === undefined ? obj : client.replace(updated);
}
