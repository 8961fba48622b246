import type { Informer } from './informer.js';
import type { KubeObject } from './kube-object.js';
import { keyOf } from './object-key.js';
import type { Reconciler } from './reconciler.js';
import type { ShutdownResult, WorkQueueMetrics, WorkQueueOptions } from './work-queue.js';
import { WorkQueue } from './work-queue.js';

/** Something that turns changes into keys: usually an informer plus a mapping. */
export interface KeySource {
  /** Starts feeding keys to `enqueue`; returns a function that stops. */
  subscribe(enqueue: (key: string) => void): () => void;
  informer: Pick<Informer<KubeObject>, 'start' | 'stop' | 'running' | 'waitForSync'>;
}

/**
 * Enqueues keys for every add, update and delete seen by `informer`. By default the key is the object's
 * own; pass `toKeys` to map, e.g. a Secret to the ProxmoxVM that references it.
 */
export function fromInformer<T extends KubeObject>(
  informer: Informer<T>,
  toKeys: (obj: T) => readonly string[] = (obj) => [keyOf(obj)],
): KeySource {
  return {
    informer,
    subscribe(enqueue) {
      const each = (obj: T): void => {
        for (const key of toKeys(obj)) enqueue(key);
      };
      return informer.addHandler({
        onAdd: each,
        onUpdate: (_old, obj) => {
          each(obj);
        },
        onDelete: each,
      });
    },
  };
}

export interface ControllerOptions extends WorkQueueOptions {
  name: string;
  reconciler: Reconciler;
  sources: readonly KeySource[];
  /** How long in-flight reconciles may run on after stop. Default 30 s. */
  shutdownTimeoutMs?: number;
}

/** Wires informers → keys → work queue → reconciler, and runs until its signal aborts. */
export class Controller {
  readonly name: string;
  private queue: WorkQueue | undefined;

  constructor(private readonly options: ControllerOptions) {
    this.name = options.name;
  }

  /**
   * Starts the informers that are not running yet, waits until they have synced, then reconciles until
   * `signal` aborts; then stops the queue gracefully and the informers it started.
   */
  async run(signal: AbortSignal): Promise<ShutdownResult> {
    const { reconciler, sources, shutdownTimeoutMs = 30_000, ...queueOptions } = this.options;
    const queue = new WorkQueue((key, keySignal) => reconciler.reconcile(key, keySignal), queueOptions);
    this.queue = queue;
    const startedHere = sources.map((s) => s.informer).filter((informer) => !informer.running);
    for (const informer of startedHere) informer.start();
    const unsubscribes = sources.map((s) =>
      s.subscribe((key) => {
        queue.add(key);
      }),
    );
    try {
      const synced = await Promise.all(sources.map((s) => s.informer.waitForSync(signal)));
      if (synced.every(Boolean)) queue.start();
      await new Promise<void>((resolve) => {
        if (signal.aborted) resolve();
        else
          signal.addEventListener(
            'abort',
            () => {
              resolve();
            },
            { once: true },
          );
      });
      return await queue.shutdown(shutdownTimeoutMs);
    } finally {
      for (const unsubscribe of unsubscribes) unsubscribe();
      await Promise.all(startedHere.map((informer) => informer.stop()));
    }
  }

  /** Enqueues a key by hand (e.g. from a timer or another controller). */
  enqueue(key: string): void {
    this.queue?.add(key);
  }

  metrics(): WorkQueueMetrics | undefined {
    return this.queue?.metrics();
  }
}
