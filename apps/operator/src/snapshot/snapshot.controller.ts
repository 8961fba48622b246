import type { KubeClient, ProxmoxVM, VMSnapshot } from '@noderings/kube';
import { Controller, Informer, fromInformer, keyOf } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import type { OperatorMetrics } from '../operator-metrics.js';
import { SnapshotReconciler } from './snapshot.reconciler.js';
import type { SnapshotReconcilerDeps } from './snapshot.reconciler.js';

const CONTROLLER_NAME = 'vmsnapshot';
/** Each resync checks again that every snapshot still exists on Proxmox. */
const RESYNC_MS = 5 * 60_000;

export interface SnapshotControllerOptions extends Pick<
  SnapshotReconcilerDeps,
  'instances' | 'taskTimeoutMs'
> {
  kube: Pick<KubeClient, 'vmSnapshots' | 'proxmoxVMs'>;
  /** The ProxmoxVM informer the VM controller runs: a change of a VM wakes the snapshots of it. */
  vmInformer: Informer<ProxmoxVM>;
  namespace: string;
  workers: number;
  logger: Logger;
  metrics: OperatorMetrics;
  shutdownTimeoutMs?: number;
}

/** Watches VMSnapshots (and the ProxmoxVMs they refer to) and feeds their keys to the SnapshotReconciler. */
export function createSnapshotController(options: SnapshotControllerOptions): {
  controller: Controller;
  informer: Informer<VMSnapshot>;
} {
  const { kube, logger } = options;
  const informer = new Informer(kube.vmSnapshots, {
    namespace: options.namespace,
    resyncPeriodMs: RESYNC_MS,
    onError: (e: unknown) => {
      logger.warn({ error: e }, 'vmsnapshot informer failed');
    },
  });
  const snapshotsOf = (vm: ProxmoxVM): string[] =>
    informer
      .list()
      .filter((s) => s.metadata?.namespace === vm.metadata?.namespace && s.spec.vmRef === vm.metadata?.name)
      .map((s) => keyOf(s));
  const reconciler = new SnapshotReconciler({
    snapshots: kube.vmSnapshots,
    vms: kube.proxmoxVMs,
    instances: options.instances,
    logger,
    ...(options.taskTimeoutMs === undefined ? {} : { taskTimeoutMs: options.taskTimeoutMs }),
  });
  const controller = new Controller({
    name: CONTROLLER_NAME,
    reconciler: options.metrics.instrument(CONTROLLER_NAME, reconciler),
    sources: [fromInformer(informer), fromInformer(options.vmInformer, snapshotsOf)],
    workers: options.workers,
    backoff: { baseMs: 200, maxMs: 300_000, jitter: 0.2 },
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
  });
  return { controller, informer };
}
