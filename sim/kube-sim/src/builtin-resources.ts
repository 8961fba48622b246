import { ALL_VERBS, type ResourceType } from './resource-type.js';

function builtin(
  group: string,
  version: string,
  kind: string,
  plural: string,
  extra: Partial<ResourceType> = {},
): ResourceType {
  return {
    group,
    versions: [version],
    kind,
    listKind: `${kind}List`,
    plural,
    singular: kind.toLowerCase(),
    namespaced: true,
    shortNames: [],
    categories: [],
    verbs: ALL_VERBS,
    subresources: [],
    generation: false,
    ...extra,
  };
}

const CREATE_ONLY = ['create'];

/** Deployments and DaemonSets: in `kubectl get all`, with a status written by whoever runs their pods. */
const workload = (shortNames: string[]): Partial<ResourceType> => ({
  shortNames,
  categories: ['all'],
  subresources: ['status'],
  generation: true,
});

/** The resources kube-sim serves before any CRD exists. */
export function builtinResources(): ResourceType[] {
  return [
    builtin('', 'v1', 'Namespace', 'namespaces', {
      namespaced: false,
      shortNames: ['ns'],
      verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
      subresources: ['status', 'finalize'],
    }),
    builtin('', 'v1', 'Secret', 'secrets'),
    builtin('', 'v1', 'ConfigMap', 'configmaps', { shortNames: ['cm'] }),
    builtin('', 'v1', 'ServiceAccount', 'serviceaccounts', { shortNames: ['sa'], subresources: ['token'] }),
    builtin('', 'v1', 'Event', 'events', { shortNames: ['ev'] }),
    builtin('', 'v1', 'Service', 'services', {
      shortNames: ['svc'],
      categories: ['all'],
      subresources: ['status'],
    }),
    builtin('', 'v1', 'Node', 'nodes', { namespaced: false, shortNames: ['no'], subresources: ['status'] }),
    builtin('apps', 'v1', 'Deployment', 'deployments', workload(['deploy'])),
    builtin('apps', 'v1', 'DaemonSet', 'daemonsets', workload(['ds'])),
    builtin('coordination.k8s.io', 'v1', 'Lease', 'leases'),
    builtin('rbac.authorization.k8s.io', 'v1', 'Role', 'roles'),
    builtin('rbac.authorization.k8s.io', 'v1', 'RoleBinding', 'rolebindings'),
    builtin('rbac.authorization.k8s.io', 'v1', 'ClusterRole', 'clusterroles', { namespaced: false }),
    builtin('rbac.authorization.k8s.io', 'v1', 'ClusterRoleBinding', 'clusterrolebindings', {
      namespaced: false,
    }),
    builtin('apiextensions.k8s.io', 'v1', 'CustomResourceDefinition', 'customresourcedefinitions', {
      namespaced: false,
      shortNames: ['crd', 'crds'],
      categories: ['api-extensions'],
      subresources: ['status'],
      generation: true,
    }),
    builtin('authorization.k8s.io', 'v1', 'SelfSubjectAccessReview', 'selfsubjectaccessreviews', {
      namespaced: false,
      verbs: CREATE_ONLY,
      virtual: true,
    }),
    builtin('authentication.k8s.io', 'v1', 'SelfSubjectReview', 'selfsubjectreviews', {
      namespaced: false,
      verbs: CREATE_ONLY,
      virtual: true,
    }),
  ];
}
