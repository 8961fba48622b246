import type { PrefixUtilization } from '../../api/api-resources.js';

/**
 * A prefix's use in words. Counts are decimal strings (a /64 holds 2^64 addresses), so they are shown as
 * the API wrote them, grouped for reading, and never turned into floating point.
 */
export function utilizationSentence(u: PrefixUtilization): string {
  const unit = u.capacityUnitLabel === '' ? 'addresses' : u.capacityUnitLabel;
  const total = u.capacityIsOpenEnded
    ? `more ${unit} than can be counted usefully`
    : `${group(u.totalIps)} ${unit}`;
  return `${group(u.allocatedCount)} allocated, ${group(u.reservedCount)} reserved, ${group(
    u.availableCount,
  )} available of ${total} (${formatPercent(u.utilizationPercent)} used).`;
}

/** "18446744073709551616" → "18,446,744,073,709,551,616", exact at any size. */
export function group(digits: string): string {
  if (!/^\d+$/.test(digits)) return digits;
  return digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

export function formatPercent(percent: number): string {
  if (percent > 0 && percent < 0.1) return '< 0.1 %';
  return `${percent.toFixed(percent < 10 ? 1 : 0)} %`;
}
