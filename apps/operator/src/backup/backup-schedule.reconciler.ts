import { CronSchedule } from '@noderings/domain';
import type {
  ObjectRef,
  ProxmoxVM,
  ReconcileResult,
  Reconciler,
  ResourceClient,
  VMBackup,
} from '@noderings/kube';
import {
  KubeAlreadyExistsError,
  CRD_API_VERSION,
  DONE,
  KubeNotFoundError,
  SCHEDULED_BACKUP_LABEL,
  TerminalError,
  VM_REF_LABEL,
  isBeingDeleted,
  parseObjectKey,
} from '@noderings/kube';
import type { Logger } from '@noderings/log';

import { scheduledBackupName } from './backup-schedule.js';

/** The schedule slot a scheduled VMBackup was made for (RFC 3339). */
const SCHEDULED_AT_ANNOTATION = 'vm.noderings.com/scheduled-at';
const DEFAULT_COMPRESSION = 'zstd';
/** Longest sleep between two looks at a schedule, so a far-away run never overflows a timer. */
const MAX_WAIT_MS = 60 * 60_000;

export interface BackupScheduleReconcilerDeps {
  vms: Pick<ResourceClient<ProxmoxVM>, 'find'>;
  backups: Pick<ResourceClient<VMBackup>, 'create' | 'delete' | 'list'>;
  logger: Logger;
  /** The time the schedule is judged by. Default: the system clock. */
  clock?: () => Date;
}

/**
 * Keyed by ProxmoxVM: creates a VMBackup for each run of `spec.backupPolicy.schedule` (named after the
 * slot, owned by the VM), deletes the oldest completed scheduled ones beyond `retention`, and comes
 * back at the next run. Runs before the VM existed are not owed; after an outage only the latest
 * missed run is made up.
 */
export class BackupScheduleReconciler implements Reconciler {
  constructor(private readonly deps: BackupScheduleReconcilerDeps) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const vm = await this.deps.vms.find(ref, signal);
    const policy = vm?.spec.backupPolicy;
    if (vm === undefined || policy === undefined || isBeingDeleted(vm)) return DONE;
    let schedule: CronSchedule;
    try {
      schedule = CronSchedule.parse(policy.schedule);
    } catch (e: unknown) {
      throw new TerminalError('InvalidSchedule', e instanceof Error ? e.message : String(e), { cause: e });
    }
    const log = this.deps.logger.child({ controller: 'backup-schedule', key });
    const now = this.deps.clock?.() ?? new Date();
    const scheduled = await this.#scheduledBackups(ref, vm, signal);
    await this.#createDue(vm, schedule, scheduled, now, log);
    await this.#prune(scheduled, policy.retention, signal, log);
    const next = schedule.nextRun(now);
    if (next === undefined) return DONE;
    return { requeueAfter: Math.min(MAX_WAIT_MS, next.getTime() - now.getTime()) };
  }

  async #scheduledBackups(ref: ObjectRef, vm: ProxmoxVM, signal: AbortSignal): Promise<VMBackup[]> {
    const { items } = await this.deps.backups.list(ref.namespace, {
      labelSelector: `${VM_REF_LABEL}=${ref.name},${SCHEDULED_BACKUP_LABEL}=true`,
      signal,
    });
    return items.filter((b) => b.metadata?.ownerReferences?.some((o) => o.uid === vm.metadata?.uid));
  }

  async #createDue(
    vm: ProxmoxVM,
    schedule: CronSchedule,
    scheduled: readonly VMBackup[],
    now: Date,
    log: Logger,
  ): Promise<void> {
    const run = schedule.lastRun(now);
    const createdAt = Date.parse(vm.metadata?.creationTimestamp ?? '');
    if (run === undefined || run.getTime() < createdAt) return;
    if (scheduled.some((b) => (scheduledAt(b) ?? 0) >= run.getTime())) return;
    const name = scheduledBackupName(vm.metadata?.name ?? '', run);
    const policy = vm.spec.backupPolicy;
    if (policy === undefined) return;
    try {
      await this.deps.backups.create({
        apiVersion: CRD_API_VERSION,
        kind: 'VMBackup',
        metadata: {
          name,
          namespace: vm.metadata?.namespace,
          labels: { [VM_REF_LABEL]: vm.metadata?.name ?? '', [SCHEDULED_BACKUP_LABEL]: 'true' },
          annotations: { [SCHEDULED_AT_ANNOTATION]: run.toISOString() },
          ownerReferences: [
            {
              apiVersion: CRD_API_VERSION,
              kind: 'ProxmoxVM',
              name: vm.metadata?.name ?? '',
              uid: vm.metadata?.uid ?? '',
              controller: true,
              blockOwnerDeletion: true,
            },
          ],
        },
        spec: {
          vmRef: vm.metadata?.name ?? '',
          storage: policy.storage,
          compression: policy.compression ?? DEFAULT_COMPRESSION,
          mode: 'snapshot',
        },
      });
      log.info({ name, run: run.toISOString() }, 'scheduled backup created');
    } catch (e: unknown) {
      if (!(e instanceof KubeAlreadyExistsError)) throw e;
    }
  }

  /** Deletes the oldest completed scheduled backups beyond `retention`; their finalizer removes the archives. */
  async #prune(
    scheduled: readonly VMBackup[],
    retention: number,
    signal: AbortSignal,
    log: Logger,
  ): Promise<void> {
    const completed = scheduled
      .filter((b) => b.status?.phase === 'Completed' && !isBeingDeleted(b))
      .sort((a, b) => (scheduledAt(b) ?? 0) - (scheduledAt(a) ?? 0));
    for (const backup of completed.slice(retention)) {
      const { name = '', namespace = '', uid } = backup.metadata ?? {};
      try {
        await this.deps.backups.delete({ namespace, name }, { preconditions: { uid }, signal });
        log.info({ name, volid: backup.status?.volid }, 'scheduled backup pruned');
      } catch (e: unknown) {
        if (!(e instanceof KubeNotFoundError)) throw e;
      }
    }
  }
}

function scheduledAt(backup: VMBackup): number | undefined {
  const value = backup.metadata?.annotations?.[SCHEDULED_AT_ANNOTATION];
  return value === undefined ? undefined : Date.parse(value);
}
