import { describe, expect, it } from 'vitest';

import { addonCodeProblem, addonDefinitionViolations } from './addon-definition.js';

describe('addon definitions', () => {
  it.each(['BACKUP', 'BACKUP-DAILY', 'IPV4_1', 'SNAP-7D'])('accepts the code %s', (code) => {
    expect(addonCodeProblem(code)).toBeUndefined();
  });
  it.each(['', 'backup', 'BACKUP-', '-X', 'A--B', 'A B', 'X'.repeat(65)])('refuses the code %j', (code) => {
    expect(addonCodeProblem(code)).toEqual(expect.any(String));
  });

  it('requires a backup policy on backup addons and refuses one elsewhere', () => {
    const base = { name: 'Backups', compatiblePlanIds: ['p1', 'p2'] };
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
        addonType: 'ADDON_TYPE_ADDITIONAL_IP',
        compatiblePlanIds: ['p1', 'p1'],
        backupPolicy: null,
      }).map((v) => v.field),
    ).toEqual(['name', 'compatiblePlanIds.1']);
  });
});
