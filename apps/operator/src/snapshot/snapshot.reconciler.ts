import type {
  ConditionUpdate,
  ObjectRef,
  ProxmoxVM,
  ReconcileResult,
  Reconciler,
  ResourceClient,
  VMSnapshot,
  VMSnapshotStatus,
} from '@noderings/kube';
import {
  DONE,
  TerminalError,
  ensureFinalizer,
  hasFinalizer,
  isBeingDeleted,
  isConditionTrue,
  parseObjectKey,
  removeFinalizer,
  setCondition,
  updateStatus,
} from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient } from '@noderings/proxmox';
import { PveNotFoundError, TaskFailedError } from '@noderings/proxmox';

import type { ReconcileFailure } from '../error-mapping.js';
import type { GuardVerdict } from '../nr-guard.js';
import { guestName, nrGuard } from '../nr-guard.js';
import { OperatorError } from '../operator-error.js';
import { DEFAULT_INSTANCE } from '../proxmox-instances.js';
import { PROVISIONED } from '../proxmoxvm/vm-status.js';
import { withFailureRecording } from '../with-failure-recording.js';
import { snapshotNameProblem } from './snapshot-name.js';

const SNAPSHOT_FINALIZER = 'vm.noderings.com/proxmox-snapshot';
/** How often a snapshot waiting for its VM looks again, besides reacting to the VM's own changes. */
const VM_WAIT_MS = 30_000;
const READY = 'Ready';
/** True once the Proxmox snapshot was made (or found made): from then on a missing one is reported. */
const CREATED = 'Created';

export interface SnapshotReconcilerDeps {
  snapshots: ResourceClient<VMSnapshot>;
  vms: Pick<ResourceClient<ProxmoxVM>, 'find'>;
  instances: { get(instance: string): ProxmoxClient };
  logger: Logger;
  /** Longest wait for one Proxmox task. Default 10 minutes. */
  taskTimeoutMs?: number;
}

/** What one reconcile works on: the object, its VM's Proxmox client and where the guest lives. */
interface Target {
  ref: ObjectRef;
  snap: VMSnapshot;
  vm: ProxmoxVM;
  pve: ProxmoxClient;
  node: string;
  vmid: number;
  signal: AbortSignal;
  log: Logger;
}

/**
 * Keeps a Proxmox snapshot of the referenced ProxmoxVM's guest: creates it once the VM is provisioned,
 * rolls back when `spec.rollbackRequestedAt` is newer than `status.lastRollbackAt`, and deletes it
 * before the object goes. Every mutating call is preceded by the NR guard. A snapshot that disappears
 * from Proxmox after it was made is reported (SnapshotMissing), never recreated: a new one would hold a
 * different state under the old name, and a later rollback would silently restore that.
 */
