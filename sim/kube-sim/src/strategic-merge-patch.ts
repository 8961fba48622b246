import { isRecord } from './json-value.js';
import { badRequest } from './status-error.js';

/**
 * How a list merges under a strategic merge patch, by its path with `*` for any map key: `set` for
 * lists of scalars merged as a set, otherwise the name of the key that identifies an item. Lists
 * not named here are replaced, as lists without a patch strategy are (tolerations, args, command).
 */
const LIST_STRATEGIES: Record<string, string> = {
  'metadata.finalizers': 'set',
  'metadata.ownerReferences': 'uid',
  secrets: 'name',
  imagePullSecrets: 'name',
  // Pod specs, wherever they sit (a Deployment's or DaemonSet's template).
  containers: 'name',
  initContainers: 'name',
  ephemeralContainers: 'name',
  ports: 'containerPort',
  env: 'name',
  volumes: 'name',
  volumeMounts: 'mountPath',
  volumeDevices: 'devicePath',
  // A Service's ports are keyed by their number, not by a container port.
  'spec.ports': 'port',
  conditions: 'type',
  'status.addresses': 'type',
};

/**
 * A strategic merge patch for the built-in types kube-sim serves: a JSON merge patch whose known
 * keyed lists merge item by item (`$patch: delete` removes an item), with the `$deleteFromPrimitiveList`
 * and `$setElementOrder` directives understood or ignored.
 */
export function strategicMergePatch(target: unknown, patch: unknown): unknown {
  return mergeAt(target, patch, '');
}

function mergeAt(target: unknown, patch: unknown, path: string): unknown {
  if (!isRecord(patch)) return patch;
  if (patch.$patch === 'replace') return stripDirectives(patch);
  const result: Record<string, unknown> = isRecord(target) ? { ...target } : {};
  // `$retainKeys` (a Deployment's strategy, a volume's source): keys not listed are dropped.
  const retain = patch.$retainKeys;
  if (Array.isArray(retain)) {
    for (const key of Object.keys(result)) {
      // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- JSON objects are keyed by their data
      if (!retain.includes(key)) delete result[key];
    }
  }
  for (const [key, value] of Object.entries(patch)) {
    if (key.startsWith('$deleteFromPrimitiveList/')) {
      const field = key.slice('$deleteFromPrimitiveList/'.length);
      const current = result[field];
      if (Array.isArray(current) && Array.isArray(value)) {
        result[field] = current.filter((v) => !value.includes(v));
      }
      continue;
    }
    if (key.startsWith('$')) continue;
    const childPath = path ? `${path}.${key}` : key;
    // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- JSON objects are keyed by their data
    if (value === null) delete result[key];
    else if (Array.isArray(value)) result[key] = mergeList(result[key], value, strategyFor(childPath));
    else result[key] = mergeAt(result[key], value, childPath);
  }
  return result;
}

function strategyFor(path: string): string | undefined {
  return LIST_STRATEGIES[path] ?? LIST_STRATEGIES[path.split('.').at(-1) ?? ''];
}

function mergeList(current: unknown, patch: unknown[], strategy: string | undefined): unknown[] {
  if (strategy === undefined || !Array.isArray(current)) return patch.filter((v) => !isDeleteDirective(v));
  const existing: unknown[] = current;
  if (strategy === 'set') return [...existing, ...patch.filter((v) => !existing.includes(v))];
  const merged = [...existing];
  for (const item of patch) {
    if (!isRecord(item) || !(strategy in item)) {
      throw badRequest(`map: ${JSON.stringify(item)} does not contain declared merge key: ${strategy}`);
    }
    const index = merged.findIndex((m) => isRecord(m) && m[strategy] === item[strategy]);
    if (isDeleteDirective(item)) {
      if (index >= 0) merged.splice(index, 1);
    } else if (index >= 0) {
      merged[index] = mergeAt(merged[index], item, '');
    } else {
      merged.push(stripDirectives(item));
    }
  }
  return merged;
}

function isDeleteDirective(value: unknown): boolean {
  return isRecord(value) && value.$patch === 'delete';
}

function stripDirectives(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([k]) => !k.startsWith('$')));
}
