import { FormData } from 'undici';
import type WebSocket from 'ws';

import { apiPath } from './api-path.js';
import { apiTokenHeader } from './api-token.js';
import { resolveClientOptions } from './client-options.js';
import type { ProxmoxClientOptions, ResolvedClientOptions } from './client-options.js';
import type { RequestContext } from './errors.js';
import type { FormParams } from './form-encoding.js';
import { HttpTransport } from './http-transport.js';
import type { ApiCall, Authenticator, HttpMethod } from './http-transport.js';
import * as schema from './response-schemas.js';
import { expectData, expectNull, expectUpid, expectUpidOrNull } from './response-shape.js';
import { waitForTask } from './task-waiter.js';
import type { TaskReader, TaskResult, WaitForTaskOptions } from './task-waiter.js';
import { TicketSession } from './ticket-session.js';
import type { Ticket } from './ticket-session.js';
import type {
  CloneParams,
  ClusterResource,
  ClusterResourceType,
  ClusterStatusEntry,
  ContainerConfig,
  ContainerListEntry,
  CreateSnapshotParams,
  DeleteVmParams,
  EffectivePermissions,
  FirewallOptions,
  FirewallOptionsUpdate,
  FirewallRule,
  FirewallRuleParams,
  FirewallRuleUpdate,
  NodeListEntry,
  NodeStatus,
  NodeStorage,
  NotBackedUpGuest,
  PendingEntry,
  QdeviceStatus,
  RebootParams,
  ReplicationJobStatus,
  ResizeParams,
  RestoreParams,
  ShutdownParams,
  Snapshot,
  StartParams,
  StopParams,
  StorageContentType,
  StorageStatus,
  StorageUpload,
  StorageVolume,
  Subscription,
  TaskLogLine,
  TaskStatus,
  VersionInfo,
  VmConfig,
  VmConfigUpdate,
  VmListEntry,
  VmStatus,
  VncProxy,
  VzdumpParams,
  VzdumpResult,
} from './types.js';
import { vmConfigForm } from './vm-config-form.js';

/** Per-call options of reads: a signal that abandons the call (a task wait, a scrape deadline). */
export interface CallOptions {
  signal?: AbortSignal;
}

/** The answer of vzdump asked on a node that does not hold the VM. */
const VZDUMP_ELSEWHERE = 'OK';

/**
 * A typed client of the Proxmox VE API (`/api2/json`). Methods return the unwrapped `data`; methods
 * that start a task return its UPID, for `waitForTask`. Every failure is a ProxmoxError subclass.
 */
export class ProxmoxClient implements TaskReader {
  readonly #transport: HttpTransport;

  constructor(options: ProxmoxClientOptions) {
    const resolved = resolveClientOptions(options);
    this.#transport = new HttpTransport({ ...resolved, auth: this.#authenticator(resolved) });
  }

  /** Closes the pooled connections; WebSockets already handed out stay open. */
  async close(): Promise<void> {
    await this.#transport.close();
  }

  // Access

  /** `POST /access/ticket`: a ticket and CSRF token for a user (sent without other credentials). */
  async createTicket(username: string, password: string, options: CallOptions = {}): Promise<Ticket> {
    const call = { method: 'POST', path: '/access/ticket', params: { username, password } } as const;
    const { data } = await this.#transport.call({ ...call, anonymous: true, signal: options.signal });
    return expectData(schema.ticketSchema, data, call);
  }

  /**
   * `GET /access/permissions`: the effective privileges of this client's token or user, or of `userid`
   * (a user or a full token id; someone else's need Sys.Audit on /access), by ACL path. Without `path`,
   * Proxmox lists the top-level paths and those its ACLs name; with it, exactly that path, inherited
   * privileges included (empty when there are none).
   */
  async getPermissions(
    options: { path?: string; userid?: string } & CallOptions = {},
  ): Promise<EffectivePermissions> {
    const path = '/access/permissions';
    const { signal, ...query } = options;
    return expectData(
      schema.permissionsSchema,
      await this.#data('GET', path, query, signal),
      context('GET', path),
    );
  }

  // Cluster

