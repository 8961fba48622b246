import { isJsonObject } from './json-value.js';

type Step = { kind: 'key'; key: string } | { kind: 'index'; index: number } | { kind: 'all' };

/**
 * Evaluates the simple JSONPath that additionalPrinterColumns use (`.status.phase`, `.spec.disks[0].size`,
 * `.metadata.labels['app.kubernetes.io/name']`, optionally wrapped in `{}`). A `[*]` or `.*` step fans
 * out and yields an array; a missing field yields undefined. Malformed paths yield undefined too.
 */
export function evaluateJsonPath(object: unknown, path: string): unknown {
  const steps = parseJsonPath(path);
  if (!steps) return undefined;
  let current: unknown[] = [object];
  let fannedOut = false;
  for (const step of steps) {
    if (step.kind === 'all') fannedOut = true;
    current = current.flatMap((value) => applyStep(value, step));
  }
  return fannedOut ? current : current[0];
}

function applyStep(value: unknown, step: Step): unknown[] {
  if (step.kind === 'all') {
    if (Array.isArray(value)) return value;
    return isJsonObject(value) ? Object.values(value) : [];
  }
  if (step.kind === 'index') {
    if (!Array.isArray(value)) return [];
    const item: unknown = value[step.index < 0 ? value.length + step.index : step.index];
    return item === undefined ? [] : [item];
  }
  if (!isJsonObject(value) || !Object.hasOwn(value, step.key)) return [];
  return [value[step.key]];
}

function parseJsonPath(raw: string): Step[] | undefined {
  let path = raw.trim();
  if (path.startsWith('{') && path.endsWith('}')) path = path.slice(1, -1).trim();
  if (path.startsWith('$')) path = path.slice(1);
  const steps: Step[] = [];
  const token = /\.([^.[\]]+)|\[\s*(-?\d+)\s*\]|\[\s*'([^']*)'\s*\]|\[\s*"([^"]*)"\s*\]|\[\s*\*\s*\]/y;
  while (token.lastIndex < path.length) {
    const start = token.lastIndex;
    const match = token.exec(path);
    if (match?.index !== start) return undefined;
    const [, dotted, index, single, double] = match;
    if (dotted !== undefined) steps.push(dotted === '*' ? { kind: 'all' } : { kind: 'key', key: dotted });
    else if (index !== undefined) steps.push({ kind: 'index', index: Number(index) });
    else if (single !== undefined || double !== undefined)
      steps.push({ kind: 'key', key: single ?? double ?? '' });
    else steps.push({ kind: 'all' });
  }
  return steps;
}
