import type { KubeObject } from './kube-object.js';

/** Identifies one object: `namespace` is absent for cluster-scoped kinds. */
export interface ObjectRef {
  namespace?: string;
  name: string;
}

/** `namespace/name`, or `name` for a cluster-scoped object: the key informers cache by and queues carry. */
export function objectKey(ref: ObjectRef): string {
  return ref.namespace === undefined || ref.namespace === '' ? ref.name : `${ref.namespace}/${ref.name}`;
}

export function parseObjectKey(key: string): ObjectRef {
  const slash = key.indexOf('/');
  return slash < 0 ? { name: key } : { namespace: key.slice(0, slash), name: key.slice(slash + 1) };
}

export function refOf(obj: KubeObject): ObjectRef {
  const name = obj.metadata?.name;
  if (name === undefined || name === '') throw new TypeError('The object has no metadata.name');
  const namespace = obj.metadata?.namespace;
  return namespace === undefined ? { name } : { namespace, name };
}

export function keyOf(obj: KubeObject): string {
  return objectKey(refOf(obj));
}
