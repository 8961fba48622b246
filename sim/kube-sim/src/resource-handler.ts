import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import { parse as parseYaml } from 'yaml';
import type { TokenAuthenticator, UserInfo } from './auth/index.js';
import { FieldSelector } from './field-selector.js';
import type { KubeObject } from './kube-object.js';
import { isRecord } from './json-value.js';
import { LabelSelector } from './label-selector.js';
import type { ObjectStore } from './object-store.js';
import { decodeKubeProtobuf, PROTOBUF_CONTENT_TYPE } from './protobuf-body.js';
import type {
  DeleteOptions,
  FieldValidation,
  ObjectWriter,
  PropagationPolicy,
  Target,
  WriteOptions,
} from './object-writer.js';
import type { RbacSnapshot } from './rbac-snapshot.js';
import { isTrue, type RequestInfo } from './request-info.js';
import type { ResourceRegistry } from './resource-registry.js';
import { apiVersionOf, refOf, resourceKey, type ResourceType } from './resource-type.js';
import { selfSubjectAccessReview, selfSubjectReview } from './self-review.js';
import { createServiceAccountToken } from './service-account-token.js';
import { badRequest, methodNotAllowed, notFound, StatusError } from './status-error.js';
import { toTable, wantsTable, type IncludeObject } from './table.js';
import { WatchStream } from './watch-stream.js';

export interface ResourceHandlerDeps {
  store: ObjectStore;
  registry: ResourceRegistry;
  writer: ObjectWriter;
  authenticator: TokenAuthenticator;
  rbac: RbacSnapshot;
  watches: Set<WatchStream>;
  bookmarkIntervalMs: number;
  watchTimeoutMs: number;
}

export interface ApiCall {
  info: RequestInfo;
  url: URL;
  headers: IncomingHttpHeaders;
  body: Buffer;
  user: UserInfo;
}

/** An answer to send as JSON, or `streaming` when a watch has taken over the response. */
export type Reply = { status: number; body: unknown; warnings?: string[] } | 'streaming';

const FIELD_VALIDATIONS = new Set<string>(['Ignore', 'Warn', 'Strict']);
const PROPAGATION_POLICIES = new Set<string>(['Background', 'Foreground', 'Orphan']);

export function resourceNotFound(): StatusError {
  return new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
}

/** Serves a resource request (authenticated and authorized already): the verbs on objects and their subresources. */
export function handleResource(deps: ResourceHandlerDeps, call: ApiCall, res: ServerResponse): Reply {
  const { info } = call;
  const type = deps.registry.find(info.apiGroup, info.apiVersion, info.resource ?? '');
  if (!type) throw resourceNotFound();
  const namespace = type.namespaced ? info.namespace : undefined;
  // A namespaced resource must be addressed in a namespace to name an object; a cluster-scoped one never in one.
  if (type.namespaced && info.namespace === undefined && info.name !== undefined) throw resourceNotFound();
  if (!type.namespaced && info.namespace !== undefined && type.plural !== 'namespaces')
    throw resourceNotFound();
  if (info.subresource !== undefined) return handleSubresource(deps, call, type, namespace);
  if (!type.verbs.includes(info.verb))
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  if (type.virtual) return { status: 201, body: virtualCreate(deps, call, type) };
  const version = info.apiVersion;
  const target: Target = { namespace, name: info.name ?? '', subresource: undefined };
  switch (info.verb) {
    case 'get':
      return { status: 200, body: present(getObject(deps, type, target), type, version) };
    case 'list':
      return { status: 200, body: list(deps, call, type, namespace) };
    case 'watch':
      watch(deps, call, type, namespace, res);
      return 'streaming';
    case 'create': {
      const result = deps.writer.create(type, version, namespace, decodeBody(call, type), writeOptions(call));
      return { status: 201, body: present(result.object, type, version), warnings: result.warnings };
    }
    case 'update': {
      const result = deps.writer.update(type, version, target, decodeBody(call, type), writeOptions(call));
      return {
        status: result.created ? 201 : 200,
        body: present(result.object, type, version),
        warnings: result.warnings,
      };
    }
    case 'patch':
      return patch(deps, call, type, target);
    case 'delete':
      return deleteOne(deps, call, type, target);
    case 'deletecollection':
      return deleteCollection(deps, call, type, namespace);
    default:
      throw methodNotAllowed('the server does not allow this method on the requested resource');
  }
}

