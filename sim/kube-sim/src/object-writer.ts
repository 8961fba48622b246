import { randomUUID } from 'node:crypto';
import fastJsonPatch from 'fast-json-patch';
import { parse as parseYaml } from 'yaml';
import { admitBuiltin, nameRuleOf } from './builtin-admission.js';
import type { KubeObject, ObjectMeta } from './kube-object.js';
import { displayValue, isRecord, jsonEqual } from './json-value.js';
import {
  changedPaths,
  leafPaths,
  pathKey,
  recordUpdate,
  valueAt,
  type FieldScope,
  type ManagerIdentity,
} from './managed-fields.js';
import { mergePatch } from './merge-patch.js';
import type { ObjectStore } from './object-store.js';
import { validateObjectMeta } from './object-meta-validation.js';
import type { ResourceRegistry } from './resource-registry.js';
import { apiVersionOf, refOf, resourceKey, type ResourceType } from './resource-type.js';
import { validateCustomResource } from './schema/index.js';
import { serverSideApply } from './server-side-apply.js';
import { strategicMergePatch } from './strategic-merge-patch.js';
import {
  alreadyExists,
  badRequest,
  conflict,
  fieldError,
  forbidden,
  invalid,
  methodNotAllowed,
  notFound,
  STALE_OBJECT,
  StatusError,
  unsupportedMediaType,
} from './status-error.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface WriteOptions {
  dryRun: boolean;
  fieldManager: string | undefined;
  fieldValidation: FieldValidation;
}

export interface WriteResult {
  object: KubeObject;
  created: boolean;
  warnings: string[];
}

export interface Target {
  namespace: string | undefined;
  name: string;
  subresource: string | undefined;
}

export type PropagationPolicy = 'Background' | 'Foreground' | 'Orphan';

export interface DeleteOptions {
  propagationPolicy?: PropagationPolicy;
  preconditions?: { uid?: string; resourceVersion?: string };
  dryRun: boolean;
}

const PATCH_TYPES = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';
export const FINALIZER_CRD_CLEANUP = 'customresourcecleanup.apiextensions.k8s.io';
const NAMESPACE_KEY = resourceKey('', 'namespaces');
const CRD_KEY = resourceKey('apiextensions.k8s.io', 'customresourcedefinitions');
const SERVICE_KEY = resourceKey('', 'services');
const GENERATE_NAME_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const NAMESPACE_MISMATCH =
  'the namespace of the provided object does not match the namespace sent on the request';
/** Namespaces kube refuses to delete. */
const PROTECTED_NAMESPACES = new Set(['default', 'kube-system', 'kube-public']);

/**
 * Every write goes through here: decoding checks, system metadata, status-subresource rules,
 * admission (schema or built-in validation), generation, optimistic concurrency, managed fields,
 * finalizers and dry runs. Nothing reaches the store unless the whole write is valid.
 */
export class ObjectWriter {
  constructor(
    private readonly store: ObjectStore,
    private readonly registry: ResourceRegistry,
  ) {}

  create(
    type: ResourceType,
    version: string,
    namespace: string | undefined,
    body: unknown,
    options: WriteOptions,
  ): WriteResult {
    const input = this.decode(type, version, body);
    this.placeNamespace(type, input, namespace);
    if (!input.metadata.name && input.metadata.generateName) {
      input.metadata.name = `${input.metadata.generateName}${randomSuffix()}`;
    }
    return this.createDecoded(type, version, input, options, undefined);
  }

  update(
    type: ResourceType,
    version: string,
    target: Target,
    body: unknown,
    options: WriteOptions,
  ): WriteResult {
    const input = this.decode(type, version, body);
    this.placeNamespace(type, input, target.namespace);
    this.checkName(input, target.name);
    const old = this.existing(type, target);
    if (!input.metadata.resourceVersion && type.custom) {
      throw invalid(type, target.name, [
        fieldError.invalid('metadata.resourceVersion', '0x0', 'must be specified for an update'),
      ]);
    }
    return this.commit(
      type,
      version,
      old,
      this.scoped(type, old, input, target.subresource),
      target,
      options,
      undefined,
    );
  }

