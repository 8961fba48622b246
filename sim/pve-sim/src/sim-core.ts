import type { AccessControl, Identity } from './access-control.js';
import { checkPermission } from './access-control.js';
import { requireNode, vmOnNode, type SimVm } from './cluster-state.js';
import type { ClusterState } from './cluster-state.js';
import type { ParamSchema, Params } from './param-schema.js';
import type { TaskLog, TaskManager } from './task-manager.js';
import type { VncProxies } from './vnc-proxies.js';
import type { StorageLocks } from './storage-locks.js';

interface SimSettings {
  /** How long a task runs before its worker acts. */
  taskMs: number;
  /** How long `/cluster/resources` keeps showing a VM's old name and status after a change (pvestatd's cycle). */
  resourcesLagMs: number;
  /** How long the vncproxy worker waits for its one connection. */
  vncConnectTimeoutMs: number;
  /** How long a worker waits for a storage's allocation lock before failing. */
  storageLockTimeoutMs: number;
}

/** What every API handler works on. */
export interface SimCore {
  state: ClusterState;
  readonly tasks: TaskManager;
  readonly access: AccessControl;
  readonly vnc: VncProxies;
  readonly storageLocks: StorageLocks;
  readonly settings: SimSettings;
  /** Records that the state changed (persistence, resource snapshots). */
  changed(): void;
}

export interface UploadedFile {
  filename: string;
  data: Buffer;
}

export interface ApiRequest {
  readonly method: string;
  readonly path: string;
  readonly params: Params;
  readonly identity: Identity;
  /** A fault-injection rule asked the task this request starts to fail with this message. */
  readonly injectedTaskError?: string;
  /** A fault-injection rule asked the task this request starts to log this many warnings. */
  readonly injectedTaskWarnings?: number;
  /** A fault-injection rule asked the task this request starts to run this long. */
  readonly injectedTaskMs?: number;
  readonly upload?: UploadedFile;
}

export interface Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** find-my-way pattern under `/api2/json`, e.g. `/nodes/:node/qemu/:vmid/config`. */
  readonly path: string;
  readonly params: ParamSchema;
  /** Multipart upload: the file part arrives in `ApiRequest.upload`. */
  readonly multipart?: boolean;
  readonly handler: (core: SimCore, req: ApiRequest) => unknown;
}

export function requirePrivilege(req: ApiRequest, path: string, ...privileges: string[]): void {
  checkPermission(req.identity, path, privileges);
}

export interface StartTask {
  node: string;
  type: string;
  id: string | number;
  work: (log: TaskLog) => Promise<void> | void;
  finally?: () => void;
  durationMs?: number;
}

/** Starts a worker task for the request; an injected task fault replaces the worker. */
export function startTask(core: SimCore, req: ApiRequest, task: StartTask): string {
  return core.tasks.start({
    node: task.node,
    type: task.type,
    id: String(task.id),
    identity: req.identity,
    work: async (log) => {
      await task.work(log);
      for (let i = 0; i < (req.injectedTaskWarnings ?? 0); i++) log.warn(`injected warning ${i + 1}`);
      core.changed();
    },
    ...(task.finally ? { finally: task.finally } : {}),
    ...(req.injectedTaskError !== undefined ? { injectedError: req.injectedTaskError } : {}),
    ...((req.injectedTaskMs ?? task.durationMs) !== undefined
      ? { durationMs: req.injectedTaskMs ?? task.durationMs }
      : {}),
  });
}

/** The VM a `/nodes/{node}/qemu/{vmid}/…` request names, or PVE's errors for a missing node or config. */
export function requestedVm(core: SimCore, req: ApiRequest): SimVm {
  const node = requireNode(core.state, req.params.node as string);
  return vmOnNode(core.state, node.name, req.params.vmid as number);
}
