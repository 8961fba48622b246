import type {
  ObjectRef,
  ProxmoxVM,
  ReconcileResult,
  ResourceClient,
  VMBackup,
  VMBackupStatus,
} from '@noderings/kube';
import { DONE, TerminalError, isBeingDeleted, updateStatus } from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient } from '@noderings/proxmox';
import { PveNotFoundError, TaskFailedError, VmNotRunningError, VmRunningError } from '@noderings/proxmox';

import { guestName, nrGuard } from '../nr-guard.js';
import { OperatorError } from '../operator-error.js';
import { DEFAULT_INSTANCE } from '../proxmox-instances.js';
import { withFailureRecording } from '../with-failure-recording.js';
import { listArchives, storageOf } from './backup-archive.js';
import {
  RESTORED,
  isNewer,
  restoreFailedStatus,
  stripUndefined,
  taskFailureMessage,
  withConditions,
} from './backup-status.js';

export interface BackupRestorerDeps {
  backups: ResourceClient<VMBackup>;
  vms: Pick<ResourceClient<ProxmoxVM>, 'find'>;
  instances: { get(instance: string): ProxmoxClient };
  /** Longest wait for one Proxmox task. Default 10 minutes. */
  taskTimeoutMs?: number;
}

/** The guest a restore overwrites, and the request being served. */
interface Target {
  ref: ObjectRef;
  pve: ProxmoxClient;
  node: string;
  vmid: number;
  vmId: string;
  volid: string;
  requestedAt: string;
  start: boolean;
  signal: AbortSignal;
}

/**
 * Serves `spec.restore` of a completed VMBackup once per `requestedAt`: restores the archive onto the
 * same VMID (force, the backup's MAC kept), only over our own guest, stopping it first since Proxmox
 * refuses to restore over a running VM; the guest is started afterwards if asked.
 */
export class BackupRestorer {
  constructor(private readonly deps: BackupRestorerDeps) {}

  async reconcile(
    ref: ObjectRef,
    backup: VMBackup,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    const request = backup.spec.restore;
    if (request === undefined || !isAsked(backup, request.requestedAt)) return DONE;
    return withFailureRecording(
      async () => {
        await this.#restore(ref, backup, request.requestedAt, request.start ?? true, signal, log);
        return DONE;
      },
      {
        signal,
        log,
        msg: 'restore failed',
        record: (failure) =>
          updateStatus(this.deps.backups, ref, (current) =>
            stripUndefined(restoreFailedStatus(current, failure, request.requestedAt)),
          ),
      },
    );
  }

