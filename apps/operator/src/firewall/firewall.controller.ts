import { isDeepStrictEqual } from 'node:util';

import type { FirewallRuleSet, KubeClient, ProxmoxVM } from '@noderings/kube';
import { Controller, Informer, fromInformer, keyOf } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import type { OperatorMetrics } from '../operator-metrics.js';
import { FirewallReconciler } from './firewall.reconciler.js';

const CONTROLLER_NAME = 'firewallruleset';
const RESYNC_MS = 10 * 60_000;

export interface FirewallControllerOptions {
  kube: Pick<KubeClient, 'firewallRuleSets'>;
  namespace: string;
  workers: number;
  logger: Logger;
  metrics: OperatorMetrics;
  /** The ProxmoxVM controller, woken for every VM that references a ruleset when its rules change. */
  vms: { informer: Pick<Informer<ProxmoxVM>, 'list'>; controller: Pick<Controller, 'enqueue'> };
  shutdownTimeoutMs?: number;
}

/**
 * Watches FirewallRuleSets: each is validated by the FirewallReconciler, and a change to its rules (or
 * its creation or deletion) requeues the ProxmoxVMs of the same namespace that reference it, whose
 * reconciler writes the rules to Proxmox.
 */
export function createFirewallController(options: FirewallControllerOptions): {
  controller: Controller;
  informer: Informer<FirewallRuleSet>;
} {
  const { kube, logger, vms } = options;
  const informer = new Informer(kube.firewallRuleSets, {
    namespace: options.namespace,
    resyncPeriodMs: RESYNC_MS,
    onError: (e: unknown) => {
      logger.warn({ error: e }, 'firewallruleset informer failed');
    },
  });
  const wakeReferencingVms = (ruleSet: FirewallRuleSet): void => {
    const namespace = ruleSet.metadata?.namespace;
    const name = ruleSet.metadata?.name;
    for (const vm of vms.informer.list()) {
      if (vm.metadata?.namespace === namespace && vm.spec.firewallRuleSetRef === name) {
        vms.controller.enqueue(keyOf(vm));
      }
    }
  };
  informer.addHandler({
    onAdd: wakeReferencingVms,
    onUpdate: (old, ruleSet) => {
      // Status writes and resyncs change nothing a VM applies.
      if (!isDeepStrictEqual(old.spec, ruleSet.spec)) wakeReferencingVms(ruleSet);
    },
    onDelete: wakeReferencingVms,
  });
  const reconciler = new FirewallReconciler({ ruleSets: kube.firewallRuleSets, logger });
  const controller = new Controller({
    name: CONTROLLER_NAME,
    reconciler: options.metrics.instrument(CONTROLLER_NAME, reconciler),
    sources: [fromInformer(informer)],
    workers: options.workers,
    backoff: { baseMs: 200, maxMs: 300_000, jitter: 0.2 },
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
  });
  return { controller, informer };
}
