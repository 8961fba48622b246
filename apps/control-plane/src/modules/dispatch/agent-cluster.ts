import type { CloudInitDocuments } from '@noderings/domain';
import type { ProxmoxVM } from '@noderings/kube';
import { KubeNotFoundError, VM_ID_LABEL, type KubeClient } from '@noderings/kube';

import { agentKubeClient, operatorNamespace } from '../agents/index.js';
import { StillDeletingError } from './dispatch-failure.js';
import type { ResourceWatchHandle } from './resource-watch.js';
import type { StatusWatch } from './status-watch.js';
import {
  cloudInitSecretName,
  cloudInitSecretOf,
  FIELD_MANAGER,
  firewallRuleSetName,
  firewallRuleSetOf,
  isVmId,
  proxmoxVmName,
  type VmNetworkPolicy,
} from './vm-order.js';

/**
 * One agent cluster as the control plane reaches it: a client made from the agent's kubeconfig, the
 * writes of an order into `{agent}-operator`, and the status watch over them. A new kubeconfig makes a
 * new AgentCluster; this one is closed.
 */
export class AgentCluster {
  readonly namespace: string;
  readonly kube: KubeClient;
  /** The kubeconfig's credentials, which no message written from a failure may repeat. */
  readonly credentials: readonly string[];
  #watch: StatusWatch | undefined;
  /** One watch per kind of the VMs' resources (VMSnapshot, VMBackup, VNCRequest). */
  readonly #resourceWatches = new Map<string, ResourceWatchHandle>();
  #closed = false;

  constructor(
    readonly agentId: string,
    /** The kubeconfig this client was made from, to tell when the agent's changes. */
    readonly kubeconfig: string,
    /** Development only: lets requests and watches dial addresses that are not public. */
    options: { readonly allowPrivateDestinations: boolean },
  ) {
    this.kube = agentKubeClient(kubeconfig, options);
    this.namespace = operatorNamespace(agentId);
    const user = this.kube.kubeConfig.getCurrentUser();
    this.credentials = [user?.token, user?.password, user?.keyData].filter(
      (value): value is string => typeof value === 'string' && value !== '',
    );
  }

  /**
   * Puts the order in the cluster: the cloud-init Secret first (the operator needs it as soon as it sees
   * the ProxmoxVM), then the ProxmoxVM, then the Secret again owned by it, so that deleting the
   * ProxmoxVM takes the Secret along. Server-side apply makes every step idempotent and leaves the
   * operator's fields (finalizers, status) alone.
   */
  /**
   * The VM's firewall rules after its order (owned by the ProxmoxVM, so they go when it goes), or none:
   * a rule set left from a detached ruleset is deleted.
   */
  async applyFirewall(vmId: string, policy: VmNetworkPolicy, signal: AbortSignal): Promise<void> {
    const name = firewallRuleSetName(vmId);
    if (policy.firewall === undefined) {
      await ignoreNotFound(
        this.kube.firewallRuleSets.delete({ namespace: this.namespace, name }, { signal }),
      );
      return;
    }
    const owner = await this.findOrder(vmId, signal);
    await this.kube.firewallRuleSets.apply(firewallRuleSetOf(vmId, this.namespace, policy.firewall, owner), {
      fieldManager: FIELD_MANAGER,
      force: true,
      signal,
    });
  }

  async applyOrder(vm: ProxmoxVM, documents: CloudInitDocuments, signal: AbortSignal): Promise<void> {
    const vmId = vm.spec.vmId;
    const existing = await this.findOrder(vmId, signal);
    if (existing?.metadata?.deletionTimestamp !== undefined)
      throw new StillDeletingError(
        `waiting for the previous ProxmoxVM ${proxmoxVmName(vmId)} to finish deleting before ordering it again`,
      );
    const apply = { fieldManager: FIELD_MANAGER, force: true, signal };
    await this.kube.secrets.apply(cloudInitSecretOf(vmId, this.namespace, documents, existing), apply);
    const applied = await this.kube.proxmoxVMs.apply(vm, apply);
    if (applied.metadata?.uid !== existing?.metadata?.uid)
      await this.kube.secrets.apply(cloudInitSecretOf(vmId, this.namespace, documents, applied), apply);
  }

  /**
   * Asks for the ProxmoxVM's deletion; the operator's finalizer deletes the Proxmox guest first. True
   * when it is already gone.
   */
  async withdrawOrder(vmId: string, signal: AbortSignal): Promise<boolean> {
    await this.deleteOrder(vmId, signal);
    return (await this.findOrder(vmId, signal)) === undefined;
  }

  findOrder(vmId: string, signal: AbortSignal): Promise<ProxmoxVM | undefined> {
    return this.kube.proxmoxVMs.find({ namespace: this.namespace, name: proxmoxVmName(vmId) }, signal);
  }

  async deleteOrder(vmId: string, signal: AbortSignal): Promise<void> {
    await ignoreNotFound(
      this.kube.proxmoxVMs.delete(
        { namespace: this.namespace, name: proxmoxVmName(vmId) },
        { propagationPolicy: 'Background', signal },
      ),
    );
  }

  async deleteCloudInit(vmId: string, signal: AbortSignal): Promise<void> {
    await ignoreNotFound(
      this.kube.secrets.delete({ namespace: this.namespace, name: cloudInitSecretName(vmId) }, { signal }),
    );
  }

  /** The VMs that have a cloud-init Secret here, by its label. */
  async cloudInitVmIds(signal: AbortSignal): Promise<string[]> {
    const list = await this.kube.secrets.list(this.namespace, { labelSelector: VM_ID_LABEL, signal });
    return list.items.flatMap((secret) => {
      const vmId = secret.metadata?.labels?.[VM_ID_LABEL];
      return vmId !== undefined && isVmId(vmId) && secret.metadata?.name === cloudInitSecretName(vmId)
        ? [vmId]
        : [];
    });
  }

  /** The status watch, made by `create` the first time. None once closed. */
  watch(create: (cluster: AgentCluster) => StatusWatch): StatusWatch | undefined {
    if (this.#closed) return undefined;
    this.#watch ??= create(this);
    return this.#watch;
  }

  /** The status watch of one kind of the VMs' resources, made by `create` the first time. None once closed. */
  watchResource<W extends ResourceWatchHandle>(
    kind: string,
    create: (cluster: AgentCluster) => W,
  ): W | undefined {
    if (this.#closed) return undefined;
    let watch = this.#resourceWatches.get(kind);
    if (watch === undefined) {
      watch = create(this);
      this.#resourceWatches.set(kind, watch);
    }
    return watch as W;
  }

  /** Stops the watch (its reconciles in flight finish first) and closes the connections. */
  async close(): Promise<void> {
    this.#closed = true;
    await this.#watch?.stop();
    await Promise.all([...this.#resourceWatches.values()].map((w) => w.stop()));
    await this.kube.close();
  }
}

async function ignoreNotFound(request: Promise<void>): Promise<void> {
  try {
    await request;
  } catch (e: unknown) {
    if (!(e instanceof KubeNotFoundError)) throw e;
  }
}
