import type {
  ConditionUpdate,
  ObjectRef,
  ProxmoxVM,
  ReconcileResult,
  Reconciler,
  ResourceClient,
  VNCRequest,
  VNCRequestStatus,
} from '@noderings/kube';
import {
  DONE,
  KubeApiError,
  KubeNotFoundError,
  TerminalError,
  findCondition,
  isBeingDeleted,
  parseObjectKey,
  setCondition,
  updateStatus,
} from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient } from '@noderings/proxmox';

import { guestName, nrGuard } from '../nr-guard.js';
import { OperatorError } from '../operator-error.js';
import { DEFAULT_INSTANCE } from '../proxmox-instances.js';
import { withFailureRecording } from '../with-failure-recording.js';

/** Proxmox accepts a VNC ticket until this long after it issued it. */
export const VNC_TICKET_LIFETIME_MS = 40_000;
/** How long an expired or failed request stays, so that the vnc-gateway can read why it got nothing. */
const DEFAULT_VNC_GRACE_MS = 5 * 60_000;
const READY = 'Ready';

export interface VncReconcilerDeps {
  requests: ResourceClient<VNCRequest>;
  vms: Pick<ResourceClient<ProxmoxVM>, 'find'>;
  instances: { get(instance: string): ProxmoxClient };
  logger: Logger;
  /** How long after expiry (or failure) a request is deleted. Default DEFAULT_VNC_GRACE_MS. */
  graceMs?: number;
}

/**
 * Answers a VNCRequest once: opens a Proxmox VNC proxy (websocket) for the referenced VM when it is ours
 * and running, and writes the session's port, ticket and password to status for the vnc-gateway. The
 * request then expires with the ticket (its credentials removed) and is deleted after a grace period;
 * a failed one likewise. The credentials are never logged.
 */
export class VncReconciler implements Reconciler {
  readonly #graceMs: number;

