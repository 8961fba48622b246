import type {
  ObjectRef,
  ProxmoxInventory,
  ProxmoxInventoryNode,
  ProxmoxInventoryStatus,
  ReconcileResult,
  Reconciler,
  ResourceClient,
} from '@noderings/kube';
import {
  KubeAlreadyExistsError,
  CRD_API_VERSION,
  DONE,
  KubeNotFoundError,
  parseObjectKey,
  setCondition,
  updateStatus,
} from '@noderings/kube';
import type { Logger } from '@noderings/log';
import type { ProxmoxClient } from '@noderings/proxmox';

import { OperatorError } from '../operator-error.js';
import { withFailureRecording } from '../with-failure-recording.js';

/** How often Proxmox is read again, so that a node or template added there shows within a minute. */
const DEFAULT_INVENTORY_REFRESH_MS = 60_000;
/** observedAt is rewritten at least this often when nothing changed, so readers can tell it is live. */
const HEARTBEAT_MS = 5 * 60_000;
const READY = 'Ready';

export interface InventoryReconcilerDeps {
  inventories: ResourceClient<ProxmoxInventory>;
  instances: { get(instance: string): ProxmoxClient };
  logger: Logger;
  refreshMs?: number;
  clock?: () => Date;
}

/**
 * Keyed `{watch namespace}/{instance}`: keeps one ProxmoxInventory per Proxmox instance with the nodes
 * Proxmox has and the template VMIDs on each, read again every `refreshMs`; deletes it when the
 * instance's credentials Secret goes. Only templates are listed: no other guest's name, state or size
 * leaves Proxmox through it.
 */
export class InventoryReconciler implements Reconciler {
  constructor(private readonly deps: InventoryReconcilerDeps) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const instance = ref.name;
    let pve: ProxmoxClient;
    try {
      pve = this.deps.instances.get(instance);
    } catch (e: unknown) {
      if (!(e instanceof OperatorError && e.code === 'INSTANCE_NOT_FOUND')) throw e;
      await this.deps.inventories.delete(ref, { signal }).catch((deleteError: unknown) => {
        if (!(deleteError instanceof KubeNotFoundError)) throw deleteError;
      });
      return DONE;
    }
    await this.#ensureExists(ref, instance, signal);
    const nodes = await withFailureRecording(() => this.#read(pve, ref, signal), {
      signal,
      log: this.deps.logger.child({ instance }),
      msg: 'proxmox inventory not read',
      levels: { terminal: 'warn', retryable: 'warn' },
      record: (failure) =>
        updateStatus(
          this.deps.inventories,
          ref,
          (current) => ({
            ...current.status,
            phase: 'Failed',
            message: failure.message,
            conditions: setCondition(
              current.status?.conditions,
              { type: READY, status: 'False', reason: failure.reason, message: failure.message },
              current.metadata?.generation,
              this.#now(),
            ),
          }),
          { signal },
        ),
      // Whatever went wrong, Proxmox answering again is enough: the inventory is always read again.
      onTerminal: (_failure, e) => {
        throw e;
      },
    });
    await updateStatus(this.deps.inventories, ref, (current) => this.#readStatus(current, nodes), { signal });
    return { requeueAfter: this.deps.refreshMs ?? DEFAULT_INVENTORY_REFRESH_MS };
  }

  async #ensureExists(ref: ObjectRef, instance: string, signal: AbortSignal): Promise<void> {
    if ((await this.deps.inventories.find(ref, signal)) !== undefined) return;
    try {
      await this.deps.inventories.create(
        {
          apiVersion: CRD_API_VERSION,
          kind: 'ProxmoxInventory',
          metadata: { name: ref.name, namespace: ref.namespace },
          spec: { instance },
        },
        { signal },
      );
    } catch (e: unknown) {
      if (!(e instanceof KubeAlreadyExistsError)) throw e;
    }
  }

  /** The nodes and their templates; an offline node keeps the templates last read from it. */
  async #read(pve: ProxmoxClient, ref: ObjectRef, signal: AbortSignal): Promise<ProxmoxInventoryNode[]> {
    const previous = (await this.deps.inventories.find(ref, signal))?.status?.nodes ?? [];
    const listed = await pve.getNodes();
    const nodes = await Promise.all(
      listed.map(async (n): Promise<ProxmoxInventoryNode> => {
        const online = n.status === 'online';
        if (!online) {
          const known = previous.find((p) => p.name === n.node)?.templateVmids ?? [];
          return { name: n.node, online, templateVmids: known };
        }
        const guests = await pve.getVms(n.node, { signal });
        const templateVmids = guests
          .filter((g) => g.template === 1)
          .map((g) => g.vmid)
          .sort((a, b) => a - b);
        return { name: n.node, online, templateVmids };
      }),
    );
    return nodes.sort((a, b) => a.name.localeCompare(b.name));
  }

  #readStatus(current: ProxmoxInventory, nodes: ProxmoxInventoryNode[]): ProxmoxInventoryStatus {
    const status = current.status ?? {};
    const now = this.#now();
    const unchanged =
      status.phase === 'Ready' &&
      JSON.stringify(status.nodes) === JSON.stringify(nodes) &&
      now.getTime() - Date.parse(status.observedAt ?? '') < HEARTBEAT_MS;
    if (unchanged) return status;
    const summary = `${nodes.length} node(s), ${nodes.reduce((sum, n) => sum + n.templateVmids.length, 0)} template(s)`;
    return {
      phase: 'Ready',
      observedAt: now.toISOString(),
      nodes,
      observedGeneration: current.metadata?.generation,
      conditions: setCondition(
        status.conditions,
        { type: READY, status: 'True', reason: 'Read', message: `Proxmox read: ${summary}` },
        current.metadata?.generation,
        now,
      ),
    };
  }

  #now(): Date {
    return this.deps.clock?.() ?? new Date();
  }
}
