import type { ConditionUpdate, FirewallRuleSet, ObjectRef, ProxmoxVM, ResourceClient } from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient } from '@noderings/proxmox';

import { reconcileFailure } from '../error-mapping.js';
import type { FirewallIntent } from './desired-firewall-rules.js';
import { desiredFirewallRules } from './desired-firewall-rules.js';
import { firewallRuleDiff } from './firewall-rule-diff.js';
import { ruleSetProblems } from './rule-set-problems.js';

const FIREWALL_SYNCED = 'FirewallSynced';

/** The guest whose firewall is synced; the ProxmoxVM reconciler's own target fits. */
export interface VmFirewallTarget {
  ref: ObjectRef;
  vm: ProxmoxVM;
  pve: Pick<
    ProxmoxClient,
    | 'getFirewallRules'
    | 'createFirewallRule'
    | 'deleteFirewallRule'
    | 'getFirewallOptions'
    | 'setFirewallOptions'
  >;
  node: string;
  vmid: number;
  signal: AbortSignal;
}

export interface VmFirewallDeps {
  ruleSets: Pick<ResourceClient<FirewallRuleSet>, 'find'>;
  /** The NR guard: throws unless the guest is ours. Called right before the first write, if any. */
  guard: () => Promise<void>;
  /** Records the FirewallSynced condition (the caller writes only when it changed). */
  record: (condition: ConditionUpdate) => Promise<void>;
  log: Logger;
}

/**
 * Makes the guest's firewall hold exactly the desired rules, enabled and in order, with the firewall
 * option on, correcting any drift made on the Proxmox side; then records FirewallSynced. A Proxmox
 * failure is recorded too, and rethrown so the reconcile is retried.
 */
export async function syncVmFirewall(t: VmFirewallTarget, deps: VmFirewallDeps): Promise<void> {
  const { intent, condition } = await resolveIntent(t, deps);
  try {
    await apply(t, deps, intent);
  } catch (e: unknown) {
    if (t.signal.aborted) throw e;
    const failure = reconcileFailure(e);
    await deps.record({
      type: FIREWALL_SYNCED,
      status: 'False',
      reason: failure.reason,
      message: failure.message,
    });
    throw e;
  }
  await deps.record(condition);
}

async function apply(t: VmFirewallTarget, deps: VmFirewallDeps, intent: FirewallIntent): Promise<void> {
  const { pve, node, vmid } = t;
  const desired = desiredFirewallRules(intent);
  let digest: string | undefined;
  let guarded = false;
  const beforeWrite = async (): Promise<{ digest?: string }> => {
    if (!guarded) await deps.guard();
    guarded = true;
    // Only the first write can carry the digest read: each write changes it.
    const once = digest === undefined ? {} : { digest };
    digest = undefined;
    return once;
  };

  const current = await pve.getFirewallRules(node, vmid);
  const diff = firewallRuleDiff(current, desired);
  if (!diff.inSync) {
    digest = current[0]?.digest;
    // Deleting from the highest position down keeps the positions still to delete where they were.
    for (let pos = diff.removeCount - 1; pos >= 0; pos -= 1) {
      await pve.deleteFirewallRule(node, vmid, pos, await beforeWrite());
    }
    // Each insert lands at position 0, so the bottom one goes first.
    for (const rule of diff.insert.toReversed()) {
      await pve.createFirewallRule(node, vmid, { ...rule, ...(await beforeWrite()) });
    }
    deps.log.info(
      {
        vmid,
        removed: diff.removeCount,
        inserted: diff.insert.length,
        kept: desired.length - diff.insert.length,
      },
      'firewall rules rewritten',
    );
  }

  if (desired.length === 0) return;
  const options = await pve.getFirewallOptions(node, vmid);
  if (
    (options.enable ?? 0) !== 1 ||
    options.policy_in !== OPEN_POLICY ||
    options.policy_out !== OPEN_POLICY
  ) {
    digest = options.digest;
    await pve.setFirewallOptions(node, vmid, {
      enable: true,
      // Proxmox's VM default inbound policy is DROP: enabling the firewall for the SMTP block alone
      // would cut a customer's VM off. Traffic is open unless the customer's rules say otherwise.
      policy_in: OPEN_POLICY,
      policy_out: OPEN_POLICY,
      ...(await beforeWrite()),
    });
    deps.log.info({ vmid }, 'firewall enabled');
  }
}

const OPEN_POLICY = 'ACCEPT';

/** What to apply, and the condition that describes it. A missing or invalid ruleset still gets the SMTP block. */
async function resolveIntent(
  t: VmFirewallTarget,
  deps: VmFirewallDeps,
): Promise<{ intent: FirewallIntent; condition: ConditionUpdate }> {
  const { spec } = t.vm;
  const smtpBlocked = spec.smtpBlocked ?? true;
  const smtp = smtpBlocked ? 'outbound SMTP blocked' : 'outbound SMTP allowed';
  const name = spec.firewallRuleSetRef;
  if (name === undefined) {
    return { intent: { smtpBlocked }, condition: synced(`${smtp}; no FirewallRuleSet referenced`) };
  }
  const ruleSet = await deps.ruleSets.find({ namespace: t.ref.namespace, name }, t.signal);
  if (ruleSet === undefined) {
    return {
      intent: { smtpBlocked },
      condition: {
        type: FIREWALL_SYNCED,
        status: 'False',
        reason: 'RuleSetNotFound',
        message: `FirewallRuleSet '${name}' not found in namespace '${t.ref.namespace}'; ${smtp}, no other rules applied`,
      },
    };
  }
  const problems = ruleSetProblems(ruleSet.spec.rules);
  if (problems.length > 0) {
    return {
      intent: { smtpBlocked },
      condition: {
        type: FIREWALL_SYNCED,
        status: 'False',
        reason: 'RuleSetInvalid',
        message: `FirewallRuleSet '${name}' is invalid (${problems.join('; ')}); ${smtp}, no other rules applied`,
      },
    };
  }
  const count = ruleSet.spec.rules.length;
  return {
    intent: { smtpBlocked, ruleSet: { name, rules: ruleSet.spec.rules } },
    condition: synced(`${smtp}; ${count} rule${count === 1 ? '' : 's'} of FirewallRuleSet '${name}' applied`),
  };
}

function synced(message: string): ConditionUpdate {
  return { type: FIREWALL_SYNCED, status: 'True', reason: 'Synced', message };
}
