import type { FieldSet, KubeObject, ManagedFieldsEntry } from './kube-object.js';
import { isRecord, jsonEqual } from './json-value.js';

/** A leaf path of an object, e.g. `['spec', 'replicas']`. Lists are leaves: kube-sim treats them as atomic. */
export type FieldPath = string[];

/** Metadata fields that clients own; the rest of `metadata` belongs to the server. */
const OWNABLE_METADATA = new Set(['labels', 'annotations', 'finalizers', 'ownerReferences']);

/** Which part of an object a write may own: the main endpoint excludes status when `/status` exists. */
export type FieldScope = 'all' | 'no-status' | 'status-only';

/** The leaf paths a client sets in `object`, within `scope`. */
export function leafPaths(object: KubeObject, scope: FieldScope): FieldPath[] {
  const paths: FieldPath[] = [];
  for (const [key, value] of Object.entries(object)) {
    if (key === 'apiVersion' || key === 'kind' || value === undefined) continue;
    if (scope === 'status-only' ? key !== 'status' : scope === 'no-status' && key === 'status') continue;
    if (key === 'metadata') {
      if (scope === 'status-only' || !isRecord(value)) continue;
      for (const [mk, mv] of Object.entries(value)) {
        if (OWNABLE_METADATA.has(mk)) collect(mv, ['metadata', mk], paths);
      }
      continue;
    }
    collect(value, [key], paths);
  }
  return paths;
}

function collect(value: unknown, at: FieldPath, into: FieldPath[]): void {
  if (isRecord(value) && Object.keys(value).length > 0) {
    for (const [k, v] of Object.entries(value)) collect(v, [...at, k], into);
  } else {
    into.push(at);
  }
}

export function valueAt(object: unknown, path: FieldPath): unknown {
  let current = object;
  for (const key of path) {
    if (!isRecord(current)) return undefined;
    current = current[key];
  }
  return current;
}

export interface FieldChanges {
  /** Paths `after` sets to a new value. */
  set: FieldPath[];
  /** Paths `before` had and `after` lacks. */
  removed: FieldPath[];
}

export function changedPaths(
  before: KubeObject | undefined,
  after: KubeObject,
  scope: FieldScope,
): FieldChanges {
  const set = leafPaths(after, scope).filter((p) => !jsonEqual(valueAt(before, p), valueAt(after, p)));
  const removed = before ? leafPaths(before, scope).filter((p) => valueAt(after, p) === undefined) : [];
  return { set, removed };
}

function toFieldSet(paths: readonly FieldPath[]): FieldSet {
  const set: FieldSet = {};
  for (const path of paths) {
    let node = set;
    for (const key of path) {
      const fk = `f:${key}`;
      node[fk] ??= {};
      node = node[fk];
    }
  }
  return set;
}

export function fromFieldSet(set: FieldSet, prefix: FieldPath = []): FieldPath[] {
  const paths: FieldPath[] = [];
  for (const [fk, child] of Object.entries(set)) {
    if (!fk.startsWith('f:')) continue;
    const path = [...prefix, fk.slice(2)];
    if (Object.keys(child).length === 0) paths.push(path);
    else paths.push(...fromFieldSet(child, path));
  }
  return paths;
}

export function pathKey(path: FieldPath): string {
  return path.map((p) => `.${p}`).join('');
}

/** True when `a` and `b` overlap: one is the other or lies inside it. */
export function pathsOverlap(a: FieldPath, b: FieldPath): boolean {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Removes from every entry the paths in `taken`; entries left empty are dropped. */
export function withoutPaths(
  entries: readonly ManagedFieldsEntry[],
  taken: readonly FieldPath[],
): ManagedFieldsEntry[] {
  if (taken.length === 0) return [...entries];
  return entries
    .map((e) => {
      const kept = fromFieldSet(e.fieldsV1).filter((p) => !taken.some((t) => pathsOverlap(p, t)));
      return { ...e, fieldsV1: toFieldSet(kept) };
    })
    .filter((e) => Object.keys(e.fieldsV1).length > 0);
}

export interface ManagerIdentity {
  manager: string;
  operation: 'Apply' | 'Update';
  apiVersion: string;
  subresource?: string;
}

export function sameManager(e: ManagedFieldsEntry, id: ManagerIdentity): boolean {
  return (
    e.manager === id.manager &&
    e.operation === id.operation &&
    (e.subresource ?? '') === (id.subresource ?? '')
  );
}

/**
 * The managed fields after an update (a create, PUT or non-apply patch) by `id`: it takes ownership
 * of the paths it set, which every other manager loses; removed paths belong to nobody.
 */
export function recordUpdate(
  entries: readonly ManagedFieldsEntry[],
  id: ManagerIdentity,
  changes: FieldChanges,
  now: string,
): ManagedFieldsEntry[] {
  const touched = [...changes.set, ...changes.removed];
  if (touched.length === 0) return [...entries];
  const others = withoutPaths(
    entries.filter((e) => !sameManager(e, id)),
    touched,
  );
  const own = entries.find((e) => sameManager(e, id));
  const kept = own ? fromFieldSet(own.fieldsV1).filter((p) => !touched.some((c) => pathsOverlap(p, c))) : [];
  const paths = [...kept, ...changes.set];
  return paths.length ? [...others, entry(id, paths, now)] : others;
}

export function entry(id: ManagerIdentity, paths: readonly FieldPath[], now: string): ManagedFieldsEntry {
  return {
    manager: id.manager,
    operation: id.operation,
    apiVersion: id.apiVersion,
    time: now,
    fieldsType: 'FieldsV1',
    fieldsV1: toFieldSet(paths),
    ...(id.subresource ? { subresource: id.subresource } : {}),
  };
}
