import type { KubeObject } from '@noderings/kube';

export interface PolicyRule {
  apiGroups: string[];
  resources: string[];
  verbs: string[];
}

export interface Role extends KubeObject {
  rules: PolicyRule[];
}

export interface RoleBinding extends KubeObject {
  roleRef: { apiGroup: 'rbac.authorization.k8s.io'; kind: 'Role'; name: string };
  subjects: { kind: 'ServiceAccount'; name: string; namespace: string }[];
}

const RBAC = 'rbac.authorization.k8s.io/v1';

export function role(namespace: string, name: string, rules: PolicyRule[]): Role {
  return { apiVersion: RBAC, kind: 'Role', metadata: { name, namespace }, rules };
}

/** Binds the Role `name` in `namespace` to a service account (possibly of another namespace). */
export function roleBinding(
  namespace: string,
  name: string,
  account: { name: string; namespace: string },
): RoleBinding {
  return {
    apiVersion: RBAC,
    kind: 'RoleBinding',
    metadata: { name, namespace },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
    subjects: [{ kind: 'ServiceAccount', ...account }],
  };
}

export interface ClusterRole extends KubeObject {
  rules: PolicyRule[];
}

export interface ClusterRoleBinding extends KubeObject {
  roleRef: { apiGroup: 'rbac.authorization.k8s.io'; kind: 'ClusterRole'; name: string };
  subjects: { kind: 'ServiceAccount'; name: string; namespace: string }[];
}

export function clusterRole(name: string, rules: PolicyRule[]): ClusterRole {
  return { apiVersion: RBAC, kind: 'ClusterRole', metadata: { name }, rules };
}

/** Binds the ClusterRole `name` to a service account, cluster-wide. */
export function clusterRoleBinding(
  name: string,
  account: { name: string; namespace: string },
): ClusterRoleBinding {
  return {
    apiVersion: RBAC,
    kind: 'ClusterRoleBinding',
    metadata: { name },
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
    subjects: [{ kind: 'ServiceAccount', ...account }],
  };
}
