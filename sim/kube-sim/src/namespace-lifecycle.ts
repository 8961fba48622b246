import type { ControllerQueue } from './controller-queue.js';
import type { ObjectStore, StoreEvent } from './object-store.js';
import type { ObjectWriter } from './object-writer.js';
import type { ResourceRegistry } from './resource-registry.js';
import { resourceKey } from './resource-type.js';

const NAMESPACES = resourceKey('', 'namespaces');
const SERVICE_ACCOUNTS = resourceKey('', 'serviceaccounts');
const DEFAULT_SA = 'default';

/**
 * What kube's namespace and service-account controllers do: every active namespace has a `default`
 * service account, and a namespace being deleted has its content deleted and goes once it is empty.
 */
export class NamespaceLifecycle {
  constructor(
    private readonly store: ObjectStore,
    private readonly writer: ObjectWriter,
    private readonly registry: ResourceRegistry,
    private readonly queue: ControllerQueue,
  ) {
    store.onChange((event) => {
      this.observe(event);
    });
  }

  /** Brings namespaces loaded from a state file (or seeded at start) to the state the controllers keep. */
  reconcileAll(): void {
    for (const ns of this.store.list(NAMESPACES)) this.reconcile(ns.metadata.name ?? '');
  }

  private observe(event: StoreEvent): void {
    const namespace = event.key === NAMESPACES ? event.object.metadata.name : event.object.metadata.namespace;
    if (!namespace) return;
    const relevant =
      event.key === NAMESPACES ||
      (event.type === 'DELETED' && (event.key === SERVICE_ACCOUNTS || this.terminating(namespace)));
    if (relevant) {
      this.queue.add(`namespace:${namespace}`, () => {
        this.reconcile(namespace);
      });
    }
  }

  private terminating(namespace: string): boolean {
    return Boolean(this.store.get(NAMESPACES, '', namespace)?.metadata.deletionTimestamp);
  }

  private reconcile(namespace: string): void {
    const ns = this.store.get(NAMESPACES, '', namespace);
    if (!ns) return;
    if (!ns.metadata.deletionTimestamp) {
      if (!this.store.get(SERVICE_ACCOUNTS, namespace, DEFAULT_SA)) {
        this.writer.systemCreate(SERVICE_ACCOUNTS, {
          apiVersion: 'v1',
          kind: 'ServiceAccount',
          metadata: { name: DEFAULT_SA, namespace },
        });
      }
      return;
    }
    let remaining = 0;
    for (const type of this.registry.all()) {
      if (!type.namespaced || type.virtual) continue;
      const key = resourceKey(type.group, type.plural);
      for (const object of this.store.list(key, namespace)) {
        remaining += 1;
        if (!object.metadata.deletionTimestamp)
          this.writer.systemDelete(key, namespace, object.metadata.name ?? '');
      }
    }
    if (remaining === 0 && !ns.metadata.finalizers?.length) this.store.remove(NAMESPACES, '', namespace);
  }
}
