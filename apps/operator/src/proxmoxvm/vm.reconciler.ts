import type {
  FirewallRuleSet,
  ObjectRef,
  ProxmoxVM,
  ProxmoxVMStatus,
  ReconcileResult,
  Reconciler,
  ResourceClient,
  Secret,
} from '@noderings/kube';
import {
  DONE,
  ensureFinalizer,
  hasFinalizer,
  isBeingDeleted,
  parseObjectKey,
  removeFinalizer,
  updateStatus,
} from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient, StorageVolume, VmStatus } from '@noderings/proxmox';
import {
  PveNotFoundError,
  ProxmoxError,
  TaskFailedError,
  UnreachableError,
  VmNotRunningError,
  VmRunningError,
} from '@noderings/proxmox';

import { syncVmFirewall } from '../firewall/vm-firewall-sync.js';
import { guestName, nrGuard } from '../nr-guard.js';
import { OperatorError } from '../operator-error.js';
import { DEFAULT_INSTANCE } from '../proxmox-instances.js';
import { withFailureRecording } from '../with-failure-recording.js';
import { buildSeed, seedFileName } from './cloud-init-seed.js';
import { bootDisk } from './vm-disk.js';
import { configUpdate, desiredConfig } from './vm-desired-config.js';
import {
  CONFIG_PENDING,
  POWER_STATE_SYNCED,
  PROVISIONED,
  READY,
  VMID_CONFLICT,
  failedStatus,
  withConditions,
} from './vm-status.js';

const GUEST_FINALIZER = 'vm.noderings.com/proxmox-guest';
const MIN_VMID = 100;
const MAX_VMID = 999_999_999;
const PREFERRED_ISO_STORAGE = 'local';

export interface VmReconcilerDeps {
  vms: ResourceClient<ProxmoxVM>;
  secrets: Pick<ResourceClient<Secret>, 'find'>;
  ruleSets: Pick<ResourceClient<FirewallRuleSet>, 'find'>;
  instances: { get(instance: string): ProxmoxClient };
  logger: Logger;
  /** Longest wait for one Proxmox task. Default 10 minutes. */
  taskTimeoutMs?: number;
}

/** What one reconcile works on: the object, its Proxmox client and where the guest lives. */
interface Target {
  ref: ObjectRef;
  vm: ProxmoxVM;
  pve: ProxmoxClient;
  node: string;
  vmid: number;
  signal: AbortSignal;
}

/**
 * Drives a ProxmoxVM to its spec, level-based: each run re-reads the object and the guest, then takes
 * the first step still needed — resume a stored clone task, clone (or adopt `NR-{vmId}`), configure,
 * grow the disk, upload and attach the seed, match the power state and reboot token — and records the
 * outcome. Every mutating call on an existing VMID is preceded by the NR guard.
 */
