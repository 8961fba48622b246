import { describe, expect, it } from 'vitest';

import { formatPercent, group, utilizationSentence } from './prefix-utilization.js';

describe('prefix utilization', () => {
  it('groups counts of any size exactly', () => {
    expect(group('18446744073709551616')).toBe('18,446,744,073,709,551,616');
    expect(group('253')).toBe('253');
  });

  it('says what is allocated, reserved and free', () => {
    expect(
      utilizationSentence({
        totalIps: '253',
        allocatedCount: '2',
        reservedCount: '1',
        availableCount: '250',
        utilizationPercent: 1.185,
        capacityUnitLabel: 'addresses',
        capacityIsOpenEnded: false,
      }),
    ).toBe('2 allocated, 1 reserved, 250 available of 253 addresses (1.2 % used).');
  });

  it('does not round a little use down to nothing', () => {
    expect(formatPercent(0.0001)).toBe('< 0.1 %');
    expect(formatPercent(0)).toBe('0.0 %');
  });
});
