import type { KubeClient, VNCRequest } from '@noderings/kube';
import { Controller, Informer, fromInformer } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import type { OperatorMetrics } from '../operator-metrics.js';
import { VncReconciler } from './vnc.reconciler.js';
import type { VncReconcilerDeps } from './vnc.reconciler.js';

const CONTROLLER_NAME = 'vncrequest';
const RESYNC_MS = 10 * 60_000;

export interface VncControllerOptions extends Pick<VncReconcilerDeps, 'instances' | 'graceMs'> {
  kube: Pick<KubeClient, 'vncRequests' | 'proxmoxVMs'>;
  namespace: string;
  workers: number;
  logger: Logger;
  metrics: OperatorMetrics;
  shutdownTimeoutMs?: number;
}

/** Watches VNCRequests in the namespace and feeds their keys to the VncReconciler. */
export function createVncController(options: VncControllerOptions): {
  controller: Controller;
  informer: Informer<VNCRequest>;
} {
  const { kube, logger } = options;
  const informer = new Informer(kube.vncRequests, {
    namespace: options.namespace,
    resyncPeriodMs: RESYNC_MS,
    onError: (e: unknown) => {
      logger.warn({ error: e }, 'vncrequest informer failed');
    },
  });
  const reconciler = new VncReconciler({
    requests: kube.vncRequests,
    vms: kube.proxmoxVMs,
    instances: options.instances,
    logger,
    ...(options.graceMs === undefined ? {} : { graceMs: options.graceMs }),
  });
  const controller = new Controller({
    name: CONTROLLER_NAME,
    reconciler: options.metrics.instrument(CONTROLLER_NAME, reconciler),
    sources: [fromInformer(informer)],
    workers: options.workers,
    backoff: { baseMs: 200, maxMs: 60_000, jitter: 0.2 },
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
  });
  return { controller, informer };
}