export class VmReconciler implements Reconciler {
  constructor(private readonly deps: VmReconcilerDeps) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const vm = await this.deps.vms.find(ref, signal);
    if (vm === undefined) return DONE;
    const log = this.deps.logger.child({ controller: 'proxmoxvm', key });
    return withFailureRecording(
      () =>
        isBeingDeleted(vm) ? this.#finalize(ref, vm, signal, log) : this.#converge(ref, vm, signal, log),
      {
        signal,
        log,
        msg: 'reconcile failed',
        record: (failure) =>
          updateStatus(this.deps.vms, ref, (current) =>
            failedStatus(current, failure, isBeingDeleted(current)),
          ),
      },
    );
  }

  // Create and converge

  async #converge(
    ref: ObjectRef,
    original: ProxmoxVM,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    const vm = await ensureFinalizer(this.deps.vms, original, GUEST_FINALIZER);
    const { spec } = vm;
    if (!Number.isInteger(spec.vmid) || spec.vmid < MIN_VMID || spec.vmid > MAX_VMID) {
      throw new OperatorError(
        'VMID_OUT_OF_RANGE',
        `spec.vmid ${spec.vmid} is outside ${MIN_VMID}-${MAX_VMID}`,
      );
    }
    const pve = this.deps.instances.get(spec.instance ?? DEFAULT_INSTANCE);
    const t: Target = { ref, vm, pve, node: spec.node, vmid: spec.vmid, signal };
    await this.#resumeTask(t, log);
    if (!(await pve.getNodes()).some((n) => n.node === t.node)) {
      throw new OperatorError('NODE_NOT_FOUND', `node '${t.node}' is not in the Proxmox cluster`);
    }
    const verdict = await nrGuard(pve, t.node, t.vmid, spec.vmId);
    if (verdict === 'foreign') throw this.#conflict(t);
    const seed = buildSeed(
      vm,
      await this.deps.secrets.find({ namespace: ref.namespace, name: spec.cloudInitSecretRef }, signal),
    );
    if (verdict === 'absent') {
      await this.#clone(t, log);
    }
    const seedVolid = await this.#ensureSeed(t, seed, log);
    await this.#configure(t, seedVolid, log);
    await this.#syncFirewall(t, log);
    await this.#growDisk(t, log);
    const power = await this.#syncPower(t, log);
    await this.#recordConverged(t, power);
    return DONE;
  }

  /**
   * Waits for the task stored in status (a clone or reboot started before a restart) instead of starting
   * another.
   */
  async #resumeTask(t: Target, log: Logger): Promise<void> {
    const upid = t.vm.status?.taskRef;
    if (upid === undefined) return;
    log.info({ upid }, 'waiting for stored task');
    try {
      await this.#wait(t, upid);
    } catch (e: unknown) {
      if (!(e instanceof PveNotFoundError)) {
        await this.#setStatus(t, (s) => ({ ...s, taskRef: undefined }));
        throw e;
      }
    }
    await this.#setStatus(t, (s) => ({ ...s, taskRef: undefined }));
  }

  async #clone(t: Target, log: Logger): Promise<void> {
    const { spec } = t.vm;
    await this.#preflight(t);
    const upid = await t.pve.cloneVm(t.node, spec.templateVmid, {
      newid: t.vmid,
      name: guestName(spec.vmId),
      full: true,
      storage: spec.disk.storage,
    });
    log.info({ vmid: t.vmid, template: spec.templateVmid, upid }, 'clone started');
    await this.#setStatus(t, (s, vm) => ({
      ...s,
      phase: 'Provisioning',
      vmid: t.vmid,
      node: t.node,
      taskRef: upid,
      conditions: withConditions(vm, [
        {
          type: PROVISIONED,
          status: 'False',
          reason: 'Cloning',
          message: `cloning template ${spec.templateVmid}`,
        },
      ]),
    }));
    try {
      await this.#wait(t, upid);
    } finally {
      if (!t.signal.aborted) await this.#setStatus(t, (s) => ({ ...s, taskRef: undefined }));
    }
  }

  /** Impossible specs fail here, before anything is created. */
  async #preflight(t: Target): Promise<void> {
    const { spec } = t.vm;
    try {
      await t.pve.getVmConfig(t.node, spec.templateVmid);
    } catch (e: unknown) {
      if (!(e instanceof PveNotFoundError)) throw e;
      throw new OperatorError(
        'TEMPLATE_NOT_FOUND',
        `template VMID ${spec.templateVmid} does not exist on node '${t.node}': ${e.pveMessage}`,
      );
    }
    const storages = await t.pve.getStorages(t.node);
    if (!storages.some((s) => s.storage === spec.disk.storage && s.content.split(',').includes('images'))) {
      throw new OperatorError(
        'STORAGE_NOT_FOUND',
        `storage '${spec.disk.storage}' for VM disks does not exist on node '${t.node}'`,
      );
    }
  }

  /** Uploads the seed ISO unless the same one is there; returns its volume id. */
  async #ensureSeed(t: Target, seed: Buffer, log: Logger): Promise<string> {
    const storage = await this.#isoStorage(t.pve, t.node);
    const filename = seedFileName(t.vm.spec.vmId);
    const volid = `${storage}:iso/${filename}`;
    const existing = await this.#findVolume(t.pve, t.node, storage, volid);
    if (existing?.size === seed.length) return volid;
    if (existing !== undefined) await this.#wait(t, await t.pve.deleteVolume(t.node, storage, volid));
    await this.#wait(
      t,
      await t.pve.uploadToStorage(t.node, storage, { content: 'iso', filename, data: seed }),
    );
    log.info({ volid, bytes: seed.length }, 'cloud-init seed uploaded');
    return volid;
  }

  async #configure(t: Target, seedVolid: string, log: Logger): Promise<void> {
    const current = await t.pve.getVmConfig(t.node, t.vmid);
    const update = configUpdate(current, desiredConfig(t.vm.spec, seedVolid));
    if (update === undefined) return;
    await this.#guarded(t);
    log.info({ keys: Object.keys(update) }, 'updating config');
    const upid = await t.pve.updateVmConfig(t.node, t.vmid, update);
    if (upid !== null) await this.#wait(t, upid);
  }

  /** The SMTP block and the referenced FirewallRuleSet on the guest's firewall; sets FirewallSynced. */
  async #syncFirewall(t: Target, log: Logger): Promise<void> {
    await syncVmFirewall(t, {
      ruleSets: this.deps.ruleSets,
      guard: () => this.#guarded(t),
      record: (condition) =>
        this.#setStatus(t, (s, vm) => ({ ...s, conditions: withConditions(vm, [condition]) })),
      log,
    });
  }

  async #growDisk(t: Target, log: Logger): Promise<void> {
    const disk = bootDisk(await t.pve.getVmConfig(t.node, t.vmid));
    const want = t.vm.spec.disk.sizeGiB;
    if (disk === undefined || disk.sizeGiB >= want) return;
    await this.#guarded(t);
    log.info({ disk: disk.key, fromGiB: disk.sizeGiB, toGiB: want }, 'growing disk');
    const upid = await t.pve.resizeVmDisk(t.node, t.vmid, { disk: disk.key, size: `${want}G` });
    if (upid !== null) await this.#wait(t, upid);
  }

  /** Starts, stops or reboots as asked; returns the power state reached. */
  async #syncPower(t: Target, log: Logger): Promise<VmStatus['status']> {
    const { spec } = t.vm;
    const desired = spec.powerState ?? 'Running';
    let state = (await t.pve.getVmStatus(t.node, t.vmid)).status;
    const rebootAsked = isNewer(spec.rebootRequestedAt, t.vm.status?.lastRebootAt);
    if (desired === 'Running' && state === 'stopped') {
      await this.#powerAction(t, () => t.pve.startVm(t.node, t.vmid), VmRunningError);
      log.info('started');
      state = 'running';
      // A start applies pending changes just as a reboot does, so it answers the token too.
      if (rebootAsked) await this.#setStatus(t, (s) => ({ ...s, lastRebootAt: spec.rebootRequestedAt }));
    } else if (desired === 'Stopped' && state === 'running') {
      await this.#powerAction(
        t,
        () => t.pve.shutdownVm(t.node, t.vmid, { forceStop: true, timeout: 60 }),
        VmNotRunningError,
      );
      log.info('stopped');
      state = 'stopped';
    } else if (desired === 'Running' && rebootAsked) {
      await this.#reboot(t);
      log.info({ requestedAt: spec.rebootRequestedAt }, 'rebooted');
    }
    return state;
  }

  /**
   * Answers the reboot token at most once: it is recorded before the call and the task is kept in status
   * while it runs, so an operator restarted mid-reboot waits for that task instead of rebooting again.
   * Only a call Proxmox certainly did not carry out gives the token back for the next attempt.
   */
  async #reboot(t: Target): Promise<void> {
    const previous = t.vm.status?.lastRebootAt;
    await this.#guarded(t);
    await this.#setStatus(t, (s) => ({ ...s, lastRebootAt: t.vm.spec.rebootRequestedAt }));
    let upid: string;
    try {
      upid = await t.pve.rebootVm(t.node, t.vmid);
    } catch (e: unknown) {
      if (e instanceof VmNotRunningError) return;
      if (notCarriedOut(e)) await this.#setStatus(t, (s) => ({ ...s, lastRebootAt: previous }));
      throw e;
    }
    await this.#setStatus(t, (s) => ({ ...s, taskRef: upid }));
    try {
      await this.#wait(t, upid);
    } catch (e: unknown) {
      if (!(e instanceof TaskFailedError && e.reason instanceof VmNotRunningError)) throw e;
    } finally {
      if (!t.signal.aborted) await this.#setStatus(t, (s) => ({ ...s, taskRef: undefined }));
    }
  }

  /** A power task; the "already in that state" error (sync or in the task) counts as success. */
  async #powerAction(
    t: Target,
    action: () => Promise<string>,
    alreadyDone: new (...args: never[]) => Error,
  ): Promise<void> {
    await this.#guarded(t);
    try {
      await this.#wait(t, await action());
    } catch (e: unknown) {
      if (e instanceof alreadyDone) return;
      if (e instanceof TaskFailedError && e.reason instanceof alreadyDone) return;
      throw e;
    }
  }

  async #recordConverged(t: Target, state: VmStatus['status']): Promise<void> {
    const pending = (await t.pve.getVmPending(t.node, t.vmid)).filter(
      (p) => p.pending !== undefined || p.delete !== undefined,
    );
    const { spec } = t.vm;
    const desired = spec.powerState ?? 'Running';
    const powerState = state === 'running' ? 'Running' : 'Stopped';
    await this.#setStatus(t, (s, vm) => ({
      ...s,
      phase: powerState,
      vmid: t.vmid,
      node: t.node,
      mac: spec.network.mac.toUpperCase(),
      powerState,
      taskRef: undefined,
      message: undefined,
      observedGeneration: vm.metadata?.generation,
      conditions: withConditions(
        vm,
        [
          {
            type: PROVISIONED,
            status: 'True',
            reason: 'Provisioned',
            message: `guest ${guestName(spec.vmId)} configured`,
          },
          {
            type: POWER_STATE_SYNCED,
            status: powerState === desired ? 'True' : 'False',
            reason: powerState,
            message: `guest is ${state}`,
          },
          pending.length > 0
            ? {
                type: CONFIG_PENDING,
                status: 'True',
                reason: 'AwaitingReboot',
                message: `applied at the next reboot: ${pending.map((p) => p.key).join(', ')}`,
              }
            : { type: CONFIG_PENDING, status: 'False', reason: 'Applied', message: 'no pending changes' },
          { type: READY, status: 'True', reason: 'Ready', message: `guest is ${state} as asked` },
        ],
        [VMID_CONFLICT],
      ),
    }));
  }

  // Delete

  async #finalize(ref: ObjectRef, vm: ProxmoxVM, signal: AbortSignal, log: Logger): Promise<ReconcileResult> {
    if (!hasFinalizer(vm, GUEST_FINALIZER)) return DONE;
    let pve: ProxmoxClient;
    try {
      pve = this.deps.instances.get(vm.spec.instance ?? DEFAULT_INSTANCE);
    } catch (e: unknown) {
      // Nothing was ever started on Proxmox for this object, so there is nothing to remove.
      if (e instanceof OperatorError && vm.status?.vmid === undefined && vm.status?.taskRef === undefined) {
        await removeFinalizer(this.deps.vms, vm, GUEST_FINALIZER);
        return DONE;
      }
      throw e;
    }
    const t: Target = { ref, vm, pve, node: vm.spec.node, vmid: vm.spec.vmid, signal };
    if (!(await pve.getNodes()).some((n) => n.node === t.node)) {
      // No guest can live on a node the cluster does not have.
      await removeFinalizer(this.deps.vms, vm, GUEST_FINALIZER);
      return DONE;
    }
    await this.#setStatus(t, (s) => ({ ...s, phase: 'Deleting' }));
    await this.#resumeTask(t, log).catch((e: unknown) => {
      if (!(e instanceof TaskFailedError)) throw e;
    });
    const verdict = await nrGuard(pve, t.node, t.vmid, vm.spec.vmId);
    if (verdict === 'foreign') {
      const message = `VMID ${t.vmid} on node '${t.node}' holds a guest not named ${guestName(vm.spec.vmId)}: left untouched`;
      log.warn({ vmid: t.vmid }, 'not deleting a foreign guest');
      await this.#setStatus(t, (s, current) => ({
        ...s,
        message,
        conditions: withConditions(current, [
          { type: VMID_CONFLICT, status: 'True', reason: VMID_CONFLICT, message },
        ]),
      }));
    } else if (verdict === 'ours') {
      await this.#destroy(t, log);
    }
    await this.#deleteSeed(t);
    await removeFinalizer(this.deps.vms, await this.deps.vms.get(ref, signal), GUEST_FINALIZER);
    log.info({ verdict }, 'finalized');
    return DONE;
  }

  async #destroy(t: Target, log: Logger): Promise<void> {
    if ((await t.pve.getVmStatus(t.node, t.vmid)).status === 'running') {
      await this.#powerAction(t, () => t.pve.stopVm(t.node, t.vmid), VmNotRunningError);
    }
    if ((await this.#guard(t)) === 'absent') return;
    await this.#wait(
      t,
      await t.pve.deleteVm(t.node, t.vmid, { purge: true, destroyUnreferencedDisks: true }),
    );
    log.info({ vmid: t.vmid }, 'guest destroyed');
  }

  async #deleteSeed(t: Target): Promise<void> {
    const storage = await this.#isoStorage(t.pve, t.node).catch((e: unknown) => {
      if (e instanceof OperatorError) return undefined;
      throw e;
    });
    if (storage === undefined) return;
    const volid = `${storage}:iso/${seedFileName(t.vm.spec.vmId)}`;
    if ((await this.#findVolume(t.pve, t.node, storage, volid)) === undefined) return;
    await this.#wait(t, await t.pve.deleteVolume(t.node, storage, volid));
  }

  // Shared steps

  async #guard(t: Target): Promise<'ours' | 'absent'> {
    const verdict = await nrGuard(t.pve, t.node, t.vmid, t.vm.spec.vmId);
    if (verdict === 'foreign') throw this.#conflict(t);
    return verdict;
  }

  /** The guard before a mutating call on a guest that must exist. */
  async #guarded(t: Target): Promise<void> {
    if ((await this.#guard(t)) === 'absent') {
      throw new OperatorError('GUEST_BUSY', `guest VMID ${t.vmid} disappeared from node '${t.node}'`);
    }
  }

  #conflict(t: Target): OperatorError {
    return new OperatorError(
      'VMID_CONFLICT',
      `VMID ${t.vmid} on node '${t.node}' holds a guest that is not ${guestName(t.vm.spec.vmId)}; it is never touched`,
    );
  }

  async #wait(t: Target, upid: string): Promise<void> {
    await t.pve.waitForTask(t.node, upid, {
      signal: t.signal,
      timeoutMs: this.deps.taskTimeoutMs ?? 600_000,
    });
  }

  async #isoStorage(pve: ProxmoxClient, node: string): Promise<string> {
    const withIso = (await pve.getStorages(node)).filter((s) => s.content.split(',').includes('iso'));
    const storage = withIso.find((s) => s.storage === PREFERRED_ISO_STORAGE) ?? withIso[0];
    if (storage === undefined)
      throw new OperatorError('NO_ISO_STORAGE', `node '${node}' has no storage for ISO images`);
    return storage.storage;
  }

  async #findVolume(
    pve: ProxmoxClient,
    node: string,
    storage: string,
    volid: string,
  ): Promise<StorageVolume | undefined> {
    const volumes = await pve.getStorageContent(node, storage, { content: 'iso' });
    return volumes.find((v) => v.volid === volid);
  }

  async #setStatus(
    t: Target,
    desired: (status: ProxmoxVMStatus, vm: ProxmoxVM) => ProxmoxVMStatus,
  ): Promise<void> {
    const updated = await updateStatus(
      this.deps.vms,
      t.ref,
      (current) => stripUndefined(desired(current.status ?? {}, current)),
      {
        signal: t.signal,
      },
    );
    t.vm = updated;
  }
}

/** Whether a failed call certainly changed nothing on Proxmox: it was refused, or never sent. */
function notCarriedOut(error: unknown): boolean {
  if (error instanceof UnreachableError) return !error.requestMayHaveBeenSent;
  return error instanceof ProxmoxError && error.status !== undefined && error.status >= 400;
}

function isNewer(requested: string | undefined, done: string | undefined): boolean {
  if (requested === undefined) return false;
  if (done === undefined) return true;
  return Date.parse(requested) > Date.parse(done);
}

/** Status as the API server stores it: absent rather than undefined, so unchanged compares equal. */
function stripUndefined(status: ProxmoxVMStatus): ProxmoxVMStatus {
  return Object.fromEntries(Object.entries(status).filter(([, v]) => v !== undefined));
}
