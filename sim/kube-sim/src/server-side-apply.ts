import type { KubeObject, ManagedFieldsEntry } from './kube-object.js';
import { isRecord, jsonEqual } from './json-value.js';
import {
  entry,
  fromFieldSet,
  leafPaths,
  pathKey,
  pathsOverlap,
  sameManager,
  valueAt,
  withoutPaths,
  type FieldPath,
  type FieldScope,
  type ManagerIdentity,
} from './managed-fields.js';
import { StatusError, type StatusCause } from './status-error.js';

export interface ApplyRequest {
  current: KubeObject | undefined;
  applied: KubeObject;
  id: ManagerIdentity;
  force: boolean;
  scope: FieldScope;
  now: string;
}

/**
 * Server-side apply, approximated: the applied configuration's leaf fields (lists are atomic) are
 * merged into the live object; fields this manager applied before and no longer applies are removed
 * unless another manager owns them; fields another manager owns with a different value are conflicts
 * unless `force`, which takes them over.
 */
export function serverSideApply(request: ApplyRequest): KubeObject {
  const { current, applied, id, force, scope, now } = request;
  const entries = current?.metadata.managedFields ?? [];
  const appliedPaths = leafPaths(applied, scope);
  const others = entries.filter((e) => !sameManager(e, id));
  const conflicts: { path: FieldPath; manager: string }[] = [];
  for (const other of others) {
    if (other.manager === id.manager) continue;
    for (const owned of fromFieldSet(other.fieldsV1)) {
      for (const path of appliedPaths) {
        if (pathsOverlap(owned, path) && !jsonEqual(valueAt(current, path), valueAt(applied, path))) {
          conflicts.push({ path: owned.length > path.length ? owned : path, manager: other.manager });
        }
      }
    }
  }
  if (conflicts.length > 0 && !force) throw conflictError(conflicts, id.apiVersion);
  const taken = conflicts.map((c) => c.path);
  const remaining = withoutPaths(others, taken);
  const previous = entries.find((e) => sameManager(e, id));
  const result = structuredClone(current ?? { metadata: {} });
  for (const dropped of previous ? fromFieldSet(previous.fieldsV1) : []) {
    const stillApplied = appliedPaths.some((p) => pathsOverlap(p, dropped));
    const ownedElsewhere = remaining.some((e) =>
      fromFieldSet(e.fieldsV1).some((p) => pathsOverlap(p, dropped)),
    );
    if (!stillApplied && !ownedElsewhere) removePath(result, dropped);
  }
  const merged = deepMerge(result, applied) as KubeObject;
  const managedFields: ManagedFieldsEntry[] = [...remaining, entry(id, appliedPaths, now)];
  return { ...merged, metadata: { ...merged.metadata, managedFields } };
}

function conflictError(conflicts: { path: FieldPath; manager: string }[], apiVersion: string): StatusError {
  const causes: StatusCause[] = conflicts.map((c) => ({
    reason: 'FieldManagerConflict',
    message: `conflict with "${c.manager}" using ${apiVersion}`,
    field: pathKey(c.path),
  }));
  const first = causes[0];
  const message =
    causes.length === 1 && first
      ? `Apply failed with 1 conflict: ${first.message}: ${first.field}`
      : `Apply failed with ${causes.length} conflicts: ${causes.map((c) => `${c.message}: ${c.field}`).join('\n')}`;
  return new StatusError(409, 'Conflict', message, { causes });
}

function deepMerge(target: unknown, patch: unknown): unknown {
  if (!isRecord(patch) || !isRecord(target)) return structuredClone(patch);
  const result: Record<string, unknown> = { ...target };
  for (const [k, v] of Object.entries(patch)) result[k] = deepMerge(result[k], v);
  return result;
}

function removePath(object: Record<string, unknown>, path: FieldPath): void {
  const parents: Record<string, unknown>[] = [];
  let node: unknown = object;
  for (const key of path.slice(0, -1)) {
    if (!isRecord(node)) return;
    parents.push(node);
    node = node[key];
  }
  if (!isRecord(node)) return;
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- JSON objects are keyed by their data
  delete node[path.at(-1) ?? ''];
  // Maps the removal left empty go too, as they were only there to hold the field.
  for (let i = parents.length - 1; i >= 0; i--) {
    const key = path[i] ?? '';
    const parent = parents[i];
    const child = parent?.[key];
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- JSON objects are keyed by their data
    if (parent && isRecord(child) && Object.keys(child).length === 0) delete parent[key];
    else break;
  }
}
