import type { ResourceRegistry } from './resource-registry.js';
import { apiVersionOf, type ResourceType } from './resource-type.js';

/** The Kubernetes release kube-sim presents itself as. */
const KUBE_VERSION = { major: '1', minor: '32', gitVersion: 'v1.32.0+kube-sim' } as const;

export function versionInfo(): Record<string, string> {
  return {
    ...KUBE_VERSION,
    gitCommit: '0000000000000000000000000000000000000000',
    gitTreeState: 'clean',
    buildDate: '2025-01-01T00:00:00Z',
    goVersion: 'go1.23.4',
    compiler: 'gc',
    platform: 'linux/amd64',
  };
}

export function coreApiVersions(serverAddress: string): unknown {
  return {
    kind: 'APIVersions',
    versions: ['v1'],
    serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress }],
  };
}

function groupEntry(name: string, versions: string[]): unknown {
  const entries = versions.map((version) => ({ groupVersion: `${name}/${version}`, version }));
  return { name, versions: entries, preferredVersion: entries[0] };
}

/** `/apis` in its legacy form; kubectl falls back to it when it does not get the aggregated form. */
export function apiGroupList(registry: ResourceRegistry): unknown {
  return {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: registry.groups().map((g) => groupEntry(g.name, g.versions)),
  };
}

export function apiGroup(registry: ResourceRegistry, name: string): unknown {
  const group = registry.groups().find((g) => g.name === name);
  if (!group) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...(groupEntry(group.name, group.versions) as object) };
}

/** `/api/v1` or `/apis/GROUP/VERSION`: the resources and their subresources, or undefined if not served. */
export function apiResourceList(registry: ResourceRegistry, group: string, version: string): unknown {
  const types = registry.inGroupVersion(group, version);
  if (types.length === 0) return undefined;
  return {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: apiVersionOf(group, version),
    resources: types.flatMap(resourceEntries),
  };
}

function resourceEntries(type: ResourceType): unknown[] {
  const main = {
    name: type.plural,
    singularName: type.singular,
    namespaced: type.namespaced,
    kind: type.kind,
    verbs: type.verbs,
    ...(type.shortNames.length ? { shortNames: type.shortNames } : {}),
    ...(type.categories.length ? { categories: type.categories } : {}),
  };
  const subresources = type.subresources.map((sub) => {
    if (sub === 'token') {
      return {
        name: `${type.plural}/token`,
        singularName: '',
        namespaced: type.namespaced,
        group: 'authentication.k8s.io',
        version: 'v1',
        kind: 'TokenRequest',
        verbs: ['create'],
      };
    }
    return {
      name: `${type.plural}/${sub}`,
      singularName: '',
      namespaced: type.namespaced,
      kind: type.kind,
      verbs: sub === 'finalize' ? ['update'] : ['get', 'patch', 'update'],
    };
  });
  return [main, ...subresources];
}
