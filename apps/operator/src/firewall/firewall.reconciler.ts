import type {
  FirewallRuleSet,
  FirewallRuleSetStatus,
  ReconcileResult,
  Reconciler,
  ResourceClient,
} from '@noderings/kube';
import { DONE, parseObjectKey, updateStatus } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import { ruleSetProblems } from './rule-set-problems.js';

export interface FirewallReconcilerDeps {
  ruleSets: ResourceClient<FirewallRuleSet>;
  logger: Logger;
}

/**
 * Validates a FirewallRuleSet and records the verdict in its status: `Applied` when every ProxmoxVM
 * referencing it can take its rules, `Failed` with the problems otherwise. The rules themselves are
 * written by the ProxmoxVM reconciler, which the controller wakes for each referencing VM.
 */
export class FirewallReconciler implements Reconciler {
  constructor(private readonly deps: FirewallReconcilerDeps) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const ruleSet = await this.deps.ruleSets.find(ref, signal);
    if (ruleSet === undefined) return DONE;
    const problems = ruleSetProblems(ruleSet.spec.rules);
    const ruleCount = ruleSet.spec.rules.length;
    const desired: FirewallRuleSetStatus =
      problems.length === 0
        ? { phase: 'Applied', ruleCount, message: `${ruleCount} rule${ruleCount === 1 ? '' : 's'} valid` }
        : { phase: 'Failed', ruleCount, message: problems.join('; ') };
    await updateStatus(
      this.deps.ruleSets,
      ref,
      (current) => {
        const generation = current.metadata?.generation;
        return {
          ...current.status,
          ...desired,
          ...(generation === undefined ? {} : { observedGeneration: generation }),
        };
      },
      { signal },
    );
    if (problems.length > 0) {
      this.deps.logger.warn({ key, problems }, 'firewall ruleset invalid');
    }
    return DONE;
  }
}