  patch(
    type: ResourceType,
    version: string,
    target: Target,
    contentType: string,
    body: Buffer,
    options: WriteOptions & { force: boolean },
  ): WriteResult {
    const mediaType = (contentType.split(';')[0] ?? '').trim().toLowerCase();
    const accepted: string[] = type.custom
      ? [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.apply]
      : [PATCH_TYPES.json, PATCH_TYPES.merge, PATCH_TYPES.strategic, PATCH_TYPES.apply];
    if (!accepted.includes(mediaType)) throw unsupportedMediaType(accepted);
    if (mediaType === PATCH_TYPES.apply) return this.apply(type, version, target, body, options);
    const old = this.existing(type, target);
    const patch = parseJson(body);
    let patched: unknown;
    if (mediaType === PATCH_TYPES.json) patched = applyJsonPatch(old, patch);
    else if (mediaType === PATCH_TYPES.merge) patched = mergePatch(old, patch);
    else patched = strategicMergePatch(old, patch);
    const candidate = this.decode(type, version, patched);
    this.placeNamespace(type, candidate, target.namespace);
    this.checkName(candidate, target.name);
    return this.commit(
      type,
      version,
      old,
      this.scoped(type, old, candidate, target.subresource),
      target,
      options,
      undefined,
    );
  }

  /** Deletes at once, or marks for deletion when finalizers (or the propagation policy) hold the object. */
  delete(
    type: ResourceType,
    target: Target,
    options: DeleteOptions,
  ): { object: KubeObject; deleted: boolean } {
    const key = resourceKey(type.group, type.plural);
    const old = this.existing(type, target);
    const pre = options.preconditions;
    if (pre?.uid && pre.uid !== old.metadata.uid) {
      throw conflict(
        refOf(type),
        target.name,
        `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${old.metadata.uid ?? ''}`,
      );
    }
    if (pre?.resourceVersion && pre.resourceVersion !== old.metadata.resourceVersion) {
      throw conflict(
        refOf(type),
        target.name,
        `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${old.metadata.resourceVersion ?? ''}`,
      );
    }
    if (key === NAMESPACE_KEY) return this.deleteNamespace(type, old, options.dryRun);
    const finalizers = [...(old.metadata.finalizers ?? [])];
    const add = (f: string): void => {
      if (!finalizers.includes(f)) finalizers.push(f);
    };
    if (key === CRD_KEY) add(FINALIZER_CRD_CLEANUP);
    if (options.propagationPolicy === 'Orphan') add(FINALIZER_ORPHAN);
    if (options.propagationPolicy === 'Foreground') add(FINALIZER_FOREGROUND);
    if (finalizers.length === 0) {
      if (options.dryRun) return { object: old, deleted: true };
      return {
        object: this.store.remove(key, old.metadata.namespace ?? '', target.name) ?? old,
        deleted: true,
      };
    }
    const marked: KubeObject = {
      ...old,
      metadata: {
        ...old.metadata,
        finalizers,
        deletionTimestamp: old.metadata.deletionTimestamp ?? now(),
        deletionGracePeriodSeconds: old.metadata.deletionGracePeriodSeconds ?? 0,
      },
    };
    if (jsonEqual(marked, old) || options.dryRun) return { object: marked, deleted: false };
    return { object: this.store.update(key, marked), deleted: false };
  }

  /** A controller's write (status, finalizers, owner references): no admission, but finalization still applies. */
  systemUpdate(key: string, object: KubeObject): KubeObject {
    const stored = this.store.update(key, object);
    if (stored.metadata.deletionTimestamp && !stored.metadata.finalizers?.length && key !== NAMESPACE_KEY) {
      this.store.remove(key, stored.metadata.namespace ?? '', stored.metadata.name ?? '');
    }
    return stored;
  }

  /** A controller's create (a namespace's `default` service account), with the system metadata set. */
  systemCreate(key: string, object: KubeObject): KubeObject {
    return this.store.create(key, {
      ...object,
      metadata: { ...object.metadata, uid: randomUUID(), creationTimestamp: now() },
    });
  }

  systemDelete(key: string, namespace: string, name: string, policy: PropagationPolicy = 'Background'): void {
    const type = this.registry.get(key);
    if (!type || !this.store.get(key, namespace, name)) return;
    this.delete(
      type,
      { namespace, name, subresource: undefined },
      { propagationPolicy: policy, dryRun: false },
    );
  }

