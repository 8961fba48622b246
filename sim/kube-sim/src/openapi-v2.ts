import { builtinDefinitions, LIST_META, OBJECT_META, type SwaggerSchema } from './builtin-schemas.js';
import type { ResourceRegistry } from './resource-registry.js';
import type { ResourceSchema, ResourceType } from './resource-type.js';

/**
 * `/openapi/v2` as kube-apiserver serves it: Swagger 2.0 with a definition per kind (built-in ones
 * from `builtin-schemas.ts`, custom resources from their CRD's schema converted as the apiextensions
 * server does) and the resource paths with `x-kubernetes-group-version-kind`. kubectl validates
 * `kind: List` documents against these definitions before it sends any item.
 */
export function openApiV2Document(registry: ResourceRegistry): SwaggerSchema {
  const definitions = builtinDefinitions();
  const byKind = new Map<string, string>();
  for (const [name, schema] of Object.entries(definitions)) {
    for (const gvk of gvksOf(schema)) byKind.set(gvkKey(gvk.group, gvk.version, gvk.kind), name);
  }
  const paths: Record<string, unknown> = {};
  for (const type of registry.all()) {
    for (const version of type.versions) {
      const gvk = { group: type.group, version, kind: type.kind };
      let name = byKind.get(gvkKey(type.group, version, type.kind));
      if (!name) {
        name = customDefinitionName(type, version);
        definitions[name] = customDefinition(type.custom?.schemas.get(version), gvk);
      }
      const listName = `${name}List`;
      definitions[listName] = listDefinition(name, { ...gvk, kind: type.listKind });
      Object.assign(paths, resourcePaths(type, version, name, listName));
    }
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    definitions,
  };
}

interface Gvk {
  group: string;
  version: string;
  kind: string;
}

function gvkKey(group: string, version: string, kind: string): string {
  return `${group}/${version}/${kind}`;
}

function gvksOf(schema: SwaggerSchema): Gvk[] {
  const value = schema['x-kubernetes-group-version-kind'];
  return Array.isArray(value) ? (value as Gvk[]) : [];
}

function customDefinitionName(type: ResourceType, version: string): string {
  return `${type.group.split('.').reverse().join('.')}.${version}.${type.kind}`;
}

function listDefinition(itemName: string, gvk: Gvk): SwaggerSchema {
  return {
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { type: 'string' },
      items: { type: 'array', items: { $ref: `#/definitions/${itemName}` } },
      kind: { type: 'string' },
      metadata: { $ref: `#/definitions/${LIST_META}` },
    },
    'x-kubernetes-group-version-kind': [gvk],
  };
}

/**
 * A CRD's schema in v2 form, as the apiextensions server publishes it: `apiVersion`, `kind` and
 * `metadata` (ObjectMeta) added at the root; what OpenAPI v2 or kubectl cannot express is dropped so
 * that values the server accepts are not refused by the client.
 */
function customDefinition(schema: ResourceSchema | undefined, gvk: Gvk): SwaggerSchema {
  const root = schema ? toV2(schema) : { type: 'object' };
  const properties = (root.properties ?? {}) as Record<string, SwaggerSchema>;
  const open = schema?.['x-kubernetes-preserve-unknown-fields'] === true || !schema;
  return {
    ...root,
    type: 'object',
    ...(open
      ? {}
      : {
          properties: {
            ...properties,
            apiVersion: { type: 'string' },
            kind: { type: 'string' },
            metadata: { $ref: `#/definitions/${OBJECT_META}` },
          },
        }),
    'x-kubernetes-group-version-kind': [gvk],
  };
}

const V2_KEYWORDS = [
  'description',
  'format',
  'title',
  'required',
  'enum',
  'pattern',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'default',
  'example',
] as const;

function toV2(schema: ResourceSchema): SwaggerSchema {
  const out: SwaggerSchema = {};
  for (const key of V2_KEYWORDS) if (schema[key] !== undefined) out[key] = schema[key];
  // Untyped values (nullable, int-or-string) break kubectl's validator if they keep a type, items or
  // properties; so do unknown fields kept by preserve-unknown-fields.
  const untyped = schema.nullable === true || schema['x-kubernetes-int-or-string'] === true;
  const preserve = schema['x-kubernetes-preserve-unknown-fields'] === true;
  if (schema.type && !untyped) out.type = schema.type;
  if (untyped || preserve) return out;
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, toV2(v)]));
  }
  if (schema.items) out.items = toV2(schema.items);
  else if (out.type === 'array') delete out.type;
  if (typeof schema.additionalProperties === 'object')
    out.additionalProperties = toV2(schema.additionalProperties);
  return out;
}

const WRITE_PARAMETERS = ['dryRun', 'fieldManager', 'fieldValidation'].map((name) => ({
  name,
  in: 'query',
  type: 'string',
  uniqueItems: true,
}));

function resourcePaths(
  type: ResourceType,
  version: string,
  name: string,
  listName: string,
): Record<string, unknown> {
  const gvk = { group: type.group, version, kind: type.kind };
  const prefix = type.group ? `/apis/${type.group}/${version}` : `/api/${version}`;
  const base = `${prefix}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}`;
  const op = (action: string, returns: string, extra: Record<string, unknown> = {}): unknown => ({
    operationId: `${action}${type.kind}`,
    consumes: ['*/*'],
    produces: ['application/json', 'application/yaml'],
    responses: { '200': { description: 'OK', schema: { $ref: `#/definitions/${returns}` } } },
    'x-kubernetes-action': action,
    'x-kubernetes-group-version-kind': gvk,
    ...extra,
  });
  const body = (schema: string): unknown => ({
    name: 'body',
    in: 'body',
    required: true,
    schema: { $ref: `#/definitions/${schema}` },
  });
  const write = (action: string, bodySchema = name): unknown =>
    op(action, name, { parameters: [body(bodySchema), ...WRITE_PARAMETERS] });
  if (type.virtual) return { [base]: { post: write('post') } };
  const item = {
    get: op('get', name),
    put: write('put'),
    patch: write('patch', 'io.k8s.apimachinery.pkg.apis.meta.v1.Patch'),
    delete: op('delete', name),
  };
  const paths: Record<string, unknown> = {
    [base]: { get: op('list', listName), post: write('post') },
    [`${base}/{name}`]: item,
  };
  if (type.subresources.includes('status')) paths[`${base}/{name}/status`] = item;
  return paths;
}