function handleSubresource(
  deps: ResourceHandlerDeps,
  call: ApiCall,
  type: ResourceType,
  namespace: string | undefined,
): Reply {
  const { info } = call;
  const sub = info.subresource ?? '';
  if (!type.subresources.includes(sub) || info.name === undefined) throw resourceNotFound();
  const target: Target = { namespace, name: info.name, subresource: sub };
  if (sub === 'token') {
    if (info.verb !== 'create')
      throw methodNotAllowed('the server does not allow this method on the requested resource');
    return {
      status: 201,
      body: createServiceAccountToken(
        deps.store,
        deps.authenticator,
        namespace ?? '',
        info.name,
        decodeBody(call, type, true),
      ),
    };
  }
  if (sub !== 'status')
    throw methodNotAllowed('the server does not allow this method on the requested resource');
  const version = info.apiVersion;
  switch (info.verb) {
    case 'get':
      return { status: 200, body: present(getObject(deps, type, target), type, version) };
    case 'update': {
      const result = deps.writer.update(type, version, target, decodeBody(call, type), writeOptions(call));
      return { status: 200, body: present(result.object, type, version), warnings: result.warnings };
    }
    case 'patch':
      return patch(deps, call, type, target);
    default:
      throw methodNotAllowed('the server does not allow this method on the requested resource');
  }
}

function virtualCreate(deps: ResourceHandlerDeps, call: ApiCall, type: ResourceType): unknown {
  if (type.plural === 'selfsubjectaccessreviews')
    return selfSubjectAccessReview(call.user, decodeBody(call, type), deps.rbac.objects);
  return selfSubjectReview(call.user);
}

function getObject(deps: ResourceHandlerDeps, type: ResourceType, target: Target): KubeObject {
  const object = deps.store.get(resourceKey(type.group, type.plural), target.namespace ?? '', target.name);
  if (!object) throw notFound(refOf(type), target.name);
  return object;
}

/** The object as the requested version shows it (custom resources convert with strategy None: only apiVersion changes). */
function present(object: KubeObject, type: ResourceType, version: string): KubeObject {
  const apiVersion = apiVersionOf(type.group, version);
  return object.apiVersion === apiVersion ? object : { ...object, apiVersion };
}

interface ContinueToken {
  rv: number;
  after: string;
}

function list(
  deps: ResourceHandlerDeps,
  call: ApiCall,
  type: ResourceType,
  namespace: string | undefined,
): unknown {
  const q = call.url.searchParams;
  const labels = LabelSelector.parse(q.get('labelSelector'));
  const fields = FieldSelector.parse(q.get('fieldSelector'));
  const version = call.info.apiVersion;
  const limit = parseLimit(q.get('limit'));
  const token = parseContinue(q.get('continue'));
  const rv = token?.rv ?? deps.store.resourceVersion;
  const key = (o: KubeObject): string => `${o.metadata.namespace ?? ''}/${o.metadata.name ?? ''}`;
  let items = deps.store
    .list(resourceKey(type.group, type.plural), namespace)
    .filter((o) => labels.matches(o.metadata.labels) && fields.matches(o));
  if (token) items = items.filter((o) => key(o) > token.after);
  const metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number } = {
    resourceVersion: String(rv),
  };
  if (limit !== undefined && items.length > limit) {
    const page = items.slice(0, limit);
    const last = page.at(-1);
    metadata.continue = Buffer.from(
      JSON.stringify({ rv, after: last ? key(last) : '' } satisfies ContinueToken),
    ).toString('base64url');
    if (labels.empty && !q.get('fieldSelector')) metadata.remainingItemCount = items.length - limit;
    items = page;
  }
  const shown = items.map((o) => present(o, type, version));
  if (wantsTable(call.headers.accept))
    return toTable(type, version, shown, metadata, includeObject(q.get('includeObject')));
  return { kind: type.listKind, apiVersion: apiVersionOf(type.group, version), metadata, items: shown };
}

function parseLimit(value: string | null): number | undefined {
  if (value === null || value === '' || value === '0') return undefined;
  if (!/^\d+$/.test(value))
    throw badRequest(`limit: Invalid value: "${value}": must be a non-negative integer`);
  return Number(value);
}

