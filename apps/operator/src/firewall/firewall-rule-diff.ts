import type { FirewallRule, FirewallRuleParams } from '@noderings/proxmox';

/**
 * How to turn the current rule list into the desired one with Proxmox's primitives, where a new rule
 * always goes to position 0: delete the top `removeCount` rules, then insert `insert` (top to bottom)
 * above the kept tail. The longest tail already as desired is kept.
 */
export interface FirewallRuleDiff {
  inSync: boolean;
  removeCount: number;
  insert: FirewallRuleParams[];
}

/** The fields that decide what a rule does; anything else Proxmox reports (pos, digest) is ignored. */
const COMPARED = [
  'type',
  'action',
  'proto',
  'dport',
  'sport',
  'source',
  'dest',
  'macro',
  'iface',
  'comment',
] as const;

export function firewallRuleDiff(
  current: readonly FirewallRule[],
  desired: readonly FirewallRuleParams[],
): FirewallRuleDiff {
  const ordered = [...current].sort((a, b) => a.pos - b.pos);
  let kept = 0;
  while (kept < ordered.length && kept < desired.length) {
    const have = ordered[ordered.length - 1 - kept];
    const want = desired[desired.length - 1 - kept];
    if (have === undefined || want === undefined || !sameRule(have, want)) break;
    kept += 1;
  }
  const removeCount = ordered.length - kept;
  const insert = desired.slice(0, desired.length - kept);
  return { inSync: removeCount === 0 && insert.length === 0, removeCount, insert };
}

/** Whether a rule read back from Proxmox is the desired one, enabled, with nothing extra. */
function sameRule(current: FirewallRule, desired: FirewallRuleParams): boolean {
  if ((current.enable ?? 0) !== (desired.enable === true ? 1 : 0)) return false;
  if ((current.log ?? 'nolog') !== (desired.log ?? 'nolog')) return false;
  return COMPARED.every((key) => (current[key] ?? '') === (desired[key] ?? ''));
}
