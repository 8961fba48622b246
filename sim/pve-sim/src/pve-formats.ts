/** PVE's named string formats: each returns an error text, or undefined when the value is valid. */

const VMID_RE = /^[1-9][0-9]{2,8}$/;

export function vmidFormat(value: string): string | undefined {
  return VMID_RE.test(value) ? undefined : 'value does not look like a valid VM ID';
}

export function nodeFormat(value: string): string | undefined {
  return /^[a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?$/.test(value)
    ? undefined
    : `value does not look like a valid node name`;
}

export function storageIdFormat(value: string): string | undefined {
  return /^[a-z][a-z0-9\-_.]*[a-z0-9]$/i.test(value)
    ? undefined
    : `storage ID '${value}' contains illegal characters`;
}

export function dnsNameFormat(value: string): string | undefined {
  const label = '([a-zA-Z0-9]([a-zA-Z0-9-]*[a-zA-Z0-9])?)';
  return new RegExp(`^(${label}\\.)*${label}$`).test(value)
    ? undefined
    : `value does not look like a valid DNS name`;
}

/** Snapshot names and other config ids. */
export function configIdFormat(value: string): string | undefined {
  return /^[a-z][a-z0-9_-]+$/i.test(value) ? undefined : `invalid configuration ID '${value}'`;
}

/** `sshkeys` must arrive URL-encoded (encodeURIComponent's alphabet) and decode cleanly. */
export function sshKeysFormat(value: string): string | undefined {
  if (!/^[-%a-zA-Z0-9_.!~*'()]*$/.test(value)) return `invalid urlencoded string: ${value}`;
  try {
    decodeURIComponent(value);
    return undefined;
  } catch {
    return `invalid urlencoded string: ${value}`;
  }
}

const TAG_RE = /^[a-z0-9_][a-z0-9_\-+.]*$/i;

export function tagsFormat(value: string): string | undefined {
  const bad = splitTags(value).find((t) => !TAG_RE.test(t));
  return bad === undefined ? undefined : `invalid characters in tag '${bad}'`;
}

function splitTags(value: string): string[] {
  return value.split(/[;, ]+/).filter((t) => t.length > 0);
}

/** Tags as PVE stores them: lower-cased, de-duplicated, sorted and `;`-joined. */
export function canonicalTags(value: string): string {
  return [...new Set(splitTags(value).map((t) => t.toLowerCase()))].sort().join(';');
}

export function ipv4CidrOk(value: string): boolean {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(value);
  return m !== null && m.slice(1, 5).every((o) => Number(o) <= 255) && Number(m[5]) <= 32;
}

export function ipv4Ok(value: string): boolean {
  return ipv4CidrOk(`${value}/32`);
}

export function ipv6Ok(value: string): boolean {
  if (!/^[0-9a-fA-F:.]+$/.test(value) || !value.includes(':')) return false;
  const halves = value.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  if (groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return false;
  return halves.length === 2 ? groups.length < 8 : groups.length === 8;
}

export function ipv6CidrOk(value: string): boolean {
  const [addr, len, extra] = value.split('/');
  return (
    extra === undefined &&
    addr !== undefined &&
    ipv6Ok(addr) &&
    /^\d{1,3}$/.test(len ?? '') &&
    Number(len) <= 128
  );
}

function ipAddressOk(value: string): boolean {
  return ipv4Ok(value) || ipv6Ok(value);
}

export function nameserverFormat(value: string): string | undefined {
  const bad = value.split(/[ ,;]+/).find((a) => a !== '' && !ipAddressOk(a));
  return bad === undefined ? undefined : `unable to parse IP address '${bad}'`;
}

const UNITS = { K: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4 } as const;

/** `32G`, `3584M`, `1.5T`, or a bare number of bytes, as PVE's parse_size reads sizes. */
export function parseSize(value: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)([KMGT])?$/.exec(value);
  if (!m) return undefined;
  const unit = m[2] as keyof typeof UNITS | undefined;
  return Math.round(Number(m[1]) * (unit === undefined ? 1 : UNITS[unit]));
}

/** PVE's size rendering: the largest unit that divides the size exactly. */
export function formatSize(bytes: number): string {
  for (const unit of ['T', 'G', 'M', 'K'] as const) {
    if (bytes % UNITS[unit] === 0) return `${bytes / UNITS[unit]}${unit}`;
  }
  return String(bytes);
}