function parseContinue(value: string | null): ContinueToken | undefined {
  if (!value) return undefined;
  try {
    const token = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as unknown;
    if (isRecord(token) && typeof token.rv === 'number' && typeof token.after === 'string')
      return { rv: token.rv, after: token.after };
  } catch {
    // falls through to the error below
  }
  throw badRequest(
    'continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
  );
}

function includeObject(value: string | null): IncludeObject {
  if (value === 'None' || value === 'Object') return value;
  return 'Metadata';
}

function parseResourceVersion(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d+$/.test(value))
    throw badRequest(`resourceVersion: Invalid value: "${value}": must be a non-negative integer`);
  return Number(value);
}

function watch(
  deps: ResourceHandlerDeps,
  call: ApiCall,
  type: ResourceType,
  namespace: string | undefined,
  res: ServerResponse,
): void {
  const q = call.url.searchParams;
  const byName = call.info.name === undefined ? '' : `metadata.name=${call.info.name}`;
  const fieldText = [q.get('fieldSelector') ?? '', byName].filter((s) => s !== '').join(',');
  const timeout = q.get('timeoutSeconds');
  if (timeout !== null && !/^\d+$/.test(timeout))
    throw badRequest(`timeoutSeconds: Invalid value: "${timeout}": must be a non-negative integer`);
  const stream = new WatchStream(
    res,
    deps.store,
    {
      type,
      version: call.info.apiVersion,
      namespace,
      labels: LabelSelector.parse(q.get('labelSelector')),
      fields: FieldSelector.parse(fieldText),
      resourceVersion: parseResourceVersion(q.get('resourceVersion')),
      allowBookmarks: isTrue(q.get('allowWatchBookmarks')),
      timeoutMs: timeout !== null && Number(timeout) > 0 ? Number(timeout) * 1000 : deps.watchTimeoutMs,
      bookmarkIntervalMs: deps.bookmarkIntervalMs,
      table: wantsTable(call.headers.accept) ? includeObject(q.get('includeObject')) : undefined,
    },
    (s) => deps.watches.delete(s),
  );
  deps.watches.add(stream);
  stream.start();
}

function patch(deps: ResourceHandlerDeps, call: ApiCall, type: ResourceType, target: Target): Reply {
  const q = call.url.searchParams;
  const contentType = call.headers['content-type'] ?? '';
  const force = q.get('force');
  if (force !== null && !contentType.startsWith('application/apply-patch'))
    throw badRequest('force: Invalid value: true: may not be specified for non-apply patch');
  const result = deps.writer.patch(type, call.info.apiVersion, target, contentType, call.body, {
    ...writeOptions(call),
    force: isTrue(force),
  });
  return {
    status: result.created ? 201 : 200,
    body: present(result.object, type, call.info.apiVersion),
    warnings: result.warnings,
  };
}

function deleteOne(deps: ResourceHandlerDeps, call: ApiCall, type: ResourceType, target: Target): Reply {
  const { object, deleted } = deps.writer.delete(type, target, deleteOptions(call, type));
  if (!deleted) return { status: 202, body: present(object, type, call.info.apiVersion) };
  if (type.custom) return { status: 200, body: present(object, type, call.info.apiVersion) };
  return {
    status: 200,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: target.name, group: type.group, kind: type.plural, uid: object.metadata.uid },
    },
  };
}

function deleteCollection(
  deps: ResourceHandlerDeps,
  call: ApiCall,
  type: ResourceType,
  namespace: string | undefined,
): Reply {
  const q = call.url.searchParams;
  const labels = LabelSelector.parse(q.get('labelSelector'));
  const fields = FieldSelector.parse(q.get('fieldSelector'));
  const options = deleteOptions(call, type);
  const items: KubeObject[] = [];
  for (const o of deps.store.list(resourceKey(type.group, type.plural), namespace)) {
    if (!labels.matches(o.metadata.labels) || !fields.matches(o)) continue;
    const target: Target = {
      namespace: o.metadata.namespace,
      name: o.metadata.name ?? '',
      subresource: undefined,
    };
    items.push(present(deps.writer.delete(type, target, options).object, type, call.info.apiVersion));
  }
  return {
    status: 200,
    body: {
      kind: type.listKind,
      apiVersion: apiVersionOf(type.group, call.info.apiVersion),
      metadata: { resourceVersion: String(deps.store.resourceVersion) },
      items,
    },
  };
}

