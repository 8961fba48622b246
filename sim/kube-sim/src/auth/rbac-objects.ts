import type { UserInfo } from './user-info.js';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface RoleRef {
  apiGroup: string;
  kind: 'Role' | 'ClusterRole';
  name: string;
}

export interface Subject {
  kind: 'User' | 'Group' | 'ServiceAccount';
  name: string;
  namespace?: string;
  apiGroup?: string;
}

interface Role {
  metadata: { namespace: string; name: string };
  rules?: PolicyRule[];
}

export interface ClusterRole {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  rules?: PolicyRule[];
  /** `{ clusterRoleSelectors: LabelSelector[] }`; read defensively since it comes from stored objects. */
  aggregationRule?: unknown;
}

interface RoleBinding {
  metadata: { namespace: string; name: string };
  roleRef: RoleRef;
  subjects?: Subject[];
}

export interface ClusterRoleBinding {
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  roleRef: RoleRef;
  subjects?: Subject[];
}

/** The rbac.authorization.k8s.io objects an authorization decision reads. */
export interface RbacObjects {
  roles: Role[];
  clusterRoles: ClusterRole[];
  roleBindings: RoleBinding[];
  clusterRoleBindings: ClusterRoleBinding[];
}

/** What the apiserver knows about a request when it authorizes it (authorizer.Attributes). */
export interface RequestAttributes {
  user: UserInfo;
  /** get list watch create update patch delete deletecollection, or an HTTP verb for non-resource paths. */
  verb: string;
  resourceRequest: boolean;
  apiGroup?: string;
  apiVersion?: string;
  resource?: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** The URL path of a non-resource request. */
  path?: string;
}
