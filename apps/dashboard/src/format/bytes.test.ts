import { describe, expect, it } from 'vitest';

import { formatByteRate, formatBytes, formatGiB, formatMiB, formatTrafficGiB } from './bytes.js';

describe('sizes in binary units', () => {
  it('scales bytes to the largest binary unit under 1024', () => {
    expect(formatBytes(68_719_476_736)).toBe('64 GiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(1023)).toBe('1023 B');
  });

  it('writes plan sizes (GiB) and VM memory (MiB) in the same units', () => {
    expect(formatGiB(4)).toBe('4 GiB');
    expect(formatGiB(40)).toBe('40 GiB');
    expect(formatGiB(2048)).toBe('2 TiB');
    expect(formatMiB(4096)).toBe('4 GiB');
    expect(formatMiB(512)).toBe('512 MiB');
    expect(formatMiB(1536)).toBe('1.5 GiB');
  });

  it('writes traffic in GiB with its decimals, and rates in binary units per second', () => {
    expect(formatTrafficGiB(0)).toBe('0.00 GiB');
    expect(formatTrafficGiB(12.345)).toBe('12.3 GiB');
    expect(formatByteRate(1_310_720)).toBe('1.25 MiB/s');
    expect(formatByteRate(0)).toBe('0 B/s');
    expect(formatByteRate(-5)).toBe('0 B/s');
  });
});