export class SnapshotReconciler implements Reconciler {
  constructor(private readonly deps: SnapshotReconcilerDeps) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const snap = await this.deps.snapshots.find(ref, signal);
    if (snap === undefined) return DONE;
    const log = this.deps.logger.child({ controller: 'vmsnapshot', key });
    return withFailureRecording(
      () =>
        isBeingDeleted(snap)
          ? this.#finalize(ref, snap, signal, log)
          : this.#converge(ref, snap, signal, log),
      {
        signal,
        log,
        msg: 'reconcile failed',
        record: (failure, e) =>
          updateStatus(this.deps.snapshots, ref, (current) =>
            failedStatus(current, failure, e instanceof TaskFailedError),
          ),
      },
    );
  }

  // Create, check and roll back

  async #converge(
    ref: ObjectRef,
    original: VMSnapshot,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    const problem = snapshotNameProblem(original.spec.snapshotName);
    if (problem !== undefined) throw new TerminalError('InvalidSnapshotName', problem);
    const vm = await this.deps.vms.find({ namespace: ref.namespace, name: original.spec.vmRef }, signal);
    if (vm === undefined) {
      // Orders may arrive in any order: the VM can still come, and its informer wakes us when it does.
      return this.#waitForVm(ref, log, 'VmNotFound', `ProxmoxVM ${original.spec.vmRef} does not exist`);
    }
    const snap = await ensureFinalizer(this.deps.snapshots, original, SNAPSHOT_FINALIZER);
    const t = this.#target(ref, snap, vm, signal, log);
    await this.#resumeTask(t);
    if ((await this.#guard(t)) === 'absent') {
      return this.#waitForVm(ref, log, 'GuestNotFound', `VMID ${t.vmid} is not on node '${t.node}' yet`);
    }
    if (!(await this.#exists(t))) {
      if (isConditionTrue(t.snap.status?.conditions, CREATED)) {
        throw new TerminalError(
          'SnapshotMissing',
          `snapshot '${snap.spec.snapshotName}' no longer exists on VMID ${t.vmid}; it is not recreated, since a new one would hold a different state`,
        );
      }
      if (!isConditionTrue(vm.status?.conditions, PROVISIONED)) {
        return this.#waitForVm(
          ref,
          log,
          'VmNotProvisioned',
          `ProxmoxVM ${vm.metadata?.name ?? ''} is not provisioned yet`,
        );
      }
      await this.#create(t);
    }
    const requested = t.snap.spec.rollbackRequestedAt;
    if (requested !== undefined && isNewer(requested, t.snap.status?.lastRollbackAt)) {
      await this.#rollback(t, requested);
    }
    await this.#recordReady(t);
    return DONE;
  }

  /**
   * Waits for the task stored in status (started before a restart) instead of starting another; a
   * rollback or creation finished that way still answers the rollback request, as it would have.
   */
  async #resumeTask(t: Target): Promise<void> {
    const upid = t.snap.status?.taskRef;
    if (upid === undefined) return;
    const phase = t.snap.status?.phase;
    const answersRollback = phase === 'RollingBack' || phase === 'Creating';
    t.log.info({ upid }, 'waiting for stored task');
    try {
      await this.#wait(t, upid);
    } catch (e: unknown) {
      if (!(e instanceof PveNotFoundError)) {
        await this.#setStatus(t, (s) => ({ ...s, taskRef: undefined }));
        throw e;
      }
    }
    const requested = t.snap.spec.rollbackRequestedAt;
    await this.#setStatus(t, (s) => ({
      ...s,
      taskRef: undefined,
      ...(answersRollback && requested !== undefined ? { lastRollbackAt: requested } : {}),
    }));
  }

  async #exists(t: Target): Promise<boolean> {
    const snapshots = await t.pve.getSnapshots(t.node, t.vmid);
    return snapshots.some((s) => s.name === t.snap.spec.snapshotName);
  }

  async #create(t: Target): Promise<void> {
    const { snapshotName, description } = t.snap.spec;
    await this.#guarded(t);
    const upid = await t.pve.createSnapshot(t.node, t.vmid, {
      snapname: snapshotName,
      ...(description === undefined ? {} : { description }),
    });
    t.log.info({ vmid: t.vmid, snapshot: snapshotName, upid }, 'snapshot started');
    // A rollback asked for before the snapshot existed cannot mean this snapshot: creating it answers it.
    const requested = t.snap.spec.rollbackRequestedAt;
    await this.#runStoredTask(
      t,
      upid,
      'Creating',
      { type: READY, status: 'False', reason: 'Creating', message: `creating snapshot '${snapshotName}'` },
      requested === undefined ? {} : { lastRollbackAt: requested },
    );
    t.log.info({ vmid: t.vmid, snapshot: snapshotName }, 'snapshot created');
  }

  /**
   * Proxmox's rollback stops the guest; `start` brings it back when the ProxmoxVM wants it running, as
   * its own controller would on its next reconcile anyway.
   */
  async #rollback(t: Target, requested: string): Promise<void> {
    const { snapshotName } = t.snap.spec;
    const start = (t.vm.spec.powerState ?? 'Running') === 'Running';
    await this.#guarded(t);
    const upid = await t.pve.rollbackSnapshot(t.node, t.vmid, snapshotName, { start });
    t.log.info({ vmid: t.vmid, snapshot: snapshotName, requestedAt: requested, upid }, 'rollback started');
    await this.#runStoredTask(
      t,
      upid,
      'RollingBack',
      {
        type: READY,
        status: 'False',
        reason: 'RollingBack',
        message: `rolling back to snapshot '${snapshotName}'`,
      },
      { lastRollbackAt: requested },
    );
    t.log.info({ vmid: t.vmid, snapshot: snapshotName, started: start }, 'rolled back');
  }

  async #recordReady(t: Target): Promise<void> {
    const name = t.snap.spec.snapshotName;
    await this.#setStatus(t, (s, snap) => ({
      ...s,
      phase: 'Ready',
      message: undefined,
      taskRef: undefined,
      observedGeneration: snap.metadata?.generation,
      conditions: withConditions(snap, [
        { type: CREATED, status: 'True', reason: 'Created', message: `snapshot '${name}' exists` },
        {
          type: READY,
          status: 'True',
          reason: 'Ready',
          message: `snapshot '${name}' of VMID ${t.vmid} on node '${t.node}' exists`,
        },
      ]),
    }));
  }

  async #waitForVm(ref: ObjectRef, log: Logger, reason: string, message: string): Promise<ReconcileResult> {
    await updateStatus(this.deps.snapshots, ref, (current) =>
      stripUndefined({
        ...current.status,
        phase: 'Pending',
        message,
        observedGeneration: current.metadata?.generation,
        conditions: withConditions(current, [{ type: READY, status: 'False', reason, message }]),
      }),
    );
    log.info({ reason }, 'waiting for the VM');
    return { requeueAfter: VM_WAIT_MS };
  }

  // Delete

  async #finalize(
    ref: ObjectRef,
    snap: VMSnapshot,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    if (!hasFinalizer(snap, SNAPSHOT_FINALIZER)) return DONE;
    const vm = await this.deps.vms.find({ namespace: ref.namespace, name: snap.spec.vmRef }, signal);
    // Without its ProxmoxVM there is no guest of ours: its finalizer destroyed it with every snapshot.
    if (vm === undefined) return this.#release(ref, signal, log, 'vm-gone');
    let t: Target;
    try {
      t = this.#target(ref, snap, vm, signal, log);
    } catch (e: unknown) {
      // Nothing was ever made on Proxmox for this object, so there is nothing to remove.
      const created = isConditionTrue(snap.status?.conditions, CREATED);
      if (e instanceof OperatorError && !created && snap.status?.taskRef === undefined) {
        return this.#release(ref, signal, log, 'never-created');
      }
      throw e;
    }
    await this.#setStatus(t, (s) => ({ ...s, phase: 'Deleting' }));
    await this.#resumeTask(t).catch((e: unknown) => {
      if (!(e instanceof TaskFailedError)) throw e;
    });
    const verdict = await nrGuard(t.pve, t.node, t.vmid, vm.spec.vmId);
    if (verdict === 'foreign') {
      log.warn({ vmid: t.vmid }, 'not touching a foreign guest');
    } else if (verdict === 'ours') {
      await this.#deleteSnapshot(t);
    }
    return this.#release(ref, signal, log, verdict);
  }

  async #deleteSnapshot(t: Target): Promise<void> {
    const { snapshotName } = t.snap.spec;
    if (!(await this.#exists(t))) return;
    if ((await this.#guard(t)) === 'absent') return;
    let upid: string;
    try {
      upid = await t.pve.deleteSnapshot(t.node, t.vmid, snapshotName);
    } catch (e: unknown) {
      if (e instanceof PveNotFoundError) return;
      throw e;
    }
    try {
      await this.#runStoredTask(t, upid, 'Deleting', {
        type: READY,
        status: 'False',
        reason: 'Deleting',
        message: `deleting snapshot '${snapshotName}'`,
      });
    } catch (e: unknown) {
      if (!(e instanceof TaskFailedError && e.reason instanceof PveNotFoundError)) throw e;
    }
    t.log.info({ vmid: t.vmid, snapshot: snapshotName }, 'snapshot deleted');
  }

  async #release(
    ref: ObjectRef,
    signal: AbortSignal,
    log: Logger,
    verdict: string,
  ): Promise<ReconcileResult> {
    await removeFinalizer(
      this.deps.snapshots,
      await this.deps.snapshots.get(ref, signal),
      SNAPSHOT_FINALIZER,
    );
    log.info({ verdict }, 'finalized');
    return DONE;
  }

  // Shared steps

  #target(ref: ObjectRef, snap: VMSnapshot, vm: ProxmoxVM, signal: AbortSignal, log: Logger): Target {
    const pve = this.deps.instances.get(vm.spec.instance ?? DEFAULT_INSTANCE);
    const node = vm.status?.node ?? vm.spec.node;
    const vmid = vm.status?.vmid ?? vm.spec.vmid;
    return { ref, snap, vm, pve, node, vmid, signal, log };
  }

  /** Who holds the VMID; a foreign guest fails the reconcile, so it is never touched. */
  async #guard(t: Target): Promise<Exclude<GuardVerdict, 'foreign'>> {
    const verdict = await nrGuard(t.pve, t.node, t.vmid, t.vm.spec.vmId);
    if (verdict === 'foreign') {
      throw new OperatorError(
        'VMID_CONFLICT',
        `VMID ${t.vmid} on node '${t.node}' holds a guest that is not ${guestName(t.vm.spec.vmId)}; it is never touched`,
      );
    }
    return verdict;
  }

  /** The guard right before a mutating call on a guest that must exist. */
  async #guarded(t: Target): Promise<void> {
    if ((await this.#guard(t)) === 'absent') {
      throw new OperatorError('GUEST_BUSY', `guest VMID ${t.vmid} disappeared from node '${t.node}'`);
    }
  }

  /** Stores the UPID before waiting, so that a restart resumes the task rather than starting another. */
  async #runStoredTask(
    t: Target,
    upid: string,
    phase: NonNullable<VMSnapshotStatus['phase']>,
    condition: ConditionUpdate,
    onSuccess: VMSnapshotStatus = {},
  ): Promise<void> {
    await this.#setStatus(t, (s, snap) => ({
      ...s,
      phase,
      taskRef: upid,
      conditions: withConditions(snap, [condition]),
    }));
    let succeeded = false;
    try {
      await this.#wait(t, upid);
      succeeded = true;
    } finally {
      // One write, so that a restart never sees the task gone but its outcome unrecorded.
      if (!t.signal.aborted) {
        await this.#setStatus(t, (s) => ({ ...s, taskRef: undefined, ...(succeeded ? onSuccess : {}) }));
      }
    }
  }

  async #wait(t: Target, upid: string): Promise<void> {
    await t.pve.waitForTask(t.node, upid, {
      signal: t.signal,
      timeoutMs: this.deps.taskTimeoutMs ?? 600_000,
    });
  }

  async #setStatus(
    t: Target,
    desired: (status: VMSnapshotStatus, snap: VMSnapshot) => VMSnapshotStatus,
  ): Promise<void> {
    t.snap = await updateStatus(
      this.deps.snapshots,
      t.ref,
      (current) => stripUndefined(desired(current.status ?? {}, current)),
      { signal: t.signal },
    );
  }
}

