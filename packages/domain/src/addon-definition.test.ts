import { describe, expect, it } from 'vitest';

import {
  addonCodeProblem,
  addonDefinitionViolations,
  type AddonPricingDefinition,
} from './addon-definition.js';

const EURO = { kind: 'fixed', currency: 'EUR', unitAmount: '2.500000' } as const;

describe('addon definitions', () => {
  it.each(['BACKUP', 'BACKUP-DAILY', 'IPV4_1', 'SNAP-7D'])('accepts the code %s', (code) => {
    expect(addonCodeProblem(code)).toBeUndefined();
  });
  it.each(['', 'backup', 'BACKUP-', '-X', 'A--B', 'A B', 'X'.repeat(65)])('refuses the code %j', (code) => {
    expect(addonCodeProblem(code)).toEqual(expect.any(String));
  });

  it('requires a backup policy on backup addons and refuses one elsewhere', () => {
    const base = { name: 'Backups', pricing: EURO, compatiblePlanIds: ['p1', 'p2'] };
    expect(
      addonDefinitionViolations({ ...base, addonType: 'ADDON_TYPE_BACKUP', backupPolicy: null }).map(
        (v) => v.field,
      ),
    ).toEqual(['backupPolicy']);
    expect(
      addonDefinitionViolations({
        ...base,
        addonType: 'ADDON_TYPE_SNAPSHOT',
        backupPolicy: { schedule: '0 3 * * *', retention: 7 },
      }).map((v) => v.field),
    ).toEqual(['backupPolicy']);
    expect(
      addonDefinitionViolations({
        name: ' ',
        pricing: EURO,
        addonType: 'ADDON_TYPE_ADDITIONAL_IP',
        compatiblePlanIds: ['p1', 'p1'],
        backupPolicy: null,
      }).map((v) => v.field),
    ).toEqual(['name', 'compatiblePlanIds.1']);
  });

  it('holds an amount charged each month to the currency’s smallest unit', () => {
    const fields = (pricing: AddonPricingDefinition) =>
      addonDefinitionViolations({
        name: 'IP',
        pricing,
        addonType: 'ADDON_TYPE_ADDITIONAL_IP',
        compatiblePlanIds: [],
        backupPolicy: null,
      }).map((v) => v.field);
    expect(fields({ kind: 'fixed', currency: 'EUR', unitAmount: '1.005' })).toEqual(['pricing.unitAmount']);
    expect(fields({ kind: 'fixed', currency: 'JPY', unitAmount: '150.000000' })).toEqual([]);
    expect(
      fields({ kind: 'percentage', currency: 'EUR', percentageValue: 12.5, zeroBaseFallbackAmount: '0.125' }),
    ).toEqual(['pricing.zeroBaseFallbackAmount']);
  });
});
