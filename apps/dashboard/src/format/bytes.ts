const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** Binary units, as Proxmox and the node inventory count them: 68719476736 → "64 GiB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 100 || unit === 0 ? 0 : value >= 10 ? 1 : 2;
  return `${trimZeros(value.toFixed(digits))} ${UNITS[unit] ?? 'B'}`;
}

/** A rate in bytes per second, in decimal units as network speeds are quoted: 1250000 → "1.25 MB/s". */
export function formatByteRate(bytesPerSecond: number): string {
  const units = ['B/s', 'kB/s', 'MB/s', 'GB/s'] as const;
  let value = Math.max(0, bytesPerSecond);
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const digits = value >= 100 || unit === 0 ? 0 : value >= 10 ? 1 : 2;
  return `${trimZeros(value.toFixed(digits))} ${units[unit] ?? 'B/s'}`;
}

function trimZeros(fixed: string): string {
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}
