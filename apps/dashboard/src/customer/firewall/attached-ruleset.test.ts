import { describe, expect, it } from 'vitest';

import type { FirewallRuleset } from '../../api/api-resources.js';
import { attachedRuleset } from './attached-ruleset.js';

const ruleset = (id: string, vmIds: string[]): FirewallRuleset => ({
  id,
  name: id,
  ruleCount: 0,
  attachedVmCount: vmIds.length,
  attachedVmHostnames: vmIds.map(() => 'web-1'),
  attachedVmIds: vmIds,
});

describe('attachedRuleset', () => {
  it('is the ruleset listing the VM, whatever other VMs share its hostname', () => {
    const rulesets = [ruleset('a', ['vm-2']), ruleset('b', ['vm-3', 'vm-1'])];
    expect(attachedRuleset({ id: 'vm-1' }, rulesets)).toBe(rulesets[1]);
    expect(attachedRuleset({ id: 'vm-2' }, rulesets)).toBe(rulesets[0]);
  });

  it('is undefined when no ruleset lists the VM', () => {
    expect(attachedRuleset({ id: 'vm-9' }, [ruleset('a', ['vm-1'])])).toBeUndefined();
  });
});
