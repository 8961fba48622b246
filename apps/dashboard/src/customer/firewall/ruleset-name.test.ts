import { describe, expect, it } from 'vitest';

import { freeRulesetName, validateRulesetName } from './ruleset-name.js';

describe('ruleset names', () => {
  it('suggests a name no ruleset has yet', () => {
    expect(freeRulesetName('web-1-firewall', [])).toBe('web-1-firewall');
    expect(freeRulesetName('web-1-firewall', ['web-1-firewall', 'web-1-firewall-2'])).toBe(
      'web-1-firewall-3',
    );
  });

  it('refuses what the API refuses', () => {
    expect(validateRulesetName('')).toHaveProperty('name');
    expect(validateRulesetName(' web')).toHaveProperty('name');
    expect(validateRulesetName('web')).toEqual({});
  });
});
