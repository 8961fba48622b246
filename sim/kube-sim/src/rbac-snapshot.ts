import type { RbacObjects } from './auth/index.js';
import type { KubeObject } from './kube-object.js';
import type { ObjectStore } from './object-store.js';
import { resourceKey } from './resource-type.js';

const RBAC_GROUP = 'rbac.authorization.k8s.io';
const KEYS = {
  roles: resourceKey(RBAC_GROUP, 'roles'),
  clusterRoles: resourceKey(RBAC_GROUP, 'clusterroles'),
  roleBindings: resourceKey(RBAC_GROUP, 'rolebindings'),
  clusterRoleBindings: resourceKey(RBAC_GROUP, 'clusterrolebindings'),
} as const;

/**
 * The stored RBAC objects in the shape the authorizer reads, rebuilt only after one of them changes
 * (every request is authorized, RBAC objects rarely change).
 */
export class RbacSnapshot {
  private cached: RbacObjects | undefined;

  constructor(private readonly store: ObjectStore) {
    store.onChange((event) => {
      if (event.key.startsWith(`${RBAC_GROUP}/`)) this.cached = undefined;
    });
  }

  get objects(): RbacObjects {
    this.cached ??= {
      roles: this.list(KEYS.roles),
      clusterRoles: this.list(KEYS.clusterRoles),
      roleBindings: this.list(KEYS.roleBindings),
      clusterRoleBindings: this.list(KEYS.clusterRoleBindings),
    } as RbacObjects;
    return this.cached;
  }

  /** Seeds the bootstrap objects as real, stored objects. */
  static seedKeys(rbac: RbacObjects): [string, KubeObject[]][] {
    const kinds = {
      roles: 'Role',
      clusterRoles: 'ClusterRole',
      roleBindings: 'RoleBinding',
      clusterRoleBindings: 'ClusterRoleBinding',
    };
    return (Object.keys(KEYS) as (keyof typeof KEYS)[]).map((k) => [
      KEYS[k],
      (rbac[k] as unknown as KubeObject[]).map((o) => ({
        apiVersion: `${RBAC_GROUP}/v1`,
        kind: kinds[k],
        ...o,
      })),
    ]);
  }

  /** Stored objects are validated on write, so they have the shape RBAC types describe. */
  private list(key: string): never[] {
    return this.store.list(key) as never[];
  }
}
