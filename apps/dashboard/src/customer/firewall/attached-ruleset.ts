import type { FirewallRuleset, VirtualMachine } from '../../api/api-resources.js';

/** What can be said about the ruleset attached to a VM (a VM has at most one). */
export type AttachedRuleset =
  | { readonly kind: 'attached'; readonly ruleset: FirewallRuleset }
  | { readonly kind: 'none' }
  /** Other VMs have the same hostname: rulesets attached to "that name" may belong to any of them. */
  | { readonly kind: 'ambiguous'; readonly candidates: readonly FirewallRuleset[] };

/**
 * The API names the VMs a ruleset is attached to by hostname only, so the VM's ruleset is the one naming
 * its hostname, when no other VM of the customer has that name. `knownId` is a ruleset this page attached
 * itself (the attach answered it), which settles the question whatever the names.
 */
export function attachedRuleset(
  vm: Pick<VirtualMachine, 'id' | 'hostname'>,
  rulesets: readonly FirewallRuleset[],
  vms: readonly Pick<VirtualMachine, 'id' | 'hostname' | 'provisioningState'>[],
  knownId: string | undefined,
): AttachedRuleset {
  const known = rulesets.find((r) => r.id === knownId && r.attachedVmHostnames.includes(vm.hostname));
  if (known !== undefined) return { kind: 'attached', ruleset: known };
  const candidates = rulesets.filter((r) => r.attachedVmHostnames.includes(vm.hostname));
  if (candidates.length === 0) return { kind: 'none' };
  const namesakes = vms.filter(
    (other) => other.id !== vm.id && other.hostname === vm.hostname && other.provisioningState !== 'DELETED',
  );
  const [only] = candidates;
  return namesakes.length === 0 && only !== undefined && candidates.length === 1
    ? { kind: 'attached', ruleset: only }
    : { kind: 'ambiguous', candidates };
}
