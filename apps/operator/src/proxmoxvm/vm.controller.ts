import type { KubeClient, ProxmoxVM } from '@noderings/kube';
import { Controller, Informer, fromInformer } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import type { OperatorMetrics } from '../operator-metrics.js';
import { VmReconciler } from './vm.reconciler.js';
import type { VmReconcilerDeps } from './vm.reconciler.js';

const CONTROLLER_NAME = 'proxmoxvm';
const RESYNC_MS = 10 * 60_000;

export interface VmControllerOptions extends Pick<VmReconcilerDeps, 'instances' | 'taskTimeoutMs'> {
  kube: Pick<KubeClient, 'proxmoxVMs' | 'secrets' | 'firewallRuleSets'>;
  namespace: string;
  workers: number;
  logger: Logger;
  metrics: OperatorMetrics;
  shutdownTimeoutMs?: number;
}

/** Watches ProxmoxVMs in the namespace and feeds their keys to the VmReconciler. */
export function createVmController(options: VmControllerOptions): {
  controller: Controller;
  informer: Informer<ProxmoxVM>;
} {
  const { kube, logger } = options;
  const informer = new Informer(kube.proxmoxVMs, {
    namespace: options.namespace,
    resyncPeriodMs: RESYNC_MS,
    onError: (e: unknown) => {
      logger.warn({ error: e }, 'proxmoxvm informer failed');
    },
  });
  const reconciler = new VmReconciler({
    vms: kube.proxmoxVMs,
    secrets: kube.secrets,
    ruleSets: kube.firewallRuleSets,
    instances: options.instances,
    logger,
    ...(options.taskTimeoutMs === undefined ? {} : { taskTimeoutMs: options.taskTimeoutMs }),
  });
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