  async getVersion(options: CallOptions = {}): Promise<VersionInfo> {
    const path = '/version';
    return expectData(
      schema.versionInfoSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async getClusterStatus(options: CallOptions = {}): Promise<ClusterStatusEntry[]> {
    const path = '/cluster/status';
    return expectData(
      schema.clusterStatusSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async getClusterResources(
    type?: ClusterResourceType,
    options: CallOptions = {},
  ): Promise<ClusterResource[]> {
    const path = '/cluster/resources';
    return expectData(
      schema.clusterResourcesSchema,
      await this.#data('GET', path, { type }, options.signal),
      context('GET', path),
    );
  }

  /** The guests that no backup job covers. */
  async getGuestsNotBackedUp(options: CallOptions = {}): Promise<NotBackedUpGuest[]> {
    const path = '/cluster/backup-info/not-backed-up';
    return expectData(
      schema.notBackedUpSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /** The QDevice's state as corosync-qdevice reports it; `{}` when the cluster has none. */
  async getQdeviceStatus(options: CallOptions = {}): Promise<QdeviceStatus> {
    const path = '/cluster/config/qdevice';
    return expectData(
      schema.qdeviceStatusSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /**
   * A free VMID (or `vmid` if it is free; VmidTakenError if not). Not a reservation: the ID is taken
   * only once a VM's config exists, so callers must still handle VmidTakenError on create.
   */
  async getNextVmid(vmid?: number, options: CallOptions = {}): Promise<number> {
    const path = '/cluster/nextid';
    const data = await this.#data('GET', path, { vmid }, options.signal);
    return expectData(schema.nextVmidSchema, data, context('GET', path));
  }

  // Nodes

  async getNodes(options: CallOptions = {}): Promise<NodeListEntry[]> {
    const data = await this.#data('GET', '/nodes', {}, options.signal);
    return expectData(schema.nodeListSchema, data, context('GET', '/nodes'));
  }

  async getNodeStatus(node: string, options: CallOptions = {}): Promise<NodeStatus> {
    const path = apiPath`/nodes/${node}/status`;
    return expectData(
      schema.nodeStatusSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /** The VMs (not containers) on a node. */
  async getVms(node: string, options: CallOptions = {}): Promise<VmListEntry[]> {
    const path = apiPath`/nodes/${node}/qemu`;
    return expectData(
      schema.vmListSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /** The containers (LXC) on a node. */
  async getContainers(node: string, options: CallOptions = {}): Promise<ContainerListEntry[]> {
    const path = apiPath`/nodes/${node}/lxc`;
    return expectData(
      schema.containerListSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async getContainerConfig(node: string, vmid: number, options: CallOptions = {}): Promise<ContainerConfig> {
    const path = apiPath`/nodes/${node}/lxc/${vmid}/config`;
    return expectData(
      schema.containerConfigSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /** The replication jobs whose guests are on this node, with their last and next runs. */
  async getReplicationJobs(node: string, options: CallOptions = {}): Promise<ReplicationJobStatus[]> {
    const path = apiPath`/nodes/${node}/replication`;
    return expectData(
      schema.replicationJobsSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /** One replication job's state (`id` is `<vmid>-<jobnum>`). */
  async getReplicationJobStatus(
    node: string,
    id: string,
    options: CallOptions = {},
  ): Promise<ReplicationJobStatus> {
    const path = apiPath`/nodes/${node}/replication/${id}/status`;
    return expectData(
      schema.replicationJobSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async getSubscription(node: string, options: CallOptions = {}): Promise<Subscription> {
    const path = apiPath`/nodes/${node}/subscription`;
    return expectData(
      schema.subscriptionSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  // Storage

  async getStorages(node: string, options: CallOptions = {}): Promise<NodeStorage[]> {
    const path = apiPath`/nodes/${node}/storage`;
    return expectData(
      schema.nodeStoragesSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async getStorageStatus(node: string, storage: string, options: CallOptions = {}): Promise<StorageStatus> {
    const path = apiPath`/nodes/${node}/storage/${storage}/status`;
    return expectData(
      schema.storageStatusSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async getStorageContent(
    node: string,
    storage: string,
    filter: { content?: StorageContentType; vmid?: number } = {},
    options: CallOptions = {},
  ): Promise<StorageVolume[]> {
    const path = apiPath`/nodes/${node}/storage/${storage}/content`;
    const data = await this.#data('GET', path, filter, options.signal);
    return expectData(schema.storageContentSchema, data, context('GET', path));
  }

  /** Deletes a volume (`local:backup/…`); returns the `imgdel` task. */
  async deleteVolume(node: string, storage: string, volid: string): Promise<string> {
    const path = apiPath`/nodes/${node}/storage/${storage}/content/${volid}`;
    return expectUpid(await this.#data('DELETE', path), context('DELETE', path));
  }

  /** Uploads an ISO, container template or import file; returns the task that moves it into place. */
  async uploadToStorage(
    node: string,
    storage: string,
    upload: StorageUpload,
    options: CallOptions & { timeoutMs?: number } = {},
  ): Promise<string> {
    const path = apiPath`/nodes/${node}/storage/${storage}/upload`;
    const form = new FormData();
    form.append('content', upload.content);
    if (upload.checksum !== undefined) form.append('checksum', upload.checksum);
    if (upload.checksumAlgorithm !== undefined) form.append('checksum-algorithm', upload.checksumAlgorithm);
    const blob = upload.data instanceof Blob ? upload.data : new Blob([new Uint8Array(upload.data)]);
    // As Proxmox's own UI sends it: the file part is named `filename` and comes last.
    form.append('filename', blob, upload.filename);
    const { data } = await this.#transport.call({ method: 'POST', path, multipart: form, ...options });
    return expectUpid(data, context('POST', path));
  }

  // VMs

  /** Starts a `qmclone` task; its UPID names the source VMID, not `newid`. */
  async cloneVm(node: string, vmid: number, params: CloneParams): Promise<string> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/clone`;
    return expectUpid(await this.#data('POST', path, { ...params }), context('POST', path));
  }

  /** The config with pending changes applied, or as running with `current: true`. */
  async getVmConfig(
    node: string,
    vmid: number,
    options: { current?: boolean } & CallOptions = {},
  ): Promise<VmConfig> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/config`;
    const data = await this.#data('GET', path, { current: options.current }, options.signal);
    return expectData(schema.vmConfigSchema, data, context('GET', path));
  }

  /** Config POST (asynchronous): a `qmconfig` task, or null when Proxmox finished it before answering. */
  async updateVmConfig(node: string, vmid: number, update: VmConfigUpdate): Promise<string | null> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/config`;
    return expectUpidOrNull(await this.#data('POST', path, vmConfigForm(update)), context('POST', path));
  }

  /** Config PUT (synchronous): done when it returns. */
  async setVmConfig(node: string, vmid: number, update: VmConfigUpdate): Promise<void> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/config`;
    expectNull(await this.#data('PUT', path, vmConfigForm(update)), context('PUT', path));
  }

  /** Changes that wait for the next boot of a running VM. */
  async getVmPending(node: string, vmid: number, options: CallOptions = {}): Promise<PendingEntry[]> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/pending`;
    return expectData(
      schema.pendingSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /** A `resize` task (qemu-server 8); null from older servers, which resize synchronously. */
  async resizeVmDisk(node: string, vmid: number, params: ResizeParams): Promise<string | null> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/resize`;
    return expectUpidOrNull(await this.#data('PUT', path, { ...params }), context('PUT', path));
  }

  async getVmStatus(node: string, vmid: number, options: CallOptions = {}): Promise<VmStatus> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/status/current`;
    return expectData(
      schema.vmStatusSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async startVm(node: string, vmid: number, params: StartParams = {}): Promise<string> {
    return this.#powerAction(node, vmid, 'start', { ...params });
  }

  /** Hard stop (no guest shutdown). */
  async stopVm(node: string, vmid: number, params: StopParams = {}): Promise<string> {
    const { keepActive, overruleShutdown, ...rest } = params;
    return this.#powerAction(node, vmid, 'stop', {
      ...rest,
      keepActive,
      'overrule-shutdown': overruleShutdown,
    });
  }

  async shutdownVm(node: string, vmid: number, params: ShutdownParams = {}): Promise<string> {
    return this.#powerAction(node, vmid, 'shutdown', { ...params });
  }

  /** VmNotRunningError when the VM is stopped. */
  async rebootVm(node: string, vmid: number, params: RebootParams = {}): Promise<string> {
    return this.#powerAction(node, vmid, 'reboot', { ...params });
  }

  /** A `qmdestroy` task; the VM must be stopped (VmRunningError otherwise). */
  async deleteVm(node: string, vmid: number, params: DeleteVmParams = {}): Promise<string> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}`;
    const query = {
      purge: params.purge,
      'destroy-unreferenced-disks': params.destroyUnreferencedDisks,
      skiplock: params.skiplock,
    };
    return expectUpid(await this.#data('DELETE', path, query), context('DELETE', path));
  }

  // Snapshots

  /** The snapshots, plus Proxmox's `current` entry for the running state. */
  async getSnapshots(node: string, vmid: number, options: CallOptions = {}): Promise<Snapshot[]> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/snapshot`;
    return expectData(
      schema.snapshotsSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async createSnapshot(node: string, vmid: number, params: CreateSnapshotParams): Promise<string> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/snapshot`;
    return expectUpid(await this.#data('POST', path, { ...params }), context('POST', path));
  }

  async rollbackSnapshot(
    node: string,
    vmid: number,
    name: string,
    params: { start?: boolean } = {},
  ): Promise<string> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/snapshot/${name}/rollback`;
    return expectUpid(await this.#data('POST', path, params), context('POST', path));
  }

  async deleteSnapshot(
    node: string,
    vmid: number,
    name: string,
    params: { force?: boolean } = {},
  ): Promise<string> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/snapshot/${name}`;
    return expectUpid(await this.#data('DELETE', path, params), context('DELETE', path));
  }

  // VM firewall (synchronous)

  async getFirewallRules(node: string, vmid: number, options: CallOptions = {}): Promise<FirewallRule[]> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/firewall/rules`;
    return expectData(
      schema.firewallRulesSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async getFirewallRule(
    node: string,
    vmid: number,
    pos: number,
    options: CallOptions = {},
  ): Promise<FirewallRule> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/firewall/rules/${pos}`;
    return expectData(
      schema.firewallRuleSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  /** Inserted at position 0 unless `pos` says otherwise; disabled unless `enable: true`. */
  async createFirewallRule(node: string, vmid: number, rule: FirewallRuleParams): Promise<void> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/firewall/rules`;
    expectNull(await this.#data('POST', path, { ...rule }), context('POST', path));
  }

  async updateFirewallRule(
    node: string,
    vmid: number,
    pos: number,
    update: FirewallRuleUpdate,
  ): Promise<void> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/firewall/rules/${pos}`;
    const { delete: keys, ...rest } = update;
    const params = { ...rest, delete: keys?.join(',') };
    expectNull(await this.#data('PUT', path, params), context('PUT', path));
  }

  async deleteFirewallRule(
    node: string,
    vmid: number,
    pos: number,
    params: { digest?: string } = {},
  ): Promise<void> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/firewall/rules/${pos}`;
    expectNull(await this.#data('DELETE', path, params), context('DELETE', path));
  }

  async getFirewallOptions(node: string, vmid: number, options: CallOptions = {}): Promise<FirewallOptions> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/firewall/options`;
    return expectData(
      schema.firewallOptionsSchema,
      await this.#data('GET', path, {}, options.signal),
      context('GET', path),
    );
  }

  async setFirewallOptions(node: string, vmid: number, update: FirewallOptionsUpdate): Promise<void> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/firewall/options`;
    const { delete: keys, ...rest } = update;
    const params = { ...rest, delete: keys?.join(',') };
    expectNull(await this.#data('PUT', path, params), context('PUT', path));
  }

  // Backup and restore

  /** Backs one VM up; ask the node that holds it, or get `{kind: 'not-on-this-node'}`. */
  async vzdump(node: string, params: VzdumpParams): Promise<VzdumpResult> {
    const path = apiPath`/nodes/${node}/vzdump`;
    const { notesTemplate, pruneBackups, ...rest } = params;
    const form = { ...rest, 'notes-template': notesTemplate, 'prune-backups': pruneBackups };
    const data = await this.#data('POST', path, form);
    if (data === VZDUMP_ELSEWHERE) return { kind: 'not-on-this-node' };
    return { kind: 'task', upid: expectUpid(data, context('POST', path)) };
  }

  /** Restores a backup archive as VM `vmid` (a `qmrestore` task). */
  async restoreVm(node: string, params: RestoreParams): Promise<string> {
    const path = apiPath`/nodes/${node}/qemu`;
    return expectUpid(await this.#data('POST', path, { ...params }), context('POST', path));
  }

  // Console

  /** A VNC ticket for `vncWebSocket`; the proxy task waits 10 s for the connection. */
  async createVncProxy(node: string, vmid: number): Promise<VncProxy> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/vncproxy`;
    const data = await this.#data('POST', path, { websocket: true });
    return expectData(schema.vncProxySchema, data, context('POST', path));
  }

  /**
   * Opens the console WebSocket (subprotocol `binary`) and resolves once it is open. The socket comes
   * back **paused**, since the VNC server speaks first: attach listeners, then call `resume()`.
   */
  async vncWebSocket(
    node: string,
    vmid: number,
    proxy: Pick<VncProxy, 'port' | 'ticket'>,
  ): Promise<WebSocket> {
    return this.#transport.webSocket({
      path: apiPath`/nodes/${node}/qemu/${vmid}/vncwebsocket`,
      params: { port: proxy.port, vncticket: proxy.ticket },
      protocol: 'binary',
    });
  }

  // Tasks

  async getTaskStatus(node: string, upid: string, options: CallOptions = {}): Promise<TaskStatus> {
    const path = apiPath`/nodes/${node}/tasks/${upid}/status`;
    const { data } = await this.#transport.call({ method: 'GET', path, signal: options.signal });
    return expectData(schema.taskStatusSchema, data, context('GET', path));
  }

  async getTaskLog(
    node: string,
    upid: string,
    page: { start?: number; limit?: number } & CallOptions = {},
  ): Promise<TaskLogLine[]> {
    return (await this.getTaskLogPage(node, upid, page)).lines;
  }

  /** A page of the task log with the log's total line count, where Proxmox reports it. */
  async getTaskLogPage(
    node: string,
    upid: string,
    page: { start?: number; limit?: number } & CallOptions = {},
  ): Promise<{ lines: TaskLogLine[]; total: number | undefined }> {
    const path = apiPath`/nodes/${node}/tasks/${upid}/log`;
    const { signal, ...params } = page;
    const envelope = await this.#transport.call({ method: 'GET', path, params, signal });
    return {
      lines: expectData(schema.taskLogSchema, envelope.data, context('GET', path)),
      total: envelope.total,
    };
  }

  /** Waits for a task to stop: `OK` and `WARNINGS: n` resolve, anything else throws TaskFailedError. */
  async waitForTask(node: string, upid: string, options: WaitForTaskOptions = {}): Promise<TaskResult> {
    return waitForTask(this, node, upid, options);
  }

  async #powerAction(node: string, vmid: number, action: string, params: FormParams): Promise<string> {
    const path = apiPath`/nodes/${node}/qemu/${vmid}/status/${action}`;
    return expectUpid(await this.#data('POST', path, params), context('POST', path));
  }

  async #data(method: HttpMethod, path: string, params?: FormParams, signal?: AbortSignal): Promise<unknown> {
    const call: ApiCall = { method, path, params, signal };
    return (await this.#transport.call(call)).data;
  }

  #authenticator(options: ResolvedClientOptions): Authenticator {
    const { credentials } = options;
    if (credentials.kind === 'token') {
      const headers = { authorization: apiTokenHeader(credentials.token) };
      return { headers: () => Promise.resolve(headers) };
    }
    return new TicketSession((signal) =>
      this.createTicket(credentials.username, credentials.password, signal === undefined ? {} : { signal }),
    );
  }
}

export function createProxmoxClient(options: ProxmoxClientOptions): ProxmoxClient {
  return new ProxmoxClient(options);
}

function context(method: HttpMethod, path: string): RequestContext {
  return { method, path };
}
