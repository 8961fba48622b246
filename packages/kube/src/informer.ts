import { Backoff, type BackoffOptions, isAborted, sleep } from '@noderings/retry';
import { KubeGoneError } from './kube-api-error.js';
import type { KubeObject } from './kube-object.js';
import { keyOf } from './object-key.js';
import type { ResourceClient } from './resource-client.js';

export interface InformerHandler<T extends KubeObject> {
  onAdd?(obj: T): void;
  /** Also called on every resync, with `oldObj === newObj`. */
  onUpdate?(oldObj: T, newObj: T): void;
  /** `obj` is the last state the informer saw. */
  onDelete?(obj: T): void;
}

export interface InformerOptions {
  /** Watch one namespace; all namespaces when absent. */
  namespace?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Calls onUpdate for every cached object this often, so missed work is picked up. 0 = never. */
  resyncPeriodMs?: number;
  /** Delay between relists after failures. Default 200 ms doubling to 30 s. */
  backoff?: BackoffOptions;
  /** Failed lists and watches; the informer keeps trying. */
  onError?: (error: unknown) => void;
}

const DEFAULT_BACKOFF: BackoffOptions = { baseMs: 200, maxMs: 30_000, jitter: 0.3 };
/** client-go's choice: ask the server to end each watch after 5–10 minutes so connections get recycled. */
const MIN_WATCH_TIMEOUT_SECONDS = 300;
const SHORT_WATCH_MS = 1000;

/**
 * Keeps a local cache of one kind (list, then watch from the list's resourceVersion) and tells
 * handlers about adds, updates and deletes. It lists again when the watch's resourceVersion is gone
 * (410) and, after a backoff, when a list or watch fails.
 */
export class Informer<T extends KubeObject> {
  private readonly cache = new Map<string, T>();
  private readonly handlers = new Set<InformerHandler<T>>();
  private readonly backoff: Backoff;
  private controller: AbortController | undefined;
  private loop: Promise<void> | undefined;
  private resyncTimer: NodeJS.Timeout | undefined;
  private synced = false;
  private syncWaiters: (() => void)[] = [];
  private resourceVersion: string | undefined;
  private relists = 0;

  constructor(
    private readonly client: ResourceClient<T>,
    private readonly options: InformerOptions = {},
  ) {
    this.backoff = new Backoff(options.backoff ?? DEFAULT_BACKOFF);
  }

  /** Registers handlers; objects already cached are replayed as adds. Returns an unsubscribe function. */
  addHandler(handler: InformerHandler<T>): () => void {
    this.handlers.add(handler);
    for (const obj of this.cache.values()) this.call(handler, (h) => h.onAdd?.(obj));
    return () => this.handlers.delete(handler);
  }

  get running(): boolean {
    return this.controller !== undefined;
  }

  start(): void {
    if (this.controller !== undefined) return;
    const controller = new AbortController();
    this.controller = controller;
    this.loop = this.run(controller.signal);
    const period = this.options.resyncPeriodMs ?? 0;
    if (period > 0)
      this.resyncTimer = setInterval(() => {
        this.resync();
      }, period);
  }

  /**
   * Stops watching. The cache is kept: a later `start` watches on from where this one stopped, and
   * lists again only if the server no longer has that point (410).
   */
  async stop(): Promise<void> {
    clearInterval(this.resyncTimer);
    this.controller?.abort();
    await this.loop;
    this.controller = undefined;
    this.loop = undefined;
  }

  /** True once the first list has filled the cache. */
  hasSynced(): boolean {
    return this.synced;
  }

  waitForSync(signal?: AbortSignal): Promise<boolean> {
    if (this.synced) return Promise.resolve(true);
    return new Promise((resolve) => {
      const onAbort = (): void => {
        resolve(false);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.syncWaiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve(true);
      });
    });
  }

  get(key: string): T | undefined {
    return this.cache.get(key);
  }

  list(): T[] {
    return [...this.cache.values()];
  }

  /** How many times the informer has listed (the first list included). */
  get listCount(): number {
    return this.relists;
  }

  private async run(signal: AbortSignal): Promise<void> {
    let failures = 0;
    let mustList = this.resourceVersion === undefined;
    while (!signal.aborted) {
      try {
        if (mustList) {
          await this.listAndReplace(signal);
          mustList = false;
        }
        const startedAt = Date.now();
        await this.watchOnce(signal);
        // A watch the server keeps closing at once would otherwise spin: back off as after a failure.
        failures = Date.now() - startedAt < SHORT_WATCH_MS ? failures + 1 : 0;
        if (failures > 0) await sleep(this.backoff.delayMs(failures), signal);
      } catch (e: unknown) {
        if (isAborted(signal)) return;
        mustList = true;
        if (e instanceof KubeGoneError) continue;
        failures += 1;
        this.options.onError?.(e);
        await sleep(this.backoff.delayMs(failures), signal);
      }
    }
  }

  private async listAndReplace(signal: AbortSignal): Promise<void> {
    const { namespace, labelSelector, fieldSelector } = this.options;
    const list = await this.client.list(namespace, { labelSelector, fieldSelector, signal });
    this.relists += 1;
    const seen = new Set<string>();
    for (const obj of list.items) {
      const key = keyOf(obj);
      seen.add(key);
      this.upsert(key, obj);
    }
    for (const [key, obj] of this.cache) {
      if (!seen.has(key)) this.remove(key, obj);
    }
    this.resourceVersion = list.metadata.resourceVersion;
    if (!this.synced) {
      this.synced = true;
      for (const wake of this.syncWaiters.splice(0)) wake();
    }
  }

  private watchOnce(signal: AbortSignal): Promise<void> {
    const { namespace, labelSelector, fieldSelector } = this.options;
    const timeoutSeconds = MIN_WATCH_TIMEOUT_SECONDS + Math.floor(Math.random() * MIN_WATCH_TIMEOUT_SECONDS);
    return this.client.watch(
      namespace,
      {
        resourceVersion: this.resourceVersion,
        labelSelector,
        fieldSelector,
        timeoutSeconds,
        allowWatchBookmarks: true,
      },
      (type, obj) => {
        const rv = obj.metadata?.resourceVersion;
        if (type === 'ADDED' || type === 'MODIFIED') this.upsert(keyOf(obj), obj);
        else if (type === 'DELETED') this.remove(keyOf(obj), obj);
        if (rv !== undefined) this.resourceVersion = rv;
      },
      signal,
    );
  }

  private upsert(key: string, obj: T): void {
    const old = this.cache.get(key);
    this.cache.set(key, obj);
    if (old === undefined) {
      this.notify((h) => h.onAdd?.(obj));
    } else if (old.metadata?.resourceVersion !== obj.metadata?.resourceVersion) {
      this.notify((h) => h.onUpdate?.(old, obj));
    }
  }

  private remove(key: string, obj: T): void {
    const last = this.cache.get(key) ?? obj;
    if (!this.cache.delete(key)) return;
    this.notify((h) => h.onDelete?.(last));
  }

  private resync(): void {
    for (const obj of this.cache.values()) this.notify((h) => h.onUpdate?.(obj, obj));
  }

  private notify(call: (handler: InformerHandler<T>) => void): void {
    for (const handler of this.handlers) this.call(handler, call);
  }

  private call(handler: InformerHandler<T>, call: (handler: InformerHandler<T>) => void): void {
    try {
      call(handler);
    } catch (e: unknown) {
      // A handler's bug must not stop the cache from following the server.
      this.options.onError?.(e);
    }
  }
}
