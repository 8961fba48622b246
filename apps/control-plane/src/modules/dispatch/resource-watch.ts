import type { Informer, KubeObject, Reconciler, ResourceClient } from '@noderings/kube';
import { Controller, fromInformer, Informer as KubeInformer, objectKey } from '@noderings/kube';
import type { BaseLogger } from 'pino';

import { describeError } from './dispatch-failure.js';

/** The pace and patience of a VM's status watch (status-watch.ts), for the VM's resources. */
const RATE_LIMIT = { ratePerSecond: 100, burst: 500 };
const RETRY_BACKOFF = { baseMs: 500, maxMs: 60_000, jitter: 0.3 };
const WORKERS = 2;
const SHUTDOWN_TIMEOUT_MS = 10_000;

/** What the dispatcher keeps of a watch: its cache's state, a way in for keys, and a stop. */
export interface ResourceWatchHandle {
  readonly synced: boolean;
  /** Whether the cache holds the object of that name. */
  has(objectName: string): boolean;
  /** Reconciles the object of that name although no event came for it. */
  enqueue(objectName: string): void;
  stop(): Promise<void>;
}

/**
 * Watches one kind of a VM's resources in one agent cluster and reconciles each event's object into its
 * table, one object at a time, with retries: an informer feeding a Controller, as StatusWatch does for
 * ProxmoxVMs.
 */
export class ResourceWatch<T extends KubeObject> implements ResourceWatchHandle {
  readonly #informer: KubeInformer<T>;
  readonly #controller: Controller;
  readonly #abort = new AbortController();
  readonly #running: Promise<unknown>;

  constructor(
    private readonly deps: {
      /** Names the controller and the log lines, e.g. `vmsnapshot`. */
      readonly kind: string;
      readonly client: ResourceClient<T>;
      readonly namespace: string;
      readonly agentId: string;
      readonly labelSelector?: string;
      readonly credentials: readonly string[];
      readonly reconciler: (cache: Pick<Informer<T>, 'get'>) => Reconciler;
      readonly logger: Pick<BaseLogger, 'warn' | 'error'>;
    },
  ) {
    const { agentId, kind, logger } = deps;
    this.#informer = new KubeInformer(deps.client, {
      namespace: deps.namespace,
      ...(deps.labelSelector !== undefined && { labelSelector: deps.labelSelector }),
      onError: (e: unknown) => {
        logger.warn(
          { agentId, kind, reason: describeError(e, deps.credentials) },
          'watching VM resources failed; retrying',
        );
      },
    });
    this.#controller = new Controller({
      name: `${kind}-status-${agentId}`,
      reconciler: deps.reconciler(this.#informer),
      sources: [fromInformer(this.#informer)],
      workers: WORKERS,
      rateLimit: RATE_LIMIT,
      backoff: RETRY_BACKOFF,
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
      onError: (key, e, failures) => {
        logger.warn(
          { agentId, kind, key, failures, reason: describeError(e, deps.credentials) },
          'VM resource status sync failed; retrying',
        );
      },
    });
    this.#running = this.#controller.run(this.#abort.signal).catch((e: unknown) => {
      logger.error(
        { agentId, kind, reason: describeError(e, deps.credentials) },
        'VM resource status sync stopped',
      );
    });
  }

  get synced(): boolean {
    return this.#informer.hasSynced();
  }

  has(objectName: string): boolean {
    return this.#informer.get(this.#key(objectName)) !== undefined;
  }

  enqueue(objectName: string): void {
    this.#controller.enqueue(this.#key(objectName));
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#running;
  }

  #key(name: string): string {
    return objectKey({ namespace: this.deps.namespace, name });
  }
}
