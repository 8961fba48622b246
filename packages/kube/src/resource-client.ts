import { PatchStrategy } from '@kubernetes/client-node';
import type { ApiResource } from './api-resource.js';
import { apiVersionOf } from './api-resource.js';
import { KubeNotFoundError } from './kube-api-error.js';
import type { KubeList, KubeObject } from './kube-object.js';
import type { KubeTransport, WatchEventType } from './kube-transport.js';
import type { ObjectRef } from './object-key.js';
import { refOf } from './object-key.js';

export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  signal?: AbortSignal;
}

export interface WriteOptions {
  fieldManager?: string;
  dryRun?: boolean;
  signal?: AbortSignal;
}

export interface ApplyOptions {
  /** Server-side apply records which fields this manager owns. */
  fieldManager: string;
  /** Take over fields another manager owns instead of failing with a Conflict. */
  force?: boolean;
  signal?: AbortSignal;
}

export interface DeleteOptions {
  /** Delete only if the object still has this uid / resourceVersion. */
  preconditions?: { uid?: string; resourceVersion?: string };
  propagationPolicy?: 'Orphan' | 'Background' | 'Foreground';
  gracePeriodSeconds?: number;
  signal?: AbortSignal;
}

export interface WatchOptions {
  resourceVersion?: string;
  labelSelector?: string;
  fieldSelector?: string;
  /** Asks the server to end the watch after this long; the caller then watches again. */
  timeoutSeconds?: number;
  allowWatchBookmarks?: boolean;
}

/** A JSON merge patch (RFC 7386): objects merge, `null` deletes, arrays are replaced whole. */
export type MergePatch = Record<string, unknown>;

/** Typed access to one kind. Every method throws the KubeApiError catalogue on failure. */
export class ResourceClient<T extends KubeObject> {
  constructor(
    private readonly transport: KubeTransport,
    readonly resource: ApiResource<T>,
  ) {}

  get(ref: ObjectRef, signal?: AbortSignal): Promise<T> {
    return this.transport.request<T>('GET', this.path(ref.namespace, ref.name), { signal });
  }

  /** Like `get`, but a missing object is `undefined` rather than an error. */
  async find(ref: ObjectRef, signal?: AbortSignal): Promise<T | undefined> {
    try {
      return await this.get(ref, signal);
    } catch (e: unknown) {
      if (e instanceof KubeNotFoundError) return undefined;
      throw e;
    }
  }

  /** Lists one namespace, or every namespace when `namespace` is undefined. */
  list(namespace?: string, options: ListOptions = {}): Promise<KubeList<T>> {
    const { signal, ...query } = options;
    return this.transport.request<KubeList<T>>('GET', this.path(namespace), { query, signal });
  }

  create(obj: T, options: WriteOptions = {}): Promise<T> {
    return this.transport.request<T>('POST', this.path(obj.metadata?.namespace), {
      body: this.withTypeMeta(obj),
      query: writeQuery(options),
      signal: options.signal,
    });
  }

  /** PUT: fails with ConflictError when `metadata.resourceVersion` is stale. Status changes are ignored. */
  replace(obj: T, options: WriteOptions = {}): Promise<T> {
    const ref = refOf(obj);
    return this.transport.request<T>('PUT', this.path(ref.namespace, ref.name), {
      body: this.withTypeMeta(obj),
      query: writeQuery(options),
      signal: options.signal,
    });
  }

  mergePatch(ref: ObjectRef, patch: MergePatch, options: WriteOptions = {}): Promise<T> {
    return this.transport.request<T>('PATCH', this.path(ref.namespace, ref.name), {
      body: patch,
      contentType: PatchStrategy.MergePatch,
      query: writeQuery(options),
      signal: options.signal,
    });
  }

  /** Server-side apply: `obj` states the fields this manager wants; it need not be a whole object. */
  apply(obj: T, options: ApplyOptions): Promise<T> {
    const ref = refOf(obj);
    return this.transport.request<T>('PATCH', this.path(ref.namespace, ref.name), {
      // JSON is YAML, so the apply content type accepts a JSON body.
      body: this.withTypeMeta(obj),
      contentType: PatchStrategy.ServerSideApply,
      query: { fieldManager: options.fieldManager, force: options.force },
      signal: options.signal,
    });
  }

  async delete(ref: ObjectRef, options: DeleteOptions = {}): Promise<void> {
    const { signal, ...rest } = options;
    await this.transport.request<unknown>('DELETE', this.path(ref.namespace, ref.name), {
      body: { apiVersion: 'v1', kind: 'DeleteOptions', ...rest },
      signal,
    });
  }

  /** PUT to /status: only `status` changes; ConflictError when `metadata.resourceVersion` is stale. */
  replaceStatus(obj: T, options: WriteOptions = {}): Promise<T> {
    const ref = refOf(obj);
    return this.transport.request<T>('PUT', this.statusPath(ref), {
      body: this.withTypeMeta(obj),
      query: writeQuery(options),
      signal: options.signal,
    });
  }

  mergePatchStatus(ref: ObjectRef, patch: MergePatch, options: WriteOptions = {}): Promise<T> {
    return this.transport.request<T>('PATCH', this.statusPath(ref), {
      body: patch,
      contentType: PatchStrategy.MergePatch,
      query: writeQuery(options),
      signal: options.signal,
    });
  }

  /** Watches changes after `options.resourceVersion`; see KubeTransport.watch for how it ends. */
  watch(
    namespace: string | undefined,
    options: WatchOptions,
    onEvent: (type: WatchEventType, object: T) => void,
    signal: AbortSignal,
  ): Promise<void> {
    const query = { ...options };
    return this.transport.watch(
      this.path(namespace),
      query,
      (type, object) => {
        onEvent(type, object as T);
      },
      signal,
    );
  }

  private withTypeMeta(obj: T): T {
    return { ...obj, apiVersion: apiVersionOf(this.resource), kind: this.resource.kind };
  }

  private statusPath(ref: ObjectRef): string {
    if (!this.resource.hasStatus) throw new TypeError(`${this.resource.kind} has no status subresource`);
    return `${this.path(ref.namespace, ref.name)}/status`;
  }

  private path(namespace: string | undefined, name?: string): string {
    const { group, version, plural, namespaced } = this.resource;
    let path = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    if (namespaced && namespace !== undefined) path += `/namespaces/${encodeURIComponent(namespace)}`;
    if (namespaced && namespace === undefined && name !== undefined) {
      throw new TypeError(`${this.resource.kind} is namespaced: give a namespace`);
    }
    path += `/${plural}`;
    if (name !== undefined) path += `/${encodeURIComponent(name)}`;
    return path;
  }
}

function writeQuery(options: WriteOptions): Record<string, string | undefined> {
  return { fieldManager: options.fieldManager, dryRun: options.dryRun === true ? 'All' : undefined };
}