  private apply(
    type: ResourceType,
    version: string,
    target: Target,
    body: Buffer,
    options: WriteOptions & { force: boolean },
  ): WriteResult {
    if (!options.fieldManager) {
      throw new StatusError(
        422,
        'Invalid',
        'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch',
        {
          group: 'meta.k8s.io',
          kind: 'PatchOptions',
          causes: [fieldError.required('fieldManager', 'is required for apply patch')],
        },
      );
    }
    let parsed: unknown;
    try {
      parsed = parseYaml(body.toString('utf8'));
    } catch (e: unknown) {
      throw badRequest(`error decoding YAML: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!isRecord(parsed)) throw badRequest('error decoding YAML: the apply configuration must be an object');
    const expected = apiVersionOf(type.group, version);
    if (parsed.apiVersion !== expected) {
      throw badRequest(
        `Incorrect version specified in apply patch. Specified patch version: ${displayValue(parsed.apiVersion ?? '')}, expected: ${expected}`,
      );
    }
    const applied = this.decode(type, version, parsed);
    this.placeNamespace(type, applied, target.namespace);
    this.checkName(applied, target.name);
    const { managedFields: _ignored, ...appliedMeta } = applied.metadata;
    const key = resourceKey(type.group, type.plural);
    const old = this.store.get(key, target.namespace ?? '', target.name);
    const id: ManagerIdentity = {
      manager: options.fieldManager,
      operation: 'Apply',
      apiVersion: expected,
      ...(target.subresource ? { subresource: target.subresource } : {}),
    };
    const scope = scopeOf(type, target.subresource);
    const merged = serverSideApply({
      current: old,
      applied: { ...applied, metadata: appliedMeta },
      id,
      force: options.force,
      scope,
      now: now(),
    });
    if (!old) {
      if (target.subresource) throw notFound(refOf(type), target.name);
      return this.createDecoded(type, version, merged, options, merged.metadata.managedFields ?? []);
    }
    return this.commit(
      type,
      version,
      old,
      this.scoped(type, old, merged, target.subresource),
      target,
      options,
      'apply',
    );
  }

  private createDecoded(
    type: ResourceType,
    version: string,
    input: KubeObject,
    options: WriteOptions,
    appliedFields: KubeObject['metadata']['managedFields'],
  ): WriteResult {
    const key = resourceKey(type.group, type.plural);
    const name = input.metadata.name ?? '';
    this.checkCreatable(type, input.metadata.namespace, name);
    const {
      resourceVersion: _rv,
      deletionTimestamp: _dt,
      deletionGracePeriodSeconds: _dg,
      managedFields: _mf,
      ...meta
    } = input.metadata;
    const candidate: KubeObject = {
      ...input,
      metadata: {
        ...meta,
        uid: randomUUID(),
        creationTimestamp: now(),
        ...(type.generation ? { generation: 1 } : {}),
      },
    };
    if (type.subresources.includes('status')) delete candidate.status;
    const { object, warnings } = this.admit(type, version, candidate, undefined, options);
    const id = managerOf(type, version, options.fieldManager, undefined);
    object.metadata.managedFields =
      appliedFields ?? recordUpdate([], id, changedPaths(undefined, object, scopeOf(type, undefined)), now());
    if (this.store.get(key, object.metadata.namespace ?? '', name)) throw alreadyExists(refOf(type), name);
    if (options.dryRun) return { object, created: true, warnings };
    return { object: this.store.create(key, object), created: true, warnings };
  }

  private commit(
    type: ResourceType,
    version: string,
    old: KubeObject,
    candidate: KubeObject,
    target: Target,
    options: WriteOptions,
    operation: 'apply' | undefined,
  ): WriteResult {
    const key = resourceKey(type.group, type.plural);
    const rv = candidate.metadata.resourceVersion;
    if (rv && rv !== old.metadata.resourceVersion) throw conflict(refOf(type), target.name, STALE_OBJECT);
    const meta = systemMetadata(old, candidate, target.name);
    if (old.metadata.deletionTimestamp) {
      const added = (meta.finalizers ?? []).filter((f) => !(old.metadata.finalizers ?? []).includes(f));
      if (added.length > 0) {
        throw invalid(type, target.name, [
          fieldError.forbidden(
            'metadata.finalizers',
            `no new finalizers can be added if the object is being deleted, found new finalizers []string{${added.map((f) => `"${f}"`).join(', ')}}`,
          ),
        ]);
      }
    }
    const { object, warnings } = this.admit(type, version, { ...candidate, metadata: meta }, old, options);
    if (type.generation && specChanged(type, old, object))
      object.metadata.generation = (old.metadata.generation ?? 0) + 1;
    const scope = scopeOf(type, target.subresource);
    if (operation !== 'apply') {
      const id = managerOf(type, version, options.fieldManager, target.subresource);
      object.metadata.managedFields = recordUpdate(
        old.metadata.managedFields ?? [],
        id,
        changedPaths(old, object, scope),
        now(),
      );
    }
    if (jsonEqual(withoutTimes(object), withoutTimes(old))) return { object: old, created: false, warnings };
    if (options.dryRun) return { object, created: false, warnings };
    const stored = this.store.update(key, object);
    if (stored.metadata.deletionTimestamp && !stored.metadata.finalizers?.length && key !== NAMESPACE_KEY) {
      this.store.remove(key, stored.metadata.namespace ?? '', stored.metadata.name ?? '');
    }
    return { object: stored, created: false, warnings };
  }

  /** Validation and defaulting: the schema for custom resources, kube's rules for built-in kinds. */
  private admit(
    type: ResourceType,
    version: string,
    candidate: KubeObject,
    old: KubeObject | undefined,
    options: WriteOptions,
  ): { object: KubeObject; warnings: string[] } {
    const name = candidate.metadata.name ?? '';
    const causes = validateObjectMeta(candidate.metadata, nameRuleOf(type));
    let object = candidate;
    const warnings: string[] = [];
    const schema = type.custom?.schemas.get(version);
    if (type.custom && schema) {
      const result = validateCustomResource(schema, candidate);
      object = {
        ...result.object,
        apiVersion: candidate.apiVersion,
        kind: candidate.kind,
        metadata: candidate.metadata,
      };
      causes.push(...result.causes.filter((c) => !c.field.startsWith('metadata')));
      const unknown = leafPaths(candidate, 'all')
        .filter((p) => p[0] !== 'metadata' && valueAt(object, p) === undefined)
        .map((p) => pathKey(p).slice(1));
      if (unknown.length > 0 && options.fieldValidation === 'Strict' && causes.length === 0) {
        throw badRequest(
          `${type.kind} in version "${version}" cannot be handled as a ${type.kind}: strict decoding error: ${unknown.map((u) => `unknown field "${u}"`).join(', ')}`,
        );
      }
      if (options.fieldValidation === 'Warn') warnings.push(...unknown.map((u) => `unknown field "${u}"`));
    } else if (!type.custom) {
      const result = admitBuiltin(type, candidate, old, {
        clusterIPsInUse: () => clusterIPsOf(this.store.list(SERVICE_KEY)),
        nodePortsInUse: (except) =>
          nodePortsOf(
            this.store
              .list(SERVICE_KEY)
              .filter((s) => s.metadata.namespace !== except.namespace || s.metadata.name !== except.name),
          ),
      });
      object = result.object;
      causes.push(...result.causes);
    }
    if (causes.length > 0) throw invalid(type, name, causes);
    return { object, warnings };
  }

  /** Rejects bodies that are not objects of this resource's kind; fills in apiVersion and kind. */
  private decode(type: ResourceType, version: string, body: unknown): KubeObject {
    if (!isRecord(body))
      throw badRequest(
        `${type.kind} in version "${version}" cannot be handled as a ${type.kind}: the body must be a JSON object`,
      );
    const apiVersion = apiVersionOf(type.group, version);
    if (body.apiVersion !== undefined && body.apiVersion !== apiVersion) {
      throw badRequest(
        `the API version in the data (${displayValue(body.apiVersion)}) does not match the expected API version (${apiVersion})`,
      );
    }
    if (body.kind !== undefined && body.kind !== type.kind) {
      throw badRequest(
        `the kind in the data (${displayValue(body.kind)}) does not match the expected kind (${type.kind})`,
      );
    }
    const metadata = body.metadata ?? {};
    if (!isRecord(metadata))
      throw badRequest(
        `${type.kind} in version "${version}" cannot be handled as a ${type.kind}: metadata must be an object`,
      );
    for (const field of ['name', 'namespace', 'generateName', 'resourceVersion'] as const) {
      const value = metadata[field];
      if (value !== undefined && typeof value !== 'string') {
        throw badRequest(
          `${type.kind} in version "${version}" cannot be handled as a ${type.kind}: json: cannot unmarshal ${typeof value} into Go struct field ObjectMeta.metadata.${field} of type string`,
        );
      }
    }
    return {
      ...structuredClone(body),
      apiVersion,
      kind: type.kind,
      metadata: structuredClone(metadata),
    };
  }

  private placeNamespace(type: ResourceType, object: KubeObject, namespace: string | undefined): void {
    if (!type.namespaced) {
      delete object.metadata.namespace;
      return;
    }
    const given = object.metadata.namespace;
    if (given && given !== namespace) throw badRequest(NAMESPACE_MISMATCH);
    object.metadata.namespace = namespace ?? '';
  }

  private checkName(object: KubeObject, name: string): void {
    const given = object.metadata.name;
    if (given && given !== name)
      throw badRequest(`the name of the object (${given}) does not match the name on the URL (${name})`);
    object.metadata.name = name;
  }

  private checkCreatable(type: ResourceType, namespace: string | undefined, name: string): void {
    if (type.custom) {
      const crd = this.store.get(CRD_KEY, '', type.custom.crdName);
      if (crd?.metadata.deletionTimestamp)
        throw methodNotAllowed('create not allowed while custom resource definition is terminating');
    }
    if (!type.namespaced || namespace === undefined) return;
    const ns = this.store.get(NAMESPACE_KEY, '', namespace);
    if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
    if (ns.metadata.deletionTimestamp) {
      const message = `unable to create new content in namespace ${namespace} because it is being terminated`;
      throw forbidden(
        `${type.plural}${type.group ? `.${type.group}` : ''} "${name}" is forbidden: ${message}`,
        {
          name,
          group: type.group,
          kind: type.plural,
          causes: [{ reason: 'NamespaceTerminating', message, field: 'metadata.namespace' }],
        },
      );
    }
  }

  private existing(type: ResourceType, target: Target): KubeObject {
    const old = this.store.get(resourceKey(type.group, type.plural), target.namespace ?? '', target.name);
    if (!old) throw notFound(refOf(type), target.name);
    return old;
  }

  /**
   * With a status subresource, the main endpoint keeps the stored status and `/status` changes
   * nothing but status (and its managed fields); without one, the whole object is written.
   */
  private scoped(
    type: ResourceType,
    old: KubeObject,
    candidate: KubeObject,
    subresource: string | undefined,
  ): KubeObject {
    if (subresource === 'status') {
      const result: KubeObject = {
        ...old,
        metadata: { ...old.metadata, resourceVersion: candidate.metadata.resourceVersion ?? '' },
      };
      if (candidate.metadata.managedFields) result.metadata.managedFields = candidate.metadata.managedFields;
      if (candidate.status === undefined) delete result.status;
      else result.status = candidate.status;
      return result;
    }
    if (type.subresources.includes('status')) {
      const result = { ...candidate };
      if (old.status === undefined) delete result.status;
      else result.status = old.status;
      return result;
    }
    return candidate;
  }

  private deleteNamespace(
    type: ResourceType,
    old: KubeObject,
    dryRun: boolean,
  ): { object: KubeObject; deleted: boolean } {
    const name = old.metadata.name ?? '';
    if (PROTECTED_NAMESPACES.has(name)) {
      throw forbidden(`namespaces "${name}" is forbidden: this namespace may not be deleted`, {
        name,
        group: '',
        kind: 'namespaces',
      });
    }
    if (old.metadata.deletionTimestamp || dryRun) return { object: old, deleted: false };
    const status = isRecord(old.status) ? old.status : {};
    const marked: KubeObject = {
      ...old,
      metadata: { ...old.metadata, deletionTimestamp: now(), deletionGracePeriodSeconds: 0 },
      status: { ...status, phase: 'Terminating' },
    };
    return { object: this.store.update(resourceKey(type.group, type.plural), marked), deleted: false };
  }
}

/** The candidate's metadata with what only the server sets taken from the stored object. */
function systemMetadata(old: KubeObject, candidate: KubeObject, name: string): ObjectMeta {
  const {
    deletionTimestamp: _dt,
    deletionGracePeriodSeconds: _dg,
    generation: _g,
    ...clientMeta
  } = candidate.metadata;
  const { namespace, deletionTimestamp, deletionGracePeriodSeconds, generation } = old.metadata;
  return {
    ...clientMeta,
    name: old.metadata.name ?? name,
    uid: old.metadata.uid ?? randomUUID(),
    creationTimestamp: old.metadata.creationTimestamp ?? now(),
    resourceVersion: old.metadata.resourceVersion ?? '',
    ...(namespace !== undefined ? { namespace } : {}),
    ...(deletionTimestamp !== undefined ? { deletionTimestamp } : {}),
    ...(deletionGracePeriodSeconds !== undefined ? { deletionGracePeriodSeconds } : {}),
    ...(generation !== undefined ? { generation } : {}),
  };
}

function now(): string {
  // Kubernetes timestamps have second precision.
  return new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function randomSuffix(): string {
  let s = '';
  for (let i = 0; i < 5; i++)
    s += GENERATE_NAME_ALPHABET[Math.floor(Math.random() * GENERATE_NAME_ALPHABET.length)] ?? 'x';
  return s;
}

function scopeOf(type: ResourceType, subresource: string | undefined): FieldScope {
  if (subresource === 'status') return 'status-only';
  return type.subresources.includes('status') ? 'no-status' : 'all';
}

function managerOf(
  type: ResourceType,
  version: string,
  manager: string | undefined,
  subresource: string | undefined,
): ManagerIdentity {
  return {
    manager: manager ?? 'unknown',
    operation: 'Update',
    apiVersion: apiVersionOf(type.group, version),
    ...(subresource ? { subresource } : {}),
  };
}

function clusterIPsOf(services: KubeObject[]): Set<string> {
  return new Set(
    services
      .flatMap((s): unknown[] =>
        isRecord(s.spec) && Array.isArray(s.spec.clusterIPs) ? s.spec.clusterIPs : [],
      )
      .filter((ip): ip is string => typeof ip === 'string'),
  );
}

function nodePortsOf(services: KubeObject[]): Set<number> {
  return new Set(
    services
      .flatMap((s): unknown[] => (isRecord(s.spec) && Array.isArray(s.spec.ports) ? s.spec.ports : []))
      .map((p) => (isRecord(p) ? p.nodePort : undefined))
      .filter((n): n is number => typeof n === 'number'),
  );
}

/** Whether anything outside metadata (and outside status, when status is a subresource) changed. */
function specChanged(type: ResourceType, old: KubeObject, next: KubeObject): boolean {
  const strip = (o: KubeObject): Record<string, unknown> => {
    const { metadata: _m, status, ...rest } = o;
    return type.subresources.includes('status') ? rest : { ...rest, status };
  };
  return !jsonEqual(strip(old), strip(next));
}

/** The object without what changes on every write, to recognise writes that change nothing. */
function withoutTimes(object: KubeObject): KubeObject {
  const managedFields = object.metadata.managedFields?.map(({ time: _t, ...rest }) => rest);
  return {
    ...object,
    metadata: { ...object.metadata, resourceVersion: '', managedFields: managedFields as never },
  };
}

function parseJson(body: Buffer): unknown {
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch (e: unknown) {
    throw badRequest(`error decoding patch: ${e instanceof Error ? e.message : String(e)}`);
  }
}

function applyJsonPatch(old: KubeObject, patch: unknown): unknown {
  if (!Array.isArray(patch))
    throw badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  try {
    return fastJsonPatch.applyPatch(structuredClone(old), patch as fastJsonPatch.Operation[], true, false)
      .newDocument;
  } catch (e: unknown) {
    throw new StatusError(
      422,
      'Invalid',
      `the server rejected our request due to an error in our request: ${e instanceof Error ? (e.message.split('\n')[0] ?? '') : String(e)}`,
    );
  }
}
