import type { KubeObject } from '@noderings/kube';
import type { Backoff } from '@noderings/retry';
import type { BaseLogger } from 'pino';

import type { AgentCluster } from './agent-cluster.js';
import type { AgentClusters } from './agent-clusters.js';
import { describeFailure } from './dispatch-failure.js';
import type { ResourceKind } from './resource-kind.js';
import type { LeasedResource } from './resource-leases.js';
import { ResourceStatusReconciler } from './resource-status.reconciler.js';
import { ResourceWatch } from './resource-watch.js';

export interface ResourceDispatcherDeps {
  readonly kinds: readonly ResourceKind[];
  readonly clusters: AgentClusters;
  readonly backoff: Backoff;
  readonly owner: string;
  readonly leaseMs: number;
  readonly batchSize: number;
  /** A dispatch is given this long, so that it has ended before its lease does. */
  readonly dispatchTimeoutMs: number;
  readonly now: () => Date;
  readonly logger: Pick<BaseLogger, 'info' | 'warn' | 'error'>;
  /** Has the dispatcher look for due rows at once. */
  readonly kick: () => void;
  readonly stopped: () => boolean;
}

/**
 * The Dispatcher's share for a VM's resources (snapshots, backups, console sessions): the same guarantees
 * as for VMs, per kind. A due row is leased, its wanted state applied (or its object deleted) and marked
 * dispatched only if nothing changed meanwhile; failures wait with backoff and say why on the row. One
 * watch per agent and kind writes what the cluster reports back, finishes rows whose object is gone, and
 * deletes objects whose row is finished, so nothing is left behind on either side.
 */
export class ResourceDispatcher {
  constructor(private readonly deps: ResourceDispatcherDeps) {}

  /** Dispatches due rows of every kind until none is left. */
  async drain(): Promise<void> {
    const { owner, leaseMs, batchSize } = this.deps;
    for (const kind of this.deps.kinds) {
      while (!this.deps.stopped()) {
        let batch: LeasedResource[];
        try {
          batch = await kind.leases.leaseDue(owner, leaseMs, batchSize);
        } catch (e: unknown) {
          this.deps.logger.error({ err: e, kind: kind.kind }, 'leasing VM resources to dispatch failed');
          break;
        }
        if (batch.length === 0) break;
        await Promise.all(batch.map((resource) => this.#dispatch(kind, resource)));
      }
    }
  }

  /** Starts the cluster's watch of every kind, the first time. */
  watch(cluster: AgentCluster): void {
    if (this.deps.stopped()) return;
    for (const kind of this.deps.kinds) this.#watchOf(cluster, kind);
  }

  /** Reconciles the agent's dispatched objects its watches never saw (gone while nobody watched). */
  async resync(cluster: AgentCluster): Promise<void> {
    for (const kind of this.deps.kinds) {
      const watch = this.#watchOf(cluster, kind);
      if (watch?.synced !== true) continue;
      for (const name of await kind.leases.dispatchedObjectsOf(cluster.agentId))
        if (!watch.has(name)) watch.enqueue(name);
    }
  }

  /** Once per resync pass, over every agent: rows no longer wanted are withdrawn. */
  async sweep(): Promise<void> {
    for (const kind of this.deps.kinds) await kind.sweep?.();
    this.deps.kick();
  }

  /** The VM's deletion finished (its ProxmoxVM and guest are gone): so are its resources. */
  async vmFinished(vmId: string, at: Date): Promise<void> {
    for (const kind of this.deps.kinds) await kind.vmFinished(vmId, at);
  }

  async #dispatch(kind: ResourceKind, resource: LeasedResource): Promise<void> {
    const signal = AbortSignal.timeout(this.deps.dispatchTimeoutMs);
    const { owner, logger } = this.deps;
    const fields = { kind: kind.kind, id: resource.id, vmId: resource.vmId, agentId: resource.agentId };
    let cluster: AgentCluster | undefined;
    try {
      cluster = await this.deps.clusters.get(resource.agentId);
      const outcome = await kind.dispatch(cluster, resource, signal);
      if (outcome === 'gone') {
        const finished = await kind.finish(resource.id, owner, this.deps.now());
        logger.info({ ...fields, finished }, 'VM resource gone from its agent cluster');
      } else {
        const recorded = await kind.leases.markDispatched(resource.id, owner, resource.generation);
        logger.info(
          { ...fields, desiredState: resource.desiredState, generation: resource.generation, recorded },
          'VM resource dispatched',
        );
      }
      this.watch(cluster);
    } catch (e: unknown) {
      const reason = describeFailure(e, {
        timedOut: signal.aborted,
        timeoutMs: this.deps.dispatchTimeoutMs,
        secrets: cluster?.credentials ?? [],
      });
      const attempts = resource.dispatchAttempts + 1;
      const retryInMs = this.deps.backoff.delayMs(attempts);
      try {
        await kind.leases.recordFailure(resource.id, owner, retryInMs, reason);
      } catch (recordError: unknown) {
        // The lease runs out by itself; the row is tried again then.
        logger.error({ ...fields, err: recordError }, 'recording a VM resource dispatch failure failed');
      }
      logger.warn({ ...fields, attempts, retryInMs, reason }, 'VM resource dispatch failed');
    }
  }

  /** Finishing from status sync takes the row's lease first, as a dispatch would. */
  async #finishObserved(
    kind: ResourceKind,
    cluster: AgentCluster,
    id: string,
    objectName: string,
    signal: AbortSignal,
  ): Promise<boolean> {
    const { owner } = this.deps;
    if (!(await kind.leases.leaseFinishable(id, owner, this.deps.leaseMs))) return false;
    try {
      const live = await kind
        .client(cluster)
        .find({ namespace: cluster.namespace, name: objectName }, signal);
      if (live === undefined) {
        const finished = await kind.finish(id, owner, this.deps.now());
        this.deps.logger.info(
          { kind: kind.kind, id, agentId: cluster.agentId, finished },
          'VM resource gone from its agent cluster',
        );
      } else await kind.leases.releaseLease(id, owner);
      return true;
    } catch (e: unknown) {
      await kind.leases.releaseLease(id, owner).catch(() => undefined);
      throw e;
    }
  }

  #watchOf(cluster: AgentCluster, kind: ResourceKind): ResourceWatch<KubeObject> | undefined {
    if (this.deps.stopped()) return undefined;
    return cluster.watchResource(
      kind.kind,
      (c) =>
        new ResourceWatch<KubeObject>({
          kind: kind.kind,
          client: kind.client(c),
          namespace: c.namespace,
          agentId: c.agentId,
          ...(kind.labelSelector !== undefined && { labelSelector: kind.labelSelector }),
          credentials: c.credentials,
          logger: this.deps.logger,
          reconciler: (cache) =>
            new ResourceStatusReconciler({
              agentId: c.agentId,
              kind,
              cache,
              client: kind.client(c),
              finish: (id, objectName, signal) => this.#finishObserved(kind, c, id, objectName, signal),
              redispatched: this.deps.kick,
              leaseRetryMs: this.deps.leaseMs,
              now: this.deps.now,
              logger: this.deps.logger,
            }),
        }),
    );
  }
}