/** The status recording a failed reconcile; Proxmox refusing the work (a failed task) also shows as Failed. */
function failedStatus(snap: VMSnapshot, failure: ReconcileFailure, refused: boolean): VMSnapshotStatus {
  const status = snap.status ?? {};
  const deleting = isBeingDeleted(snap);
  const phase = deleting ? 'Deleting' : failure.terminal || refused ? 'Failed' : (status.phase ?? 'Pending');
  return stripUndefined({
    ...status,
    phase,
    message: failure.message,
    observedGeneration: snap.metadata?.generation,
    conditions: withConditions(snap, [
      { type: READY, status: 'False', reason: failure.reason, message: failure.message },
    ]),
  });
}

function withConditions(
  snap: VMSnapshot,
  updates: readonly ConditionUpdate[],
): VMSnapshotStatus['conditions'] {
  let conditions = snap.status?.conditions;
  for (const update of updates) conditions = setCondition(conditions, update, snap.metadata?.generation);
  return conditions;
}

function isNewer(requested: string, done: string | undefined): boolean {
  return done === undefined || Date.parse(requested) > Date.parse(done);
}

/** Status as the API server stores it: absent rather than undefined, so unchanged compares equal. */
function stripUndefined(status: VMSnapshotStatus): VMSnapshotStatus {
  return Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined));
}
