import type { Informer, KubeClient, ProxmoxVM, VMBackup } from '@noderings/kube';
import { Controller, SCHEDULED_BACKUP_LABEL, VM_REF_LABEL, fromInformer, objectKey } from '@noderings/kube';
import type { Logger } from '@noderings/log';

import type { OperatorMetrics } from '../operator-metrics.js';
import { BackupScheduleReconciler } from './backup-schedule.reconciler.js';

const CONTROLLER_NAME = 'backup-schedule';

export interface BackupScheduleControllerOptions {
  kube: Pick<KubeClient, 'proxmoxVMs' | 'vmBackups'>;
  vms: Informer<ProxmoxVM>;
  backups: Informer<VMBackup>;
  workers: number;
  logger: Logger;
  metrics: OperatorMetrics;
  shutdownTimeoutMs?: number;
}

/**
 * Keyed by ProxmoxVM: runs its backup schedule. A change to one of its scheduled VMBackups (one that
 * completes, say) wakes it too, so retention is applied without waiting for the next run.
 */
export function createBackupScheduleController(options: BackupScheduleControllerOptions): Controller {
  const reconciler = new BackupScheduleReconciler({
    vms: options.kube.proxmoxVMs,
    backups: options.kube.vmBackups,
    logger: options.logger,
  });
  const owningVm = (backup: VMBackup): string[] => {
    const labels = backup.metadata?.labels ?? {};
    const vm = labels[VM_REF_LABEL];
    const namespace = backup.metadata?.namespace;
    if (labels[SCHEDULED_BACKUP_LABEL] !== 'true' || vm === undefined || namespace === undefined) return [];
    return [objectKey({ namespace, name: vm })];
  };
  return new Controller({
    name: CONTROLLER_NAME,
    reconciler: options.metrics.instrument(CONTROLLER_NAME, reconciler),
    sources: [fromInformer(options.vms), fromInformer(options.backups, owningVm)],
    workers: options.workers,
    backoff: { baseMs: 1_000, maxMs: 300_000, jitter: 0.2 },
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
  });
}