function deleteOptions(call: ApiCall, type: ResourceType): DeleteOptions {
  const q = call.url.searchParams;
  const body = call.body.length > 0 ? decodeBody(call, type, true) : undefined;
  const options = isRecord(body) ? body : {};
  let policy =
    q.get('propagationPolicy') ??
    (typeof options.propagationPolicy === 'string' ? options.propagationPolicy : undefined);
  const orphan =
    q.get('orphanDependents') ??
    (typeof options.orphanDependents === 'boolean' ? String(options.orphanDependents) : null);
  if (policy === undefined && orphan !== null) policy = isTrue(orphan) ? 'Orphan' : 'Background';
  if (policy !== undefined && !PROPAGATION_POLICIES.has(policy)) {
    throw new StatusError(
      422,
      'Invalid',
      `DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "${policy}": supported values: "Foreground", "Background", "Orphan"`,
    );
  }
  const pre = isRecord(options.preconditions) ? options.preconditions : {};
  const dryRun = [
    ...q.getAll('dryRun'),
    ...(Array.isArray(options.dryRun) ? options.dryRun.map(String) : []),
  ];
  return {
    ...(policy !== undefined ? { propagationPolicy: policy as PropagationPolicy } : {}),
    preconditions: {
      ...(typeof pre.uid === 'string' ? { uid: pre.uid } : {}),
      ...(typeof pre.resourceVersion === 'string' ? { resourceVersion: pre.resourceVersion } : {}),
    },
    dryRun: checkDryRun(dryRun),
  };
}

function checkDryRun(values: string[]): boolean {
  for (const v of values) {
    if (v !== 'All') throw badRequest(`dryRun: Unsupported value: "${v}": supported values: "All"`);
  }
  return values.length > 0;
}

function writeOptions(call: ApiCall): WriteOptions {
  const q = call.url.searchParams;
  const validation = q.get('fieldValidation') ?? 'Warn';
  if (!FIELD_VALIDATIONS.has(validation)) {
    throw badRequest(
      `fieldValidation: Unsupported value: "${validation}": supported values: "Ignore", "Strict", "Warn"`,
    );
  }
  const manager = q.get('fieldManager') ?? managerFromUserAgent(call.headers['user-agent']);
  if (manager !== undefined && manager.length > 128)
    throw badRequest('fieldManager: Too long: may not be more than 128 bytes');
  return {
    dryRun: checkDryRun(q.getAll('dryRun')),
    fieldManager: manager,
    fieldValidation: validation as FieldValidation,
  };
}

/** Without `fieldManager`, kube names the manager after the client: the User-Agent up to its first `/`. */
function managerFromUserAgent(userAgent: string | undefined): string | undefined {
  const name = (userAgent ?? '').split('/')[0]?.trim();
  return name === '' ? undefined : name;
}

/** The request body as JSON (or YAML when the client says so); an empty body counts as absent. */
function decodeBody(call: ApiCall, type: ResourceType, optional = false): unknown {
  if (call.body.length === 0) {
    if (optional) return undefined;
    throw badRequest(
      `${type.kind} in version "${call.info.apiVersion}" cannot be handled as a ${type.kind}: empty body`,
    );
  }
  const text = call.body.toString('utf8');
  const contentType = (call.headers['content-type'] ?? 'application/json').split(';')[0]?.trim() ?? '';
  if (contentType === PROTOBUF_CONTENT_TYPE) return decodeKubeProtobuf(call.body);
  try {
    if (contentType === 'application/yaml' || contentType === 'application/x-yaml')
      return parseYaml(text) as unknown;
    if (contentType !== 'application/json' && contentType !== '') {
      throw new StatusError(
        415,
        'UnsupportedMediaType',
        `the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf`,
      );
    }
    return JSON.parse(text) as unknown;
  } catch (e: unknown) {
    if (e instanceof StatusError) throw e;
    throw badRequest(
      `${type.kind} in version "${call.info.apiVersion}" cannot be handled as a ${type.kind}: ${e instanceof Error ? e.message : String(e)}`,
    );
  }
}