  constructor(private readonly deps: VncReconcilerDeps) {
    this.#graceMs = deps.graceMs ?? DEFAULT_VNC_GRACE_MS;
  }

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const request = await this.deps.requests.find(ref, signal);
    if (request === undefined || isBeingDeleted(request)) return DONE;
    const log = this.deps.logger.child({ controller: 'vncrequest', key });
    switch (request.status?.phase) {
      case 'Ready':
        return this.#expire(ref, request, signal, log);
      case 'Expired':
        return this.#collect(
          ref,
          request,
          Date.parse(request.status.expiresAt ?? '') + this.#graceMs,
          signal,
          log,
        );
      case 'Failed': {
        const failedAt = findCondition(request.status.conditions, READY)?.lastTransitionTime;
        return this.#collect(ref, request, Date.parse(failedAt ?? '') + this.#graceMs, signal, log);
      }
      default:
        return this.#openRecordingFailure(ref, request, signal, log);
    }
  }

  async #openRecordingFailure(
    ref: ObjectRef,
    request: VNCRequest,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    return withFailureRecording(() => this.#open(ref, request, signal, log), {
      signal,
      log,
      msg: 'console not opened',
      levels: { terminal: 'warn', retryable: 'info' },
      record: (failure) =>
        this.#setStatus(ref, signal, (status, current) => ({
          ...status,
          phase: failure.terminal ? 'Failed' : 'Pending',
          message: failure.message,
          observedGeneration: current.metadata?.generation,
          conditions: withConditions(current, {
            type: READY,
            status: 'False',
            reason: failure.reason,
            message: failure.message,
          }),
        })),
      // Failed requests are collected after the grace period, like expired ones.
      onTerminal: () => ({ requeueAfter: this.#graceMs }),
    });
  }

  async #open(
    ref: ObjectRef,
    request: VNCRequest,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    const vm = await this.deps.vms.find({ namespace: ref.namespace, name: request.spec.vmRef }, signal);
    if (vm === undefined) {
      throw new TerminalError('VmNotFound', `ProxmoxVM ${request.spec.vmRef} does not exist`);
    }
    const pve = this.deps.instances.get(vm.spec.instance ?? DEFAULT_INSTANCE);
    const node = vm.status?.node ?? vm.spec.node;
    const vmid = vm.status?.vmid ?? vm.spec.vmid;
    const verdict = await nrGuard(pve, node, vmid, vm.spec.vmId);
    if (verdict === 'foreign') {
      throw new OperatorError(
        'VMID_CONFLICT',
        `VMID ${vmid} on node '${node}' holds a guest that is not ${guestName(vm.spec.vmId)}; no console is opened for it`,
      );
    }
    if (verdict === 'absent') {
      throw new TerminalError('VmNotFound', `VMID ${vmid} does not exist on node '${node}'`);
    }
    const state = (await pve.getVmStatus(node, vmid)).status;
    if (state !== 'running') {
      throw new TerminalError(
        'VmNotRunning',
        `VM ${guestName(vm.spec.vmId)} is ${state}: start it before opening its console`,
      );
    }
    // Taken before the call, so the recorded expiry is never later than Proxmox's.
    const issuedAt = Date.now();
    const proxy = await pve.createVncProxy(node, vmid);
    if (proxy.password === undefined) throw new Error('vncproxy answered without a VNC password');
    const expiresAt = new Date(issuedAt + VNC_TICKET_LIFETIME_MS).toISOString();
    const { port, ticket, password } = proxy;
    try {
      await this.#setStatus(ref, signal, (status, current) => ({
        ...status,
        phase: 'Ready',
        node,
        vmid,
        port,
        ticket,
        password,
        expiresAt,
        message: undefined,
        observedGeneration: current.metadata?.generation,
        conditions: withConditions(current, {
          type: READY,
          status: 'True',
          reason: 'Ready',
          message: `console of VMID ${vmid} on node '${node}' open until ${expiresAt}`,
        }),
      }));
    } catch (e: unknown) {
      // The error may quote the object it was given, credentials included: the message (which is what
      // gets logged) keeps only its kind.
      const kind = e instanceof KubeApiError ? e.code : 'Error';
      throw new Error(`could not record the console session (${kind})`, { cause: e });
    }
    log.info({ node, vmid, port, expiresAt }, 'console opened');
    return { requeueAfter: VNC_TICKET_LIFETIME_MS };
  }

  /** Marks the request Expired (dropping the now useless credentials) once Proxmox no longer takes them. */
  async #expire(
    ref: ObjectRef,
    request: VNCRequest,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    const expiresAt = Date.parse(request.status?.expiresAt ?? '');
    const left = expiresAt - Date.now();
    if (left > 0) return { requeueAfter: left };
    await this.#setStatus(ref, signal, (status, current) => ({
      ...status,
      phase: 'Expired',
      ticket: undefined,
      password: undefined,
      message: 'the VNC ticket expired',
      conditions: withConditions(current, {
        type: READY,
        status: 'False',
        reason: 'Expired',
        message: `the VNC ticket expired at ${request.status?.expiresAt ?? '?'}`,
      }),
    }));
    log.info('console request expired');
    return { requeueAfter: Math.max(0, expiresAt + this.#graceMs - Date.now()) };
  }

  /** Deletes the request at `at` (a time in ms; NaN means now). */
  async #collect(
    ref: ObjectRef,
    request: VNCRequest,
    at: number,
    signal: AbortSignal,
    log: Logger,
  ): Promise<ReconcileResult> {
    const left = at - Date.now();
    if (left > 0) return { requeueAfter: left };
    try {
      await this.deps.requests.delete(ref, {
        signal,
        ...(request.metadata?.uid === undefined ? {} : { preconditions: { uid: request.metadata.uid } }),
      });
    } catch (e: unknown) {
      if (!(e instanceof KubeNotFoundError)) throw e;
    }
    log.info({ phase: request.status?.phase }, 'console request deleted');
    return DONE;
  }

  async #setStatus(
    ref: ObjectRef,
    signal: AbortSignal,
    desired: (status: VNCRequestStatus, request: VNCRequest) => VNCRequestStatus,
  ): Promise<void> {
    await updateStatus(
      this.deps.requests,
      ref,
      (current) =>
        Object.fromEntries(
          Object.entries(desired(current.status ?? {}, current)).filter(([, v]) => v !== undefined),
        ),
      { signal },
    );
  }
}

function withConditions(request: VNCRequest, update: ConditionUpdate): VNCRequestStatus['conditions'] {
  return setCondition(request.status?.conditions, update, request.metadata?.generation);
}
