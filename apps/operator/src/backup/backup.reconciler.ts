import type {
  ConditionUpdate,
  ObjectRef,
  ReconcileResult,
  Reconciler,
  VMBackup,
  VMBackupStatus,
} from '@noderings/kube';
import {
  DONE,
  TerminalError,
  ensureFinalizer,
  hasFinalizer,
  isBeingDeleted,
  parseObjectKey,
  removeFinalizer,
  updateStatus,
} from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient } from '@noderings/proxmox';
import { LockedError, PveNotFoundError, TaskFailedError, parseUpid } from '@noderings/proxmox';

import { DEFAULT_LOCK_WAIT_MS, lockReleased, waitForLock } from '../guest-lock.js';
import { guestName, nrGuard } from '../nr-guard.js';
import { OperatorError } from '../operator-error.js';
import { DEFAULT_INSTANCE } from '../proxmox-instances.js';
import { withFailureRecording } from '../with-failure-recording.js';
import type { ArchiveLocation } from './backup-archive.js';
import {
  archiveLocationAnnotations,
  findTaskArchive,
  listArchives,
  readArchiveLocation,
  storageOf,
} from './backup-archive.js';
import { BackupRestorer } from './backup-restorer.js';
import type { BackupRestorerDeps } from './backup-restorer.js';
import {
  READY,
  backupFailedStatus,
  stripUndefined,
  taskFailureMessage,
  withConditions,
} from './backup-status.js';

const BACKUP_FINALIZER = 'vm.noderings.com/proxmox-backup';
const DEFAULT_COMPRESSION = 'zstd';
/** How soon to look again while the guest is not there yet or busy. */
const WAIT_MS = 5_000;

export interface BackupReconcilerDeps extends BackupRestorerDeps {
  logger: Logger;
  clock?: () => Date;
  /** Longest wait for a lock of our own operations on the guest. Default 30 minutes. */
  lockWaitMs?: number;
}

/** A backup that cannot start yet, with why (recorded as the Ready condition's reason). */
interface Wait {
  reason: string;
  message: string;
  /** Conditions besides Ready that explain the wait. */
  conditions?: ConditionUpdate[];
  retryAfterMs?: number;
}

/**
 * Drives a VMBackup: one vzdump of its ProxmoxVM's guest (NR-guarded; the task id is stored before
 * waiting, so a restart resumes it), the archive recorded once written and never made again; then any
 * restore asked for; and on deletion, the archive removed before the object goes.
 */
export class BackupReconciler implements Reconciler {
  readonly #restorer: BackupRestorer;

