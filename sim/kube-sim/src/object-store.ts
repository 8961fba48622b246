import type { KubeObject } from './kube-object.js';

export type EventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change, kept in the event window for watches that resume from a resourceVersion. */
export interface StoreEvent {
  type: EventType;
  /** The resource key (`group/plural`) the object belongs to. */
  key: string;
  rv: number;
  object: KubeObject;
  /** The object before the change (MODIFIED, DELETED), so a filtered watch can tell entering from leaving. */
  previous?: KubeObject;
  /** Encodings of this event, made once and shared by every watcher that wants the same form. */
  encoded: Map<string, string>;
}

export interface WatchSink {
  deliver(event: StoreEvent): void;
}

export interface ObjectLocation {
  key: string;
  namespace: string;
  name: string;
}

/** What a state file holds: every object by resource key and the last resourceVersion. */
export interface StoreSnapshot {
  resourceVersion: number;
  objects: Record<string, KubeObject[]>;
}

/**
 * All objects, in memory, with one resourceVersion counter for everything (as etcd's revision),
 * a bounded window of past events and the watchers of each resource. Every change takes exactly one
 * resourceVersion and makes exactly one event, so the event of version `rv` sits at a known offset in
 * the window. Stored objects are never mutated: writers store new objects.
 */
export class ObjectStore {
  private rv: number;
  private readonly objects = new Map<string, Map<string, KubeObject>>();
  private readonly uids = new Map<string, ObjectLocation>();
  private readonly window: (StoreEvent | undefined)[];
  /** Every event after this resourceVersion is still in the window. */
  private compactedRv: number;
  private readonly watchers = new Map<string, Set<WatchSink>>();
  private readonly listeners: ((event: StoreEvent) => void)[] = [];

  constructor(
    private readonly windowSize: number,
    snapshot?: StoreSnapshot,
  ) {
    this.window = new Array<StoreEvent | undefined>(windowSize);
    this.rv = snapshot?.resourceVersion ?? 1;
    this.compactedRv = this.rv;
    for (const [key, objects] of Object.entries(snapshot?.objects ?? {})) {
      for (const object of objects) this.put(key, object);
    }
  }

  get resourceVersion(): number {
    return this.rv;
  }

  get(key: string, namespace: string, name: string): KubeObject | undefined {
    return this.objects.get(key)?.get(`${namespace}/${name}`);
  }

  /** Objects of a resource, in one namespace or all, ordered by namespace and name as kube lists them. */
  list(key: string, namespace?: string): KubeObject[] {
    const all = [...(this.objects.get(key)?.entries() ?? [])];
    const wanted = namespace === undefined ? all : all.filter(([k]) => k.startsWith(`${namespace}/`));
    return wanted.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, o]) => o);
  }

  count(key: string): number {
    return this.objects.get(key)?.size ?? 0;
  }

  keys(): string[] {
    return [...this.objects.keys()];
  }

  locate(uid: string): ObjectLocation | undefined {
    return this.uids.get(uid);
  }

  create(key: string, object: KubeObject): KubeObject {
    return this.record('ADDED', key, object, undefined);
  }

  update(key: string, object: KubeObject): KubeObject {
    const previous = this.get(key, object.metadata.namespace ?? '', object.metadata.name ?? '');
    return this.record('MODIFIED', key, object, previous);
  }

  remove(key: string, namespace: string, name: string): KubeObject | undefined {
    const previous = this.get(key, namespace, name);
    if (!previous) return undefined;
    return this.record('DELETED', key, previous, previous);
  }

  /**
   * Events of `key` after `rv`, or undefined when some of them have left the window (the watch must
   * then fail with 410 Expired and the client relist).
   */
  eventsSince(key: string, rv: number): StoreEvent[] | undefined {
    if (rv < this.compactedRv) return undefined;
    const events: StoreEvent[] = [];
    for (let v = rv + 1; v <= this.rv; v++) {
      const event = this.window[v % this.windowSize];
      if (event?.key === key) events.push(event);
    }
    return events;
  }

  /** The oldest resourceVersion a watch can still resume from. */
  get oldestResumableRv(): number {
    return this.compactedRv;
  }

  watch(key: string, sink: WatchSink): () => void {
    let sinks = this.watchers.get(key);
    if (!sinks) {
      sinks = new Set();
      this.watchers.set(key, sinks);
    }
    sinks.add(sink);
    return () => {
      sinks.delete(sink);
    };
  }

  /** Controllers (garbage collector, CRD controller, persistence) hear about every change. */
  onChange(listener: (event: StoreEvent) => void): void {
    this.listeners.push(listener);
  }

  snapshot(): StoreSnapshot {
    const objects: Record<string, KubeObject[]> = {};
    for (const [key, byName] of this.objects) if (byName.size) objects[key] = [...byName.values()];
    return { resourceVersion: this.rv, objects };
  }

  private record(
    type: EventType,
    key: string,
    object: KubeObject,
    previous: KubeObject | undefined,
  ): KubeObject {
    this.rv += 1;
    const stored: KubeObject = {
      ...object,
      metadata: { ...object.metadata, resourceVersion: String(this.rv) },
    };
    if (type === 'DELETED') this.drop(key, stored);
    else this.put(key, stored);
    const event: StoreEvent = {
      type,
      key,
      rv: this.rv,
      object: stored,
      ...(previous ? { previous } : {}),
      encoded: new Map(),
    };
    if (this.windowSize > 0) {
      const slot = this.rv % this.windowSize;
      const evicted = this.window[slot];
      if (evicted) this.compactedRv = evicted.rv;
      this.window[slot] = event;
    } else {
      this.compactedRv = this.rv;
    }
    for (const sink of this.watchers.get(key) ?? []) sink.deliver(event);
    for (const listener of this.listeners) listener(event);
    return stored;
  }

  private put(key: string, object: KubeObject): void {
    let byName = this.objects.get(key);
    if (!byName) {
      byName = new Map();
      this.objects.set(key, byName);
    }
    const namespace = object.metadata.namespace ?? '';
    const name = object.metadata.name ?? '';
    byName.set(`${namespace}/${name}`, object);
    if (object.metadata.uid) this.uids.set(object.metadata.uid, { key, namespace, name });
  }

  private drop(key: string, object: KubeObject): void {
    this.objects.get(key)?.delete(`${object.metadata.namespace ?? ''}/${object.metadata.name ?? ''}`);
    if (object.metadata.uid) this.uids.delete(object.metadata.uid);
  }
}
