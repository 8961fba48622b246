import type { ControllerQueue } from './controller-queue.js';
import type { KubeObject, ObjectMeta, OwnerReference } from './kube-object.js';
import type { ObjectStore, StoreEvent } from './object-store.js';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN, type ObjectWriter } from './object-writer.js';
import type { ResourceRegistry } from './resource-registry.js';

type Owner = 'solid' | 'dangling' | 'waiting';

/**
 * Kube's garbage collector, by owner uid: dependents whose owners are all gone are deleted
 * (background), dangling references beside live owners are dropped, an owner deleted with
 * `Orphan` first releases its dependents, one deleted with `Foreground` waits until its dependents
 * are gone (all of them: kube-sim does not distinguish `blockOwnerDeletion`).
 */
export class GarbageCollector {
  /** Owner uid → dependents, as `key\0namespace\0name`. */
  private readonly dependents = new Map<string, Set<string>>();

  constructor(
    private readonly store: ObjectStore,
    private readonly writer: ObjectWriter,
    private readonly registry: ResourceRegistry,
    private readonly queue: ControllerQueue,
  ) {
    for (const key of store.keys()) for (const object of store.list(key)) this.index(key, object, true);
    store.onChange((event) => {
      this.observe(event);
    });
  }

  private observe(event: StoreEvent): void {
    if (event.previous) this.index(event.key, event.previous, false);
    if (event.type !== 'DELETED') this.index(event.key, event.object, true);
    const { metadata } = event.object;
    const uid = metadata.uid ?? '';
    if (event.type === 'DELETED') {
      this.queueOwner(uid);
      for (const ref of metadata.ownerReferences ?? []) this.queueOwner(ref.uid);
    } else if (metadata.deletionTimestamp && hasGcFinalizer(event.object)) {
      this.queueOwner(uid);
    }
    if (event.type !== 'DELETED' && metadata.ownerReferences?.length) {
      const location = locationKey(event.key, metadata.namespace ?? '', metadata.name ?? '');
      this.queue.add(`gc-dependent:${location}`, () => {
        this.evaluate(location);
      });
    }
  }

  private index(key: string, object: KubeObject, add: boolean): void {
    const location = locationKey(key, object.metadata.namespace ?? '', object.metadata.name ?? '');
    for (const ref of object.metadata.ownerReferences ?? []) {
      let set = this.dependents.get(ref.uid);
      if (add) {
        if (!set) {
          set = new Set();
          this.dependents.set(ref.uid, set);
        }
        set.add(location);
      } else if (set) {
        set.delete(location);
        if (set.size === 0) this.dependents.delete(ref.uid);
      }
    }
  }

  private queueOwner(uid: string): void {
    if (!uid) return;
    this.queue.add(`gc-owner:${uid}`, () => {
      this.processOwner(uid);
    });
  }

  private processOwner(uid: string): void {
    const dependents = [...(this.dependents.get(uid) ?? [])];
    const location = this.store.locate(uid);
    const owner = location && this.store.get(location.key, location.namespace, location.name);
    if (location && owner?.metadata.deletionTimestamp) {
      const finalizers = owner.metadata.finalizers ?? [];
      if (finalizers.includes(FINALIZER_ORPHAN)) {
        for (const d of dependents) this.release(d, uid);
        this.dropFinalizer(location.key, owner, FINALIZER_ORPHAN);
        return;
      }
      if (finalizers.includes(FINALIZER_FOREGROUND) && dependents.length === 0) {
        this.dropFinalizer(location.key, owner, FINALIZER_FOREGROUND);
        return;
      }
    }
    for (const d of dependents) this.evaluate(d);
  }

  private evaluate(location: string): void {
    const [key = '', namespace = '', name = ''] = location.split('\0');
    const dependent = this.store.get(key, namespace, name);
    const refs = dependent?.metadata.ownerReferences ?? [];
    if (!dependent || refs.length === 0) return;
    const states = refs.map((ref) => this.ownerState(ref, key, namespace));
    if (!states.includes('solid')) {
      if (!dependent.metadata.deletionTimestamp) this.writer.systemDelete(key, namespace, name);
      return;
    }
    if (states.includes('dangling')) {
      const kept = refs.filter((_r, i) => states[i] !== 'dangling');
      this.writer.systemUpdate(key, {
        ...dependent,
        metadata: { ...dependent.metadata, ownerReferences: kept },
      });
    }
  }

  private ownerState(ref: OwnerReference, dependentKey: string, dependentNamespace: string): Owner {
    const location = this.store.locate(ref.uid);
    if (!location) return 'dangling';
    const ownerType = this.registry.get(location.key);
    const dependentType = this.registry.get(dependentKey);
    // A namespaced owner can only own objects of its own namespace; a cluster-scoped object only cluster-scoped ones.
    if (ownerType?.namespaced && location.namespace !== dependentNamespace) return 'dangling';
    if (dependentType && !dependentType.namespaced && ownerType?.namespaced) return 'dangling';
    const owner = this.store.get(location.key, location.namespace, location.name);
    if (owner?.metadata.deletionTimestamp && owner.metadata.finalizers?.includes(FINALIZER_FOREGROUND))
      return 'waiting';
    return 'solid';
  }

  private release(location: string, ownerUid: string): void {
    const [key = '', namespace = '', name = ''] = location.split('\0');
    const dependent = this.store.get(key, namespace, name);
    if (!dependent) return;
    const ownerReferences = (dependent.metadata.ownerReferences ?? []).filter((r) => r.uid !== ownerUid);
    const metadata: ObjectMeta = { ...dependent.metadata, ownerReferences };
    if (ownerReferences.length === 0) delete metadata.ownerReferences;
    this.writer.systemUpdate(key, { ...dependent, metadata });
  }

  private dropFinalizer(key: string, owner: KubeObject, finalizer: string): void {
    const finalizers = (owner.metadata.finalizers ?? []).filter((f) => f !== finalizer);
    this.writer.systemUpdate(key, { ...owner, metadata: { ...owner.metadata, finalizers } });
  }
}

function hasGcFinalizer(object: KubeObject): boolean {
  const finalizers = object.metadata.finalizers ?? [];
  return finalizers.includes(FINALIZER_ORPHAN) || finalizers.includes(FINALIZER_FOREGROUND);
}

function locationKey(key: string, namespace: string, name: string): string {
  return `${key}\0${namespace}\0${name}`;
}