  constructor(private readonly deps: BackupReconcilerDeps) {
    this.#restorer = new BackupRestorer(deps);
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const found = await this.deps.backups.find(ref, signal);
    if (found === undefined) return DONE;
    const log = this.deps.logger.child({ controller: 'vmbackup', key });
    if (isBeingDeleted(found)) return this.#finalize(ref, found, signal, log);
    let backup = await ensureFinalizer(this.deps.backups, found, BACKUP_FINALIZER);
    const phase = backup.status?.phase;
    if (phase !== 'Completed' && phase !== 'Failed') {
      const outcome = await withFailureRecording(() => this.#backUp(ref, backup, signal, log), {
        signal,
        log,
        msg: 'backup failed',
        record: (failure) =>
          updateStatus(this.deps.backups, ref, (current) =>
            stripUndefined(backupFailedStatus(current, failure)),
          ),
      });
      if (!('spec' in outcome)) return outcome;
      backup = outcome;
    }
    return this.#restorer.reconcile(ref, backup, signal, log);
  }

  // Back up

  /** Starts or resumes the vzdump; the updated object once Completed, or when to look again. */
  async #backUp(
    ref: ObjectRef,
    backup: VMBackup,
    signal: AbortSignal,
    log: Logger,
  ): Promise<VMBackup | ReconcileResult> {
    let upid = backup.status?.taskRef;
    let location = readArchiveLocation(backup);
    if (upid === undefined || location === undefined) {
      const started = await this.#start(ref, backup, signal, log);
      if ('reason' in started) return this.#wait(ref, signal, started);
      ({ upid, location } = started);
    } else {
      log.info({ upid }, 'waiting for stored vzdump task');
    }
    const pve = this.deps.instances.get(location.instance);
    try {
      await pve.waitForTask(location.node, upid, { signal, timeoutMs: this.#taskTimeoutMs });
    } catch (e: unknown) {
      if (e instanceof TaskFailedError && e.reason instanceof LockedError) {
        // Another operation took the lock between our look and vzdump's: wait for it as for any lock.
        log.info({ upid, lock: e.reason.lock }, 'vzdump met a lock');
        const current = await this.#setStatus(ref, signal, (s) => ({ ...s, taskRef: undefined }));
        return this.#wait(ref, signal, this.#lockWait(current, location.vmid, e.reason.lock));
      }
      if (e instanceof TaskFailedError)
        throw new TerminalError('BackupFailed', taskFailureMessage(e), { cause: e });
      // Proxmox no longer knows the task: forget it, so that the next run starts a backup again.
      if (e instanceof PveNotFoundError)
        await this.#setStatus(ref, signal, (s) => ({ ...s, taskRef: undefined }));
      throw e;
    }
    const { storage } = backup.spec;
    const archive = await findTaskArchive(pve, location, storage, parseUpid(upid).starttime);
    if (archive === undefined) {
      throw new TerminalError(
        'ArchiveNotFound',
        `vzdump task ${upid} finished but no backup of VMID ${location.vmid} appeared on storage '${storage}'`,
      );
    }
    log.info({ volid: archive.volid, bytes: archive.size }, 'backup completed');
    return this.#setStatus(ref, signal, (s, b) => ({
      ...s,
      phase: 'Completed',
      volid: archive.volid,
      sizeBytes: archive.size,
      finishedAt: this.#now(),
      taskRef: undefined,
      message: undefined,
      observedGeneration: b.metadata?.generation,
      conditions: withConditions(b, [
        { type: READY, status: 'True', reason: 'Completed', message: `archive ${archive.volid}` },
      ]),
    }));
  }

  /** Checks the guest, records where the archive goes, starts vzdump and stores its task id. */
  async #start(
    ref: ObjectRef,
    backup: VMBackup,
    signal: AbortSignal,
    log: Logger,
  ): Promise<{ upid: string; location: ArchiveLocation } | Wait> {
    const { spec } = backup;
    const vm = await this.deps.vms.find({ namespace: ref.namespace, name: spec.vmRef }, signal);
    if (vm === undefined) {
      return { reason: 'VmNotFound', message: `ProxmoxVM '${spec.vmRef}' does not exist` };
    }
    if (isBeingDeleted(vm))
      throw new TerminalError('VmDeleting', `ProxmoxVM '${spec.vmRef}' is being deleted`);
    const { node, vmid } = vm.spec;
    const instance = vm.spec.instance ?? DEFAULT_INSTANCE;
    const pve = this.deps.instances.get(instance);
    const verdict = await nrGuard(pve, node, vmid, vm.spec.vmId);
    if (verdict === 'foreign') {
      throw new TerminalError(
        'VmidConflict',
        `VMID ${vmid} on node '${node}' holds a guest that is not ${guestName(vm.spec.vmId)}; it is never backed up`,
      );
    }
    if (verdict === 'absent') {
      return { reason: 'GuestNotFound', message: `guest VMID ${vmid} does not exist on node '${node}' yet` };
    }
    const lock = (await pve.getVmConfig(node, vmid)).lock;
    if (lock !== undefined) return this.#lockWait(backup, vmid, lock);
    const storages = await pve.getStorages(node);
    if (!storages.some((s) => s.storage === spec.storage && s.content.split(',').includes('backup'))) {
      throw new OperatorError(
        'STORAGE_NOT_FOUND',
        `storage '${spec.storage}' for backups does not exist on node '${node}'`,
      );
    }
    const target = { instance, node, vmid };
    await this.deps.backups.mergePatch(ref, {
      metadata: { annotations: archiveLocationAnnotations(target) },
    });
    const compression = spec.compression ?? vm.spec.backupPolicy?.compression ?? DEFAULT_COMPRESSION;
    const result = await pve.vzdump(node, {
      vmid,
      mode: 'snapshot',
      storage: spec.storage,
      compress: compression === 'none' ? '0' : compression,
    });
    if (result.kind === 'not-on-this-node') {
      throw new TerminalError('GuestNotOnNode', `guest VMID ${vmid} does not live on node '${node}'`);
    }
    log.info({ vmid, storage: spec.storage, compression, upid: result.upid }, 'vzdump started');
    await this.#setStatus(ref, signal, (s, b) => ({
      ...s,
      phase: 'Running',
      taskRef: result.upid,
      startedAt: new Date(parseUpid(result.upid).starttime * 1000).toISOString(),
      message: undefined,
      conditions: withConditions(
        b,
        [
          { type: READY, status: 'False', reason: 'Running', message: `vzdump task ${result.upid}` },
          ...lockReleased(b.status?.conditions),
        ],
        this.#clock(),
      ),
    }));
    return { upid: result.upid, location: target };
  }

  /** A wait for the guest's lock, or a terminal error when it is not ours or was waited for too long. */
  #lockWait(backup: VMBackup, vmid: number, lock: string): Wait {
    const limitMs = this.deps.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
    const wait = waitForLock({
      lock,
      vmid,
      work: 'the backup',
      conditions: backup.status?.conditions,
      now: this.#clock(),
      limitMs,
    });
    return {
      reason: 'WaitingForLock',
      message: wait.condition.message,
      conditions: [wait.condition],
      retryAfterMs: Math.max(1, Math.min(WAIT_MS, wait.remainingMs)),
    };
  }

  /** Records why the backup cannot start yet and when to look again. */
  async #wait(ref: ObjectRef, signal: AbortSignal, wait: Wait): Promise<ReconcileResult> {
    const { reason, message } = wait;
    await this.#setStatus(ref, signal, (s, b) => ({
      ...s,
      phase: 'Pending',
      message,
      conditions: withConditions(
        b,
        [{ type: READY, status: 'False', reason, message }, ...(wait.conditions ?? [])],
        this.#clock(),
      ),
    }));
    return { requeueAfter: wait.retryAfterMs ?? WAIT_MS };
  }

  // Delete

  async #finalize(
    ref: ObjectRef,
    backup: VMBackup,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    if (!hasFinalizer(backup, BACKUP_FINALIZER)) return DONE;
    const location = readArchiveLocation(backup);
    if (location !== undefined) {
      let volid = backup.status?.volid;
      const upid = backup.status?.taskRef;
      const pve = this.deps.instances.get(location.instance);
      if (upid !== undefined) {
        // A task still running would leave its archive behind (or restore from a deleted one).
        await pve
          .waitForTask(location.node, upid, { signal, timeoutMs: this.#taskTimeoutMs })
          .catch((e: unknown) => {
            if (!(e instanceof TaskFailedError || e instanceof PveNotFoundError)) throw e;
          });
        volid ??= (await findTaskArchive(pve, location, backup.spec.storage, parseUpid(upid).starttime))
          ?.volid;
      }
      if (volid !== undefined) await this.#deleteArchive(pve, location, volid, signal, log);
    }
    await removeFinalizer(this.deps.backups, await this.deps.backups.get(ref, signal), BACKUP_FINALIZER);
    return DONE;
  }

  /** Deletes the archive if it is still listed as a backup of the VMID it was made of. */
  async #deleteArchive(
    pve: ProxmoxClient,
    location: ArchiveLocation,
    volid: string,
    signal: AbortSignal,
    log: Logger,
  ): Promise<void> {
    const storage = storageOf(volid);
    if (!(await listArchives(pve, location, storage)).some((v) => v.volid === volid)) return;
    const upid = await pve.deleteVolume(location.node, storage, volid);
    await pve.waitForTask(location.node, upid, { signal, timeoutMs: this.#taskTimeoutMs });
    log.info({ volid }, 'archive deleted');
  }

  // Shared

  get #taskTimeoutMs(): number {
    return this.deps.taskTimeoutMs ?? 600_000;
  }

  #clock(): Date {
    return this.deps.clock?.() ?? new Date();
  }

  #now(): string {
    return this.#clock().toISOString();
  }

  async #setStatus(
    ref: ObjectRef,
    signal: AbortSignal,
    desired: (status: VMBackupStatus, backup: VMBackup) => VMBackupStatus,
  ): Promise<VMBackup> {
    return updateStatus(
      this.deps.backups,
      ref,
      (current) => stripUndefined(desired(current.status ?? {}, current)),
      { signal },
    );
  }
}
