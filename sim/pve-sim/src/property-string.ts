/**
 * PVE property strings (`virtio=BC:24:11:AA:BB:CC,bridge=vmbr0,firewall=1`): an optional leading
 * default key, then `key=value` pairs.
 */
export type PropertyMap = Map<string, string>;

export function parsePropertyString(value: string, defaultKey?: string): PropertyMap {
  const map: PropertyMap = new Map();
  for (const part of value.split(',')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq < 0) {
      if (defaultKey === undefined || map.has(defaultKey))
        throw new Error(`value without key, but schema does not define a default key`);
      map.set(defaultKey, part);
    } else {
      const key = part.slice(0, eq);
      if (map.has(key)) throw new Error(`duplicate key in comma-separated list property: ${key}`);
      map.set(key, part.slice(eq + 1));
    }
  }
  return map;
}

export function formatPropertyString(map: PropertyMap, first?: string): string {
  const parts: string[] = [];
  if (first !== undefined && map.has(first)) parts.push(`${first}=${map.get(first) ?? ''}`);
  for (const key of [...map.keys()].filter((k) => k !== first).sort())
    parts.push(`${key}=${map.get(key) ?? ''}`);
  return parts.join(',');
}
