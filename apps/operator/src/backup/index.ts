import type { Controller, KubeClient, ProxmoxVM, VMBackup } from '@noderings/kube';
import { Informer } from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient } from '@noderings/proxmox';

import type { OperatorMetrics } from '../operator-metrics.js';
import { createBackupScheduleController } from './backup-schedule.controller.js';
import { createBackupController } from './backup.controller.js';

const RESYNC_MS = 10 * 60_000;

export interface BackupControllersOptions {
  kube: Pick<KubeClient, 'proxmoxVMs' | 'vmBackups'>;
  namespace: string;
  workers: number;
  logger: Logger;
  metrics: OperatorMetrics;
  instances: { get(instance: string): ProxmoxClient };
  shutdownTimeoutMs?: number;
  taskTimeoutMs?: number;
  lockWaitMs?: number;
}

type CacheSource = Pick<Informer<VMBackup>, 'start' | 'hasSynced' | 'stop'>;

/** The VMBackup controller and the backup schedules of ProxmoxVMs, sharing one VMBackup informer. */
export function createBackupControllers(
  options: BackupControllersOptions,
): { controller: Controller; informers: CacheSource[] }[] {
  const { kube, namespace, logger } = options;
  const onError = (what: string) => (e: unknown) => {
    logger.warn({ error: e }, `${what} informer failed`);
  };
  const backups = new Informer<VMBackup>(kube.vmBackups, {
    namespace,
    resyncPeriodMs: RESYNC_MS,
    onError: onError('vmbackup'),
  });
  const vms = new Informer<ProxmoxVM>(kube.proxmoxVMs, {
    namespace,
    resyncPeriodMs: RESYNC_MS,
    onError: onError('backup schedule proxmoxvm'),
  });
  const common = {
    kube,
    workers: options.workers,
    logger,
    metrics: options.metrics,
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
  };
  return [
    {
      controller: createBackupController({
        ...common,
        backups,
        instances: options.instances,
        ...(options.taskTimeoutMs === undefined ? {} : { taskTimeoutMs: options.taskTimeoutMs }),
        ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
      }),
      informers: [backups],
    },
    { controller: createBackupScheduleController({ ...common, vms, backups }), informers: [vms] },
  ];
}
