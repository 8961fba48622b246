import { describe, expect, it } from 'vitest';

import type { FirewallRule, FirewallRuleParams } from '@noderings/proxmox';

import { firewallRuleDiff } from './firewall-rule-diff.js';

const A: FirewallRuleParams = {
  type: 'out',
  action: 'DROP',
  enable: true,
  proto: 'tcp',
  dport: '25',
  comment: 'nr:a',
};
const B: FirewallRuleParams = {
  type: 'in',
  action: 'ACCEPT',
  enable: true,
  source: '10.0.0.0/8',
  comment: 'nr:b',
};
const C: FirewallRuleParams = { type: 'in', action: 'REJECT', enable: true, comment: 'nr:c' };

/** Rules as `GET …/firewall/rules` returns them. */
function read(...rules: FirewallRuleParams[]): FirewallRule[] {
  return rules.map(({ enable, ...rule }, pos) => ({
    ...rule,
    pos,
    enable: enable === true ? 1 : 0,
    digest: 'd1',
  }));
}

describe('firewallRuleDiff', () => {
  it('is in sync when the same rules are there, enabled and in order, whatever order they are listed in', () => {
    const current = read(A, B, C).reverse();
    expect(firewallRuleDiff(current, [A, B, C])).toEqual({ inSync: true, removeCount: 0, insert: [] });
  });

  it('inserts only what is missing above a matching tail', () => {
    expect(firewallRuleDiff(read(B, C), [A, B, C])).toEqual({ inSync: false, removeCount: 0, insert: [A] });
  });

  it('removes what is above the matching tail', () => {
    expect(firewallRuleDiff(read(A, B, C), [B, C])).toEqual({ inSync: false, removeCount: 1, insert: [] });
    const foreign = { type: 'in', action: 'ACCEPT', enable: true } as const;
    expect(firewallRuleDiff(read(foreign, A, B, C), [A, B, C])).toMatchObject({ removeCount: 1, insert: [] });
  });

  it('rewrites down to the first difference from the bottom', () => {
    expect(firewallRuleDiff(read(A, C), [A, B, C])).toEqual({
      inSync: false,
      removeCount: 1,
      insert: [A, B],
    });
    expect(firewallRuleDiff(read(A, C, B), [A, B, C])).toEqual({
      inSync: false,
      removeCount: 3,
      insert: [A, B, C],
    });
    expect(firewallRuleDiff(read(A, B, C, { type: 'in', action: 'DROP' }), [A, B, C])).toMatchObject({
      removeCount: 4,
      insert: [A, B, C],
    });
  });

  it('takes a disabled, edited or extended rule for drift', () => {
    for (const changed of [
      { ...C, enable: false },
      { ...C, comment: 'edited' },
      { ...C, dport: '22', proto: 'tcp' },
      { ...C, log: 'info' },
      { ...C, macro: 'SSH' },
    ]) {
      expect(firewallRuleDiff(read(A, B, changed), [A, B, C])).toMatchObject({
        inSync: false,
        removeCount: 3,
      });
    }
    expect(firewallRuleDiff(read(A, B, { ...C, log: 'nolog' }), [A, B, C]).inSync).toBe(true);
  });

  it('empties the firewall when nothing is desired', () => {
    expect(firewallRuleDiff(read(A, B), [])).toEqual({ inSync: false, removeCount: 2, insert: [] });
    expect(firewallRuleDiff([], []).inSync).toBe(true);
  });
});
