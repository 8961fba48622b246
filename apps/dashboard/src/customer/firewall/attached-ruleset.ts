import type { FirewallRuleset, VirtualMachine } from '../../api/api-resources.js';

/** The ruleset attached to the VM (a VM has at most one), by the VM ids rulesets list; undefined when none. */
export function attachedRuleset(
  vm: Pick<VirtualMachine, 'id'>,
  rulesets: readonly FirewallRuleset[],
): FirewallRuleset | undefined {
  return rulesets.find((r) => r.attachedVmIds.includes(vm.id));
}
