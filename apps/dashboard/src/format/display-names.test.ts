import { describe, expect, it } from 'vitest';

import { formatBytes, formatByteRate } from './bytes.js';
import { computeTypeName, distroName, enumName } from './display-names.js';

describe('display names', () => {
  it('reads distros as people write them', () => {
    expect(distroName('DISTRO_UBUNTU_24_04')).toBe('Ubuntu 24.04');
    expect(distroName('DISTRO_ALMALINUX_10')).toBe('AlmaLinux 10');
    expect(distroName('something else')).toBe('something else');
  });

  it('reads enum values as words', () => {
    expect(enumName('SERVICE_STATUS_ONLINE', 'SERVICE_STATUS_')).toBe('Online');
    expect(computeTypeName('COMPUTE_TYPE_CPU_OPTIMIZED')).toBe('CPU optimized');
  });
});

describe('byte formatting', () => {
  it('uses binary units for sizes and decimal ones for rates', () => {
    expect(formatBytes(68_719_476_736)).toBe('64 GiB');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(0)).toBe('0 B');
    expect(formatByteRate(1_250_000)).toBe('1.25 MB/s');
  });
});
