import type { Informer, ProxmoxVM, ReconcileResult, Reconciler } from '@noderings/kube';
import { DONE, isConditionTrue, parseObjectKey, READY_CONDITION } from '@noderings/kube';
import type { BaseLogger } from 'pino';

import type { AgentCluster } from './agent-cluster.js';
import type { DispatchRepository, ObservedVm, VmDispatchState } from './dispatch.repository.js';
import { isNodeTiedFailure } from './order-failure.js';
import { vmIdOfName } from './vm-order.js';

/**
 * Status sync for one agent cluster: given a ProxmoxVM's key, it compares what the cluster holds (the
 * informer's cache, confirmed by a read before acting on an absence) with the VM's row, and
 * - records the reported status on the row;
 * - finishes a dispatched deletion once the ProxmoxVM is gone;
 * - has the dispatcher order again a VM whose ProxmoxVM vanished, or came back after its deletion was
 *   dispatched;
 * - deletes a ProxmoxVM whose VM is finished (a write that arrived after the deletion);
 * - has an order that failed for good placed once on another node when the failure is the node's
 *   (order-failure.ts), and fails it otherwise or the second time.
 * A ProxmoxVM without a VM row is left alone: the database may be older than the cluster (a restore),
 * and deleting would delete a customer's guest.
 */
export class VmStatusReconciler implements Reconciler {
  constructor(
    private readonly deps: {
      readonly agentId: string;
      readonly vms: Pick<
        DispatchRepository,
        'findState' | 'recordObserved' | 'redispatch' | 'dueNow' | 'markFailed' | 'markRetrying'
      >;
      readonly cache: Pick<Informer<ProxmoxVM>, 'get'>;
      readonly cluster: Pick<AgentCluster, 'findOrder' | 'deleteOrder'>;
      /** Finishes a dispatched deletion under the VM's lease; false when another lease holds the VM. */
      readonly finishDeletion: (vmId: string, signal: AbortSignal) => Promise<boolean>;
      /** Told when a VM is due again, so that the dispatcher looks at once. */
      readonly redispatched: () => void;
      /** How soon to look again when another replica holds the VM's lease. */
      readonly leaseRetryMs: number;
      readonly now: () => Date;
      readonly logger: Pick<BaseLogger, 'info' | 'warn'>;
    },
  ) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const vmId = vmIdOfName(parseObjectKey(key).name);
    if (vmId === undefined) return DONE;
    const vm = await this.deps.vms.findState(vmId);
    const found = this.deps.cache.get(key);
    if (vm?.agentId !== this.deps.agentId) {
      if (found !== undefined)
        this.deps.logger.warn(
          { agentId: this.deps.agentId, vmId },
          'ProxmoxVM of no VM on this agent; left alone',
        );
      return DONE;
    }
    return found === undefined ? this.#absent(vm, signal) : this.#present(vm, found, signal);
  }

  async #present(vm: VmDispatchState, found: ProxmoxVM, signal: AbortSignal): Promise<ReconcileResult> {
    if (vm.finished) {
      if (found.metadata?.deletionTimestamp !== undefined) return DONE;
      await this.deps.cluster.deleteOrder(vm.id, signal);
      this.deps.logger.warn({ vmId: vm.id }, 'ProxmoxVM of a deleted VM deleted again');
      return DONE;
    }
    // The guest of a place the VM has moved from, still in the cache: its news is old.
    if (vm.node !== found.spec.node || vm.vmid !== found.spec.vmid) return DONE;
    const observed = observedOf(found);
    await this.deps.vms.recordObserved(vm.id, observed, this.deps.now());
    if (vm.desiredState === 'PRESENT' && !vm.mustMove && orderFailed(found)) {
      if (
        isNodeTiedFailure(failureReasonOf(found)) &&
        (await this.deps.vms.markRetrying(vm.id, observed.message, this.deps.now()))
      ) {
        this.deps.logger.info(
          { vmId: vm.id, agentId: this.deps.agentId, reason: failureReasonOf(found) },
          'VM order failed on its node: withdrawn, to be placed on another once the ProxmoxVM is gone',
        );
        this.deps.redispatched();
        return DONE;
      }
      if (await this.deps.vms.markFailed(vm.id, observed.message, this.deps.now())) {
        this.deps.logger.info(
          { vmId: vm.id, agentId: this.deps.agentId },
          'VM order failed: withdrawn, its claim is released once the ProxmoxVM is gone',
        );
        this.deps.redispatched();
      }
      return DONE;
    }
    if (vm.desiredState === 'ABSENT' && vm.dispatched && found.metadata?.deletionTimestamp === undefined) {
      // The cache may still hold the version from before the delete: only the live object counts.
      const live = await this.deps.cluster.findOrder(vm.id, signal);
      if (live !== undefined && live.metadata?.deletionTimestamp === undefined)
        await this.#redispatch(vm, 'its ProxmoxVM is back after its deletion');
    }
    return DONE;
  }

  async #absent(vm: VmDispatchState, signal: AbortSignal): Promise<ReconcileResult> {
    if (vm.finished) return DONE;
    if (!vm.dispatched) {
      // The dispatcher is on it; if it is waiting to retry (the ProxmoxVM was still being deleted), the
      // wait is over.
      if (await this.deps.vms.dueNow(vm.id)) this.deps.redispatched();
      return DONE;
    }
    // The cache may not have seen a ProxmoxVM created a moment ago.
    if ((await this.deps.cluster.findOrder(vm.id, signal)) !== undefined) return DONE;
    if (vm.desiredState === 'PRESENT') {
      await this.#redispatch(vm, 'its ProxmoxVM vanished from the agent cluster');
      return DONE;
    }
    return (await this.deps.finishDeletion(vm.id, signal)) ? DONE : { requeueAfter: this.deps.leaseRetryMs };
  }

  async #redispatch(vm: VmDispatchState, why: string): Promise<void> {
    if (!(await this.deps.vms.redispatch(vm.id, vm.desiredState))) return;
    this.deps.logger.info({ vmId: vm.id, agentId: this.deps.agentId }, `VM ordered again: ${why}`);
    this.deps.redispatched();
  }
}

/** The operator gave up on the order (a terminal failure) before the guest was ever provisioned. */
function orderFailed(vm: ProxmoxVM): boolean {
  const status = vm.status;
  return (
    status?.phase === 'Failed' &&
    vm.metadata?.deletionTimestamp === undefined &&
    !isConditionTrue(status.conditions, PROVISIONED_CONDITION)
  );
}

/** The operator's condition that the guest was created and configured once. */
const PROVISIONED_CONDITION = 'Provisioned';

/** Why the operator gave up: its Provisioned condition's reason. */
function failureReasonOf(vm: ProxmoxVM): string {
  return vm.status?.conditions?.find((c) => c.type === PROVISIONED_CONDITION)?.reason ?? '';
}

/** The row's view of a ProxmoxVM's status; the Ready condition says best what the customer waits for. */
function observedOf(vm: ProxmoxVM): ObservedVm {
  const status = vm.status ?? {};
  const conditions = status.conditions ?? [];
  const ready = conditions.find((c) => c.type === READY_CONDITION)?.message;
  return {
    phase: status.phase ?? '',
    powerState: status.powerState ?? '',
    message: ready !== undefined && ready !== '' ? ready : (status.message ?? ''),
    conditions,
    generation: status.observedGeneration ?? 0,
  };
}
