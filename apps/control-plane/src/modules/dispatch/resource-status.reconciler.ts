import type {
  Informer,
  KubeObject,
  ObjectRef,
  ReconcileResult,
  Reconciler,
  ResourceClient,
} from '@noderings/kube';
import { DONE, KubeNotFoundError, parseObjectKey } from '@noderings/kube';
import type { BaseLogger } from 'pino';

import type { ResourceKind } from './resource-kind.js';
import type { ResourceState } from './resource-leases.js';

/**
 * Status sync of one kind of VM resource in one agent cluster: given an object's key, it compares what
 * the cluster holds (the informer's cache, confirmed by a read before acting on an absence) with the row,
 * and
 * - takes in an object the table does not know, when the kind discovers them (scheduled backups);
 * - records the reported status on the row;
 * - finishes the row once its object is gone, whether its deletion was asked for or it vanished;
 * - has the dispatcher delete again an object that came back after its deletion;
 * - deletes an object whose row is finished (a write that arrived after the end).
 * An object of no row is left alone: the database may be older than the cluster (a restore).
 */
export class ResourceStatusReconciler<T extends KubeObject> implements Reconciler {
  constructor(
    private readonly deps: {
      readonly agentId: string;
      readonly kind: ResourceKind<T>;
      readonly cache: Pick<Informer<T>, 'get'>;
      readonly client: Pick<ResourceClient<T>, 'find' | 'delete'>;
      /** Finishes a row whose object is gone, under its lease; false when another lease holds it. */
      readonly finish: (id: string, objectName: string, signal: AbortSignal) => Promise<boolean>;
      /** Told when a row is due again, so that the dispatcher looks at once. */
      readonly redispatched: () => void;
      readonly leaseRetryMs: number;
      readonly now: () => Date;
      readonly logger: Pick<BaseLogger, 'info' | 'warn'>;
    },
  ) {}

  async reconcile(key: string, signal: AbortSignal): Promise<ReconcileResult> {
    const ref = parseObjectKey(key);
    const { kind, agentId } = this.deps;
    const found = this.deps.cache.get(key);
    let row = await kind.leases.findByObject(agentId, ref.name);
    if (found !== undefined && (row === undefined || row.finished) && kind.discover !== undefined) {
      if (await kind.discover(agentId, found, this.deps.now()))
        row = await kind.leases.findByObject(agentId, ref.name);
    }
    if (row === undefined) {
      if (found !== undefined)
        this.deps.logger.warn({ agentId, kind: kind.kind, name: ref.name }, 'object of no row; left alone');
      return DONE;
    }
    if (row.finished) return this.#finished(row, found, ref, signal);
    return found === undefined ? this.#absent(row, ref, signal) : this.#present(row, found, ref, signal);
  }

  async #finished(
    row: ResourceState,
    found: T | undefined,
    ref: ObjectRef,
    signal: AbortSignal,
  ): Promise<ReconcileResult> {
    if (found === undefined || found.metadata?.deletionTimestamp !== undefined) return DONE;
    const uid = found.metadata?.uid;
    try {
      await this.deps.client.delete(ref, { signal, ...(uid !== undefined && { preconditions: { uid } }) });
    } catch (e: unknown) {
      if (!(e instanceof KubeNotFoundError)) throw e;
    }
    this.deps.logger.warn(
      { agentId: this.deps.agentId, kind: this.deps.kind.kind, id: row.id, name: ref.name },
      'object of a finished row deleted',
    );
    return DONE;
  }

  async #present(
    row: ResourceState,
    found: T,
    ref: ObjectRef,
    signal: AbortSignal,
  ): Promise<ReconcileResult> {
    await this.deps.kind.recordObserved(row.id, found, this.deps.now());
    if (row.desiredState === 'ABSENT' && row.dispatched && found.metadata?.deletionTimestamp === undefined) {
      // The cache may still hold the version from before the delete: only the live object counts.
      const live = await this.deps.client.find(ref, signal);
      if (live !== undefined && live.metadata?.deletionTimestamp === undefined) {
        if (await this.deps.kind.leases.redispatch(row.id)) {
          this.deps.logger.info(
            { agentId: this.deps.agentId, kind: this.deps.kind.kind, id: row.id },
            'deletion dispatched again: the object is back',
          );
          this.deps.redispatched();
        }
      }
    }
    return DONE;
  }

  async #absent(row: ResourceState, ref: ObjectRef, signal: AbortSignal): Promise<ReconcileResult> {
    if (!row.dispatched) {
      // The dispatcher is on it; a wait for a retry is over now that the object is gone.
      if (await this.deps.kind.leases.dueNow(row.id)) this.deps.redispatched();
      return DONE;
    }
    // The cache may not have seen an object created a moment ago.
    if ((await this.deps.client.find(ref, signal)) !== undefined) return DONE;
    return (await this.deps.finish(row.id, ref.name, signal))
      ? DONE
      : { requeueAfter: this.deps.leaseRetryMs };
  }
}
