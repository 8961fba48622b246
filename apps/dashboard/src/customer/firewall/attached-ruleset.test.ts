import { describe, expect, it } from 'vitest';

import type { FirewallRuleset } from '../../api/api-resources.js';
import { attachedRuleset } from './attached-ruleset.js';

const ruleset = (id: string, hostnames: string[]): FirewallRuleset => ({
  id,
  name: id,
  ruleCount: 0,
  attachedVmCount: hostnames.length,
  attachedVmHostnames: hostnames,
});
const vm = { id: 'vm-1', hostname: 'web-1' };
const live = (id: string, hostname: string) => ({ id, hostname, provisioningState: 'RUNNING' as const });

describe('attachedRuleset', () => {
  it('is the ruleset naming the VM’s hostname when the name is the VM’s alone', () => {
    const rulesets = [ruleset('a', ['db-1']), ruleset('b', ['web-1', 'db-1'])];
    expect(attachedRuleset(vm, rulesets, [live('vm-1', 'web-1'), live('vm-2', 'db-1')], undefined)).toEqual({
      kind: 'attached',
      ruleset: rulesets[1],
    });
  });

  it('is none when no ruleset names the VM', () => {
    expect(attachedRuleset(vm, [ruleset('a', ['db-1'])], [], undefined)).toEqual({ kind: 'none' });
  });

  it('cannot tell when another live VM has the same hostname', () => {
    const rulesets = [ruleset('a', ['web-1'])];
    const vms = [live('vm-1', 'web-1'), live('vm-2', 'web-1')];
    expect(attachedRuleset(vm, rulesets, vms, undefined)).toEqual({
      kind: 'ambiguous',
      candidates: rulesets,
    });
    expect(
      attachedRuleset(
        vm,
        rulesets,
        [...vms.slice(0, 1), { ...live('vm-2', 'web-1'), provisioningState: 'DELETED' }],
        undefined,
      ).kind,
    ).toBe('attached');
  });

  it('trusts a ruleset this page attached, whatever the names', () => {
    const rulesets = [ruleset('a', ['web-1']), ruleset('b', ['web-1'])];
    const vms = [live('vm-1', 'web-1'), live('vm-2', 'web-1')];
    expect(attachedRuleset(vm, rulesets, vms, 'b')).toEqual({ kind: 'attached', ruleset: rulesets[1] });
  });
});
