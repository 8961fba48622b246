import type { Informer, KubeClient, VMBackup } from '@noderings/kube';
import { Controller, fromInformer } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import type { OperatorMetrics } from '../operator-metrics.js';
import { BackupReconciler } from './backup.reconciler.js';
import type { BackupReconcilerDeps } from './backup.reconciler.js';

const CONTROLLER_NAME = 'vmbackup';

export interface BackupControllerOptions extends Pick<
  BackupReconcilerDeps,
  'instances' | 'taskTimeoutMs' | 'lockWaitMs'
> {
  kube: Pick<KubeClient, 'proxmoxVMs' | 'vmBackups'>;
  backups: Informer<VMBackup>;
  workers: number;
  logger: Logger;
  metrics: OperatorMetrics;
  shutdownTimeoutMs?: number;
}

/** Watches VMBackups and feeds their keys to the BackupReconciler. */
export function createBackupController(options: BackupControllerOptions): Controller {
  const reconciler = new BackupReconciler({
    backups: options.kube.vmBackups,
    vms: options.kube.proxmoxVMs,
    instances: options.instances,
    logger: options.logger,
    ...(options.taskTimeoutMs === undefined ? {} : { taskTimeoutMs: options.taskTimeoutMs }),
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
  });
  return new Controller({
    name: CONTROLLER_NAME,
    reconciler: options.metrics.instrument(CONTROLLER_NAME, reconciler),
    sources: [fromInformer(options.backups)],
    workers: options.workers,
    backoff: { baseMs: 200, maxMs: 300_000, jitter: 0.2 },
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
  });
}