  async #restore(
    ref: ObjectRef,
    backup: VMBackup,
    requestedAt: string,
    start: boolean,
    signal: AbortSignal,
    log: Logger,
  ): Promise<void> {
    const { status, spec } = backup;
    const volid = status?.volid;
    if (status?.phase !== 'Completed' || volid === undefined) {
      throw new TerminalError(
        'BackupNotCompleted',
        `the backup is ${status?.phase ?? 'Pending'}: nothing to restore`,
      );
    }
    const vm = await this.deps.vms.find({ namespace: ref.namespace, name: spec.vmRef }, signal);
    if (vm === undefined || isBeingDeleted(vm)) {
      throw new TerminalError('VmNotFound', `ProxmoxVM '${spec.vmRef}' does not exist`);
    }
    const t: Target = {
      ref,
      pve: this.deps.instances.get(vm.spec.instance ?? DEFAULT_INSTANCE),
      node: vm.spec.node,
      vmid: vm.spec.vmid,
      vmId: vm.spec.vmId,
      volid,
      requestedAt,
      start,
      signal,
    };
    const stored = status.restore?.phase === 'Running' ? status.taskRef : undefined;
    const upid = stored ?? (await this.#start(t, log));
    try {
      await this.#wait(t, upid);
    } catch (e: unknown) {
      if (e instanceof TaskFailedError && !(e.reason instanceof VmRunningError)) {
        throw new TerminalError('RestoreFailed', taskFailureMessage(e), { cause: e });
      }
      if (e instanceof TaskFailedError || e instanceof PveNotFoundError) {
        // Started again in between, or the task is unknown: the next run stops the guest and restores anew.
        await this.#setRestore(
          t,
          'Pending',
          `restore task ${upid} did not finish: ${e.pveMessage}`,
          undefined,
        );
      }
      throw e;
    }
    log.info({ volid, vmid: t.vmid, started: start }, 'restored');
    await this.#setRestore(t, 'Completed', `restored from ${volid}`, undefined);
  }

  /** Guards, checks the archive, stops the guest and starts the restore; returns its task id. */
  async #start(t: Target, log: Logger): Promise<string> {
    await this.#guard(t);
    if (!(await listArchives(t.pve, t, storageOf(t.volid))).some((v) => v.volid === t.volid)) {
      throw new TerminalError(
        'ArchiveNotFound',
        `${t.volid} is not a backup of VMID ${t.vmid} on node '${t.node}'`,
      );
    }
    if ((await t.pve.getVmStatus(t.node, t.vmid)).status === 'running') {
      await this.#setRestore(t, 'Pending', 'stopping the guest to restore over it', undefined);
      await this.#guard(t);
      try {
        await this.#wait(t, await t.pve.stopVm(t.node, t.vmid));
      } catch (e: unknown) {
        if (
          !(e instanceof VmNotRunningError) &&
          !(e instanceof TaskFailedError && e.reason instanceof VmNotRunningError)
        )
          throw e;
      }
      log.info({ vmid: t.vmid }, 'stopped for restore');
    }
    await this.#guard(t);
    const upid = await t.pve.restoreVm(t.node, {
      vmid: t.vmid,
      archive: t.volid,
      force: true,
      unique: false,
      start: t.start,
    });
    log.info({ volid: t.volid, vmid: t.vmid, upid }, 'restore started');
    await this.#setRestore(t, 'Running', `restoring ${t.volid}`, upid);
    return upid;
  }

  /** Only our own guest is ever overwritten; one that is missing is waited for. */
  async #guard(t: Target): Promise<void> {
    const verdict = await nrGuard(t.pve, t.node, t.vmid, t.vmId);
    if (verdict === 'foreign') {
      throw new TerminalError(
        'VmidConflict',
        `VMID ${t.vmid} on node '${t.node}' holds a guest that is not ${guestName(t.vmId)}; it is never restored over`,
      );
    }
    if (verdict === 'absent') {
      throw new OperatorError('GUEST_BUSY', `guest VMID ${t.vmid} does not exist on node '${t.node}'`);
    }
  }

  async #wait(t: Target, upid: string): Promise<void> {
    await t.pve.waitForTask(t.node, upid, {
      signal: t.signal,
      timeoutMs: this.deps.taskTimeoutMs ?? 600_000,
    });
  }

  async #setRestore(
    t: Target,
    phase: NonNullable<VMBackupStatus['restore']>['phase'],
    message: string,
    taskRef: string | undefined,
  ): Promise<void> {
    await updateStatus(
      this.deps.backups,
      t.ref,
      (current) =>
        stripUndefined({
          ...current.status,
          taskRef,
          restore: { phase, requestedAt: t.requestedAt, message },
          conditions: withConditions(current, [
            phase === 'Completed'
              ? { type: RESTORED, status: 'True', reason: 'Restored', message }
              : {
                  type: RESTORED,
                  status: 'False',
                  reason: phase === 'Running' ? 'Restoring' : 'Stopping',
                  message,
                },
          ]),
        }),
      { signal: t.signal },
    );
  }
}

/** A request newer than the last one served, or the one still being served. */
function isAsked(backup: VMBackup, requestedAt: string): boolean {
  const served = backup.status?.restore;
  if (isNewer(requestedAt, served?.requestedAt)) return true;
  const same =
    served?.requestedAt !== undefined && Date.parse(served.requestedAt) === Date.parse(requestedAt);
  return same && (served.phase === 'Pending' || served.phase === 'Running');
}
