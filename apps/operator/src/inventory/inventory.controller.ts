import type { Informer, KubeClient, Secret } from '@noderings/kube';
import { Controller, PROXMOX_INSTANCE_LABEL, fromInformer } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import type { OperatorMetrics } from '../operator-metrics.js';
import { InventoryReconciler } from './inventory.reconciler.js';
import type { InventoryReconcilerDeps } from './inventory.reconciler.js';

const CONTROLLER_NAME = 'proxmoxinventory';

export interface InventoryControllerOptions extends Pick<InventoryReconcilerDeps, 'instances' | 'refreshMs'> {
  kube: Pick<KubeClient, 'proxmoxInventories'>;
  /** The credential Secrets' informer: an inventory per instance label, in the watch namespace. */
  credentials: Informer<Secret>;
  namespace: string;
  logger: Logger;
  metrics: OperatorMetrics;
  shutdownTimeoutMs?: number;
}

/** Keeps one ProxmoxInventory per Proxmox instance, keyed by the instances' credential Secrets. */
export function createInventoryController(options: InventoryControllerOptions): Controller {
  const reconciler = new InventoryReconciler({
    inventories: options.kube.proxmoxInventories,
    instances: options.instances,
    logger: options.logger,
    ...(options.refreshMs === undefined ? {} : { refreshMs: options.refreshMs }),
  });
  const keysOf = (secret: Secret): string[] => {
    const instance = secret.metadata?.labels?.[PROXMOX_INSTANCE_LABEL];
    return instance === undefined ? [] : [`${options.namespace}/${instance}`];
  };
  return new Controller({
    name: CONTROLLER_NAME,
    reconciler: options.metrics.instrument(CONTROLLER_NAME, reconciler),
    sources: [fromInformer(options.credentials, keysOf)],
    workers: 1,
    backoff: { baseMs: 1_000, maxMs: 60_000, jitter: 0.2 },
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
  });
}
