import type { ControllerQueue } from './controller-queue.js';
import { acceptedNames, crdSpec, resourceTypeFromCrd } from './crd-resource.js';
import type { KubeObject } from './kube-object.js';
import { isRecord, jsonEqual } from './json-value.js';
import type { ObjectStore, StoreEvent } from './object-store.js';
import { FINALIZER_CRD_CLEANUP, type ObjectWriter } from './object-writer.js';
import type { ResourceRegistry } from './resource-registry.js';
import { resourceKey } from './resource-type.js';

const CRDS = resourceKey('apiextensions.k8s.io', 'customresourcedefinitions');

interface Condition {
  type: string;
  status: 'True' | 'False';
  reason: string;
  message: string;
  lastTransitionTime?: string;
}

/**
 * What apiextensions-apiserver does with a CRD: serve its resource as soon as it is stored, report
 * `NamesAccepted` and `Established`, and on deletion delete every custom object (waiting for their
 * finalizers) before letting the CRD go and no longer serving the resource.
 */
export class CrdController {
  constructor(
    private readonly store: ObjectStore,
    private readonly writer: ObjectWriter,
    private readonly registry: ResourceRegistry,
    private readonly queue: ControllerQueue,
  ) {
    for (const crd of store.list(CRDS)) this.registry.register(resourceTypeFromCrd(crd));
    store.onChange((event) => {
      this.observe(event);
    });
  }

  reconcileAll(): void {
    for (const crd of this.store.list(CRDS)) this.reconcile(crd.metadata.name ?? '');
  }

  private observe(event: StoreEvent): void {
    if (event.key === CRDS) {
      const spec = crdSpec(event.object);
      if (event.type === 'DELETED') {
        this.registry.unregister(spec.group, spec.names.plural);
        return;
      }
      if (event.previous) {
        const before = crdSpec(event.previous);
        if (before.names.plural !== spec.names.plural)
          this.registry.unregister(before.group, before.names.plural);
      }
      this.registry.register(resourceTypeFromCrd(event.object));
      this.schedule(event.object.metadata.name ?? '');
      return;
    }
    const type = this.registry.get(event.key);
    if (event.type === 'DELETED' && type?.custom) this.schedule(type.custom.crdName);
  }

  private schedule(name: string): void {
    this.queue.add(`crd:${name}`, () => {
      this.reconcile(name);
    });
  }

  private reconcile(name: string): void {
    const crd = this.store.get(CRDS, '', name);
    if (!crd) return;
    if (crd.metadata.deletionTimestamp) {
      this.cleanUp(crd);
      return;
    }
    const spec = crdSpec(crd);
    const status = {
      conditions: this.conditions(crd, [
        { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' },
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
      ]),
      acceptedNames: acceptedNames(spec),
      storedVersions: this.storedVersions(crd),
    };
    if (!jsonEqual(crd.status, status)) this.writer.systemUpdate(CRDS, { ...crd, status });
  }

  private cleanUp(crd: KubeObject): void {
    const spec = crdSpec(crd);
    const key = resourceKey(spec.group, spec.names.plural);
    const objects = this.store.list(key);
    for (const o of objects) {
      if (!o.metadata.deletionTimestamp)
        this.writer.systemDelete(key, o.metadata.namespace ?? '', o.metadata.name ?? '');
    }
    const left = this.store.count(key);
    const status = isRecord(crd.status) ? crd.status : {};
    const conditions = this.conditions(crd, [
      left > 0
        ? {
            type: 'Terminating',
            status: 'True',
            reason: 'InstanceDeletionInProgress',
            message: `CustomResource deletion is in progress`,
          }
        : {
            type: 'Terminating',
            status: 'True',
            reason: 'InstanceDeletionCompleted',
            message: `removed all instances`,
          },
    ]);
    if (left > 0) {
      if (!jsonEqual(status.conditions, conditions))
        this.writer.systemUpdate(CRDS, { ...crd, status: { ...status, conditions } });
      return;
    }
    const finalizers = (crd.metadata.finalizers ?? []).filter((f) => f !== FINALIZER_CRD_CLEANUP);
    this.writer.systemUpdate(CRDS, {
      ...crd,
      metadata: { ...crd.metadata, finalizers },
      status: { ...status, conditions },
    });
  }

  /** The CRD's conditions with `updates` merged in; a condition's transition time moves only when its status flips. */
  private conditions(crd: KubeObject, updates: Condition[]): Condition[] {
    const current = (
      isRecord(crd.status) && Array.isArray(crd.status.conditions) ? crd.status.conditions : []
    ) as Condition[];
    const stamp = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
    const merged = [...current];
    for (const update of updates) {
      const index = merged.findIndex((c) => c.type === update.type);
      const before = merged[index];
      const next = {
        ...update,
        lastTransitionTime: before?.status === update.status ? before.lastTransitionTime : stamp,
      };
      if (index >= 0) merged[index] = next;
      else merged.push(next);
    }
    return merged;
  }

  private storedVersions(crd: KubeObject): string[] {
    const before =
      isRecord(crd.status) && Array.isArray(crd.status.storedVersions)
        ? (crd.status.storedVersions as string[])
        : [];
    const storage = crdSpec(crd)
      .versions.filter((v) => v.storage)
      .map((v) => v.name);
    return [...new Set([...before, ...storage])];
  }
}
