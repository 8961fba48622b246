import type { ProxmoxVM, Reconciler, ResourceClient } from '@noderings/kube';
import { Controller, fromInformer, Informer, objectKey, VM_ID_LABEL } from '@noderings/kube';
import type { BaseLogger } from 'pino';

import { describeError } from './dispatch-failure.js';
import { proxmoxVmName } from './vm-order.js';

/** Status writes are one conditional UPDATE each: a relist of a large agent may go at this pace. */
const RATE_LIMIT = { ratePerSecond: 100, burst: 500 };
const RETRY_BACKOFF = { baseMs: 500, maxMs: 60_000, jitter: 0.3 };
const WORKERS = 4;
/** In-flight reconciles are database writes and a kube read or two; a stop gives them this long. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

/**
 * Watches one agent cluster's ProxmoxVMs (ours, by label) and reconciles each event's VM into the
 * database, one VM at a time, with retries: an informer feeding a Controller, as in the operator.
 */
export class StatusWatch {
  readonly #informer: Informer<ProxmoxVM>;
  readonly #controller: Controller;
  readonly #abort = new AbortController();
  readonly #running: Promise<unknown>;

  constructor(
    private readonly deps: {
      readonly client: ResourceClient<ProxmoxVM>;
      readonly namespace: string;
      readonly agentId: string;
      /** Kept out of the log lines of failures. */
      readonly credentials: readonly string[];
      readonly reconciler: (cache: Pick<Informer<ProxmoxVM>, 'get'>) => Reconciler;
      readonly logger: Pick<BaseLogger, 'warn' | 'error'>;
    },
  ) {
    const { agentId, logger } = deps;
    this.#informer = new Informer(deps.client, {
      namespace: deps.namespace,
      labelSelector: VM_ID_LABEL,
      onError: (e: unknown) => {
        logger.warn(
          { agentId, reason: describeError(e, deps.credentials) },
          'watching ProxmoxVMs failed; retrying',
        );
      },
    });
    this.#controller = new Controller({
      name: `vm-status-${agentId}`,
      reconciler: deps.reconciler(this.#informer),
      sources: [fromInformer(this.#informer)],
      workers: WORKERS,
      rateLimit: RATE_LIMIT,
      backoff: RETRY_BACKOFF,
      shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS,
      onError: (key, e, failures) => {
        logger.warn(
          { agentId, key, failures, reason: describeError(e, deps.credentials) },
          'VM status sync failed; retrying',
        );
      },
    });
    this.#running = this.#controller.run(this.#abort.signal).catch((e: unknown) => {
      logger.error({ agentId, reason: describeError(e, deps.credentials) }, 'VM status sync stopped');
    });
  }

  /** True once the first list has filled the cache: before, absence from it means nothing. */
  get synced(): boolean {
    return this.#informer.hasSynced();
  }

  /** Whether the cache holds the VM's ProxmoxVM. */
  has(vmId: string): boolean {
    return this.#informer.get(this.#key(vmId)) !== undefined;
  }

  /** Reconciles the VM although no event came for it (e.g. its ProxmoxVM went while nobody watched). */
  enqueue(vmId: string): void {
    this.#controller.enqueue(this.#key(vmId));
  }

  async stop(): Promise<void> {
    this.#abort.abort();
    await this.#running;
  }

  #key(vmId: string): string {
    return objectKey({ namespace: this.deps.namespace, name: proxmoxVmName(vmId) });
  }
}
