import { createHash } from 'node:crypto';
import type { ResourceRegistry } from './resource-registry.js';
import { apiVersionOf, type ResourceType } from './resource-type.js';

/**
 * A minimal OpenAPI v3, enough for kubectl: every group-version document lists its paths with the
 * operations' `x-kubernetes-group-version-kind` and the `fieldValidation` parameter on PATCH, which is
 * how kubectl learns that the server validates fields itself (so it sends `fieldValidation=Strict`
 * instead of validating against schemas). Custom resources carry their CRD schema as a component.
 */
export function openApiV3Index(registry: ResourceRegistry): unknown {
  const paths: Record<string, { serverRelativeURL: string }> = {};
  for (const gv of groupVersions(registry)) {
    const path = gvPath(gv.group, gv.version);
    const hash = createHash('sha512')
      .update(JSON.stringify(openApiV3Document(registry, path)))
      .digest('hex')
      .slice(0, 64);
    paths[path] = { serverRelativeURL: `/openapi/v3/${path}?hash=${hash.toUpperCase()}` };
  }
  return { paths };
}

export function openApiV3Document(registry: ResourceRegistry, path: string): unknown {
  const gv = groupVersions(registry).find((g) => gvPath(g.group, g.version) === path);
  if (!gv) return undefined;
  const types = registry.inGroupVersion(gv.group, gv.version);
  const paths: Record<string, unknown> = {};
  const schemas: Record<string, unknown> = {};
  for (const type of types) {
    const gvk = { group: type.group, version: gv.version, kind: type.kind };
    const ref = schemaName(type, gv.version);
    schemas[ref] = {
      ...(type.custom?.schemas.get(gv.version) ?? {
        type: 'object',
        'x-kubernetes-preserve-unknown-fields': true,
      }),
      'x-kubernetes-group-version-kind': [gvk],
    };
    const base = `/${path}${type.namespaced ? '/namespaces/{namespace}' : ''}/${type.plural}`;
    const body = { content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } };
    const op = (action: string, extra: Record<string, unknown> = {}): unknown => ({
      operationId: `${action}${type.kind}`,
      'x-kubernetes-action': action,
      'x-kubernetes-group-version-kind': gvk,
      responses: { '200': body },
      ...extra,
    });
    const writeParams = ['dryRun', 'fieldManager', 'fieldValidation'].map(queryParam);
    paths[base] = type.virtual
      ? { post: op('post', { requestBody: body, parameters: writeParams }) }
      : { get: op('list'), post: op('post', { requestBody: body, parameters: writeParams }) };
    if (type.virtual) continue;
    const item = {
      get: op('get'),
      put: op('put', { requestBody: body, parameters: writeParams }),
      patch: op('patch', { parameters: [...writeParams, queryParam('force')] }),
      delete: op('delete'),
    };
    paths[`${base}/{name}`] = item;
    for (const sub of type.subresources.filter((s) => s === 'status')) {
      paths[`${base}/{name}/${sub}`] = { get: item.get, put: item.put, patch: item.patch };
    }
  }
  return {
    openapi: '3.0.0',
    info: { title: 'Kubernetes', version: 'v1.32.0' },
    paths,
    components: { schemas },
  };
}

function queryParam(name: string): unknown {
  return { name, in: 'query', schema: { type: name === 'force' ? 'boolean' : 'string', uniqueItems: true } };
}

function gvPath(group: string, version: string): string {
  return group ? `apis/${group}/${version}` : `api/${version}`;
}

function schemaName(type: ResourceType, version: string): string {
  const reversed = type.group ? type.group.split('.').reverse().join('.') : 'io.k8s.api.core';
  return `${reversed}.${version}.${type.kind}`;
}

function groupVersions(registry: ResourceRegistry): { group: string; version: string }[] {
  const seen = new Map<string, { group: string; version: string }>();
  for (const type of registry.all()) {
    for (const version of type.versions)
      seen.set(apiVersionOf(type.group, version), { group: type.group, version });
  }
  return [...seen.values()];
}
