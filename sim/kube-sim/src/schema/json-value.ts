export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The JSON type name kube-openapi reports for a decoded value. Whole numbers are integers because
 * the apiserver decodes them as int64.
 */
export function jsonTypeOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  switch (typeof value) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      return Number.isInteger(value) ? 'integer' : 'number';
    case 'object':
      return 'object';
    default:
      return typeof value;
  }
}

/**
 * Deep copy of a JSON value without recursion, so that an absurdly nested body cannot exhaust the
 * stack. Non-JSON leaves (functions, symbols) are dropped like JSON.stringify would.
 */
export function cloneJson(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? [] : {};
  const stack: [unknown, unknown][] = [[value, root]];
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [source, target] = pair;
    const entries: [string | number, unknown][] = Array.isArray(source)
      ? source.map((v, i) => [i, v])
      : Object.entries(source as JsonObject);
    for (const [key, child] of entries) {
      let copy: unknown = child;
      if (typeof child === 'object' && child !== null) {
        copy = Array.isArray(child) ? [] : {};
        stack.push([child, copy]);
      } else if (typeof child === 'function' || typeof child === 'symbol') {
        continue;
      }
      (target as Record<string | number, unknown>)[key] = copy;
    }
  }
  return root;
}

/** Structural equality of JSON values, iterative for the same reason as cloneJson. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: [unknown, unknown][] = [[a, b]];
  for (let pair = stack.pop(); pair; pair = stack.pop()) {
    const [x, y] = pair;
    if (x === y) continue;
    if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false;
    if (Array.isArray(x) !== Array.isArray(y)) return false;
    const xk = Object.keys(x);
    const yk = Object.keys(y);
    if (xk.length !== yk.length) return false;
    for (const k of xk) {
      if (!Object.hasOwn(y, k)) return false;
      stack.push([(x as JsonObject)[k], (y as JsonObject)[k]]);
    }
  }
  return true;
}
