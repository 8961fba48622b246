/**
 * Sizes in one unit system, binary, as Proxmox counts memory and disks and as plans store them: 1 GiB is
 * 1024³ bytes. Memory, disk, traffic and rates are all written with these helpers, so no page says GB
 * beside another that says GiB. See docs/adr/0023-binary-units.md.
 */
const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;
const BYTES_PER_MIB = 1024 ** 2;
const BYTES_PER_GIB = 1024 ** 3;

/** The unit that plan sizes, the marketplace filters and traffic allowances are entered in. */
export const SIZE_UNIT = 'GiB';

/** 68719476736 → "64 GiB"; 1536 → "1.5 KiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const { value, unit } = scaled(bytes);
  return `${rounded(value, unit)} ${UNITS[unit] ?? 'B'}`;
}

/** A size given in GiB (a plan's memory, disk or traffic allowance): 4 → "4 GiB", 2048 → "2 TiB". */
export function formatGiB(gib: number): string {
  return formatBytes(gib * BYTES_PER_GIB);
}

/** A size given in MiB (a VM's memory as Proxmox sets it): 512 → "512 MiB", 4096 → "4 GiB". */
export function formatMiB(mib: number): string {
  return formatBytes(mib * BYTES_PER_MIB);
}

/** Bytes as GiB with two decimals, for traffic counted against an allowance: 1073741824 → "1.00 GiB". */
export function formatTrafficGiB(gib: number): string {
  return `${Math.max(0, gib).toFixed(gib < 10 ? 2 : 1)} ${SIZE_UNIT}`;
}

/** A rate in bytes per second: 1310720 → "1.25 MiB/s". */
export function formatByteRate(bytesPerSecond: number): string {
  const bytes = Math.max(0, bytesPerSecond);
  if (!Number.isFinite(bytes) || bytes === 0) return '0 B/s';
  const { value, unit } = scaled(bytes);
  return `${rounded(value, unit)} ${UNITS[unit] ?? 'B'}/s`;
}

function scaled(bytes: number): { value: number; unit: number } {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return { value, unit };
}

function rounded(value: number, unit: number): string {
  const digits = value >= 100 || unit === 0 ? 0 : value >= 10 ? 1 : 2;
  const fixed = value.toFixed(digits);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
