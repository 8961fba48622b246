import { describe, expect, it } from 'vitest';
import { bootstrapRbac } from './bootstrap-rbac.js';
import { authorize, forbiddenMessage } from './rbac-authorizer.js';
import type { RbacObjects, RequestAttributes } from './rbac-objects.js';
import type { UserInfo } from './user-info.js';

const GROUP = 'vm.noderings.com';
const RBAC = 'rbac.authorization.k8s.io';
const controlPlane: UserInfo = {
  username: 'system:serviceaccount:a-operator:cp',
  groups: ['system:serviceaccounts', 'system:serviceaccounts:a-operator', 'system:authenticated'],
};
const alice: UserInfo = { username: 'alice', groups: ['system:authenticated'] };

/** Our control plane's least-privilege shape: a Role in `{agent}-operator` bound to its service account. */
function leastPrivilege(): RbacObjects {
  const rbac = bootstrapRbac();
  rbac.roles.push({
    metadata: { namespace: 'a-operator', name: 'cp' },
    rules: [
      { apiGroups: [GROUP], resources: ['*'], verbs: ['*'] },
      { apiGroups: [''], resources: ['secrets'], verbs: ['*'] },
    ],
  });
  rbac.roleBindings.push({
    metadata: { namespace: 'a-operator', name: 'cp' },
    roleRef: { apiGroup: RBAC, kind: 'Role', name: 'cp' },
    subjects: [{ kind: 'ServiceAccount', name: 'cp' }],
  });
  return rbac;
}

function request(user: UserInfo, verb: string, extra: Partial<RequestAttributes>): RequestAttributes {
  return { user, verb, resourceRequest: true, apiVersion: 'v1alpha1', ...extra };
}

const vmGet = (namespace?: string): RequestAttributes =>
  request(controlPlane, 'get', {
    apiGroup: GROUP,
    resource: 'proxmoxvms',
    name: 'nr-1',
    ...(namespace ? { namespace } : {}),
  });

describe('authorize', () => {
  it('allows the namespaced service account in its namespace only', () => {
    const rbac = leastPrivilege();
    expect(authorize(vmGet('a-operator'), rbac)).toEqual({
      allowed: true,
      reason: 'RBAC: allowed by RoleBinding "cp/a-operator" of Role "cp" to ServiceAccount "cp/a-operator"',
    });
    const secrets = request(controlPlane, 'list', {
      apiGroup: '',
      apiVersion: 'v1',
      resource: 'secrets',
      namespace: 'a-operator',
    });
    expect(authorize(secrets, rbac).allowed).toBe(true);
    expect(authorize(vmGet('proxmox-system'), rbac)).toEqual({ allowed: false });
    expect(authorize(vmGet(), rbac).allowed).toBe(false);
    expect(authorize({ ...secrets, namespace: 'proxmox-system' }, rbac).allowed).toBe(false);
    expect(authorize({ ...secrets, apiGroup: 'apps', resource: 'deployments' }, rbac).allowed).toBe(false);
  });

  it('matches subresources exactly, or through */subresource and *', () => {
    const rbac = bootstrapRbac();
    rbac.clusterRoles.push({
      metadata: { name: 'status-writer' },
      rules: [
        { apiGroups: [GROUP], resources: ['proxmoxvms/status'], verbs: ['patch', 'update'] },
        { apiGroups: [GROUP], resources: ['*/scale'], verbs: ['get'] },
      ],
    });
    rbac.clusterRoleBindings.push({
      metadata: { name: 'status-writer' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'status-writer' },
      subjects: [{ kind: 'User', name: 'alice' }],
    });
    const vm = { apiGroup: GROUP, resource: 'proxmoxvms', name: 'nr-1', namespace: 'a' };
    expect(authorize(request(alice, 'patch', { ...vm, subresource: 'status' }), rbac).allowed).toBe(true);
    expect(authorize(request(alice, 'patch', vm), rbac).allowed).toBe(false);
    expect(authorize(request(alice, 'get', { ...vm, subresource: 'scale' }), rbac).allowed).toBe(true);
    expect(authorize(request(alice, 'get', { ...vm, subresource: 'status' }), rbac).allowed).toBe(false);
  });

  it('restricts resourceNames rules to named requests', () => {
    const rbac = bootstrapRbac();
    rbac.roles.push({
      metadata: { namespace: 'a', name: 'one-secret' },
      rules: [
        {
          apiGroups: [''],
          resources: ['secrets'],
          resourceNames: ['creds'],
          verbs: ['get', 'list', 'watch', 'create', 'update'],
        },
      ],
    });
    rbac.roleBindings.push({
      metadata: { namespace: 'a', name: 'one-secret' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'one-secret' },
      subjects: [{ kind: 'User', name: 'alice' }],
    });
    const secret = { apiGroup: '', resource: 'secrets', namespace: 'a' };
    expect(authorize(request(alice, 'get', { ...secret, name: 'creds' }), rbac).allowed).toBe(true);
    expect(authorize(request(alice, 'update', { ...secret, name: 'creds' }), rbac).allowed).toBe(true);
    expect(authorize(request(alice, 'get', { ...secret, name: 'other' }), rbac).allowed).toBe(false);
    for (const verb of ['list', 'watch', 'create']) {
      expect(authorize(request(alice, verb, secret), rbac).allowed).toBe(false);
    }
  });

  it('grants a ClusterRole through a RoleBinding only in the binding’s namespace, and matches groups', () => {
    const rbac = bootstrapRbac();
    rbac.roleBindings.push({
      metadata: { namespace: 'team', name: 'viewers' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'Group', name: 'viewers', apiGroup: RBAC }],
    });
    const viewer: UserInfo = { username: 'carol', groups: ['viewers', 'system:authenticated'] };
    const pods = { apiGroup: '', resource: 'pods' };
    expect(authorize(request(viewer, 'list', { ...pods, namespace: 'team' }), rbac).allowed).toBe(true);
    expect(
      authorize(request(viewer, 'delete', { ...pods, namespace: 'team', name: 'p' }), rbac).allowed,
    ).toBe(false);
    expect(authorize(request(viewer, 'list', { ...pods, namespace: 'other' }), rbac).allowed).toBe(false);
    expect(authorize(request(viewer, 'list', pods), rbac).allowed).toBe(false);
    expect(
      authorize(
        request(viewer, 'get', { apiGroup: '', resource: 'secrets', namespace: 'team', name: 's' }),
        rbac,
      ).allowed,
    ).toBe(false);
  });

  it('aggregates ClusterRoles labelled aggregate-to-view into view', () => {
    const rbac = bootstrapRbac();
    rbac.clusterRoles.push({
      metadata: { name: 'vm-viewer', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
      rules: [{ apiGroups: [GROUP], resources: ['proxmoxvms'], verbs: ['get', 'list', 'watch'] }],
    });
    rbac.clusterRoleBindings.push({
      metadata: { name: 'alice-admin' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'admin' },
      subjects: [{ kind: 'User', name: 'alice' }],
    });
    expect(
      authorize(request(alice, 'list', { apiGroup: GROUP, resource: 'proxmoxvms', namespace: 'a' }), rbac)
        .allowed,
    ).toBe(true);
  });

  it('gives system:masters everything through cluster-admin', () => {
    const admin: UserInfo = { username: 'admin', groups: ['system:masters', 'system:authenticated'] };
    const rbac = bootstrapRbac();
    expect(
      authorize(
        request(admin, 'deletecollection', { apiGroup: GROUP, resource: 'proxmoxvms', namespace: 'x' }),
        rbac,
      ),
    ).toEqual({
      allowed: true,
      reason:
        'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"',
    });
    expect(
      authorize({ user: admin, verb: 'get', resourceRequest: false, path: '/metrics' }, rbac).allowed,
    ).toBe(true);
  });

  it('lets any authenticated user discover the API and review itself, and nothing more', () => {
    const rbac = bootstrapRbac();
    for (const path of [
      '/api',
      '/api/v1',
      '/apis',
      '/apis/vm.noderings.com/v1alpha1',
      '/version',
      '/healthz',
      '/openapi/v3',
    ]) {
      expect(authorize({ user: alice, verb: 'get', resourceRequest: false, path }, rbac).allowed).toBe(true);
    }
    expect(
      authorize({ user: alice, verb: 'get', resourceRequest: false, path: '/metrics' }, rbac).allowed,
    ).toBe(false);
    expect(
      authorize({ user: alice, verb: 'post', resourceRequest: false, path: '/apis' }, rbac).allowed,
    ).toBe(false);
    expect(
      authorize(
        request(alice, 'create', { apiGroup: 'authorization.k8s.io', resource: 'selfsubjectaccessreviews' }),
        rbac,
      ).allowed,
    ).toBe(true);
    expect(authorize(request(alice, 'list', { apiGroup: '', resource: 'namespaces' }), rbac).allowed).toBe(
      false,
    );
    const anonymous: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
    expect(
      authorize({ user: anonymous, verb: 'get', resourceRequest: false, path: '/healthz' }, rbac).allowed,
    ).toBe(true);
    expect(
      authorize({ user: anonymous, verb: 'get', resourceRequest: false, path: '/apis' }, rbac).allowed,
    ).toBe(false);
  });

  it('does not match service-account subjects without a namespace in ClusterRoleBindings', () => {
    const rbac = bootstrapRbac();
    rbac.clusterRoleBindings.push({
      metadata: { name: 'broken' },
      roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'cluster-admin' },
      subjects: [{ kind: 'ServiceAccount', name: 'cp' }],
    });
    expect(authorize(vmGet('a-operator'), rbac).allowed).toBe(false);
  });

  it('reports bindings to missing roles as kube does', () => {
    const rbac = bootstrapRbac();
    rbac.roleBindings.push({
      metadata: { namespace: 'a-operator', name: 'cp' },
      roleRef: { apiGroup: RBAC, kind: 'Role', name: 'gone' },
      subjects: [{ kind: 'ServiceAccount', name: 'cp', namespace: 'a-operator' }],
    });
    const attrs = vmGet('a-operator');
    const decision = authorize(attrs, rbac);
    expect(decision).toEqual({
      allowed: false,
      reason: 'RBAC: role.rbac.authorization.k8s.io "gone" not found',
    });
    expect(forbiddenMessage(attrs, decision.reason)).toBe(
      'proxmoxvms.vm.noderings.com "nr-1" is forbidden: User "system:serviceaccount:a-operator:cp" cannot get resource "proxmoxvms" in API group "vm.noderings.com" in the namespace "a-operator": RBAC: role.rbac.authorization.k8s.io "gone" not found',
    );
  });
});

describe('forbiddenMessage', () => {
  it('words a named namespaced request', () => {
    expect(forbiddenMessage(vmGet('a-operator'))).toBe(
      'proxmoxvms.vm.noderings.com "nr-1" is forbidden: User "system:serviceaccount:a-operator:cp" cannot get resource "proxmoxvms" in API group "vm.noderings.com" in the namespace "a-operator"',
    );
  });

  it('words a subresource request', () => {
    expect(forbiddenMessage({ ...vmGet('a-operator'), verb: 'patch', subresource: 'status' })).toBe(
      'proxmoxvms.vm.noderings.com "nr-1" is forbidden: User "system:serviceaccount:a-operator:cp" cannot patch resource "proxmoxvms/status" in API group "vm.noderings.com" in the namespace "a-operator"',
    );
  });

  it('words collection, cluster-scoped and core-group requests', () => {
    expect(
      forbiddenMessage(request(alice, 'list', { apiGroup: GROUP, resource: 'proxmoxvms', namespace: 'a' })),
    ).toBe(
      'proxmoxvms.vm.noderings.com is forbidden: User "alice" cannot list resource "proxmoxvms" in API group "vm.noderings.com" in the namespace "a"',
    );
    expect(forbiddenMessage(request(alice, 'watch', { apiGroup: GROUP, resource: 'proxmoxvms' }))).toBe(
      'proxmoxvms.vm.noderings.com is forbidden: User "alice" cannot watch resource "proxmoxvms" in API group "vm.noderings.com" at the cluster scope',
    );
    expect(
      forbiddenMessage(request(alice, 'get', { apiGroup: '', resource: 'namespaces', name: 'kube-system' })),
    ).toBe(
      'namespaces "kube-system" is forbidden: User "alice" cannot get resource "namespaces" in API group "" at the cluster scope',
    );
  });

  it('words a non-resource request', () => {
    expect(forbiddenMessage({ user: alice, verb: 'get', resourceRequest: false, path: '/apis' })).toBe(
      'forbidden: User "alice" cannot get path "/apis"',
    );
  });
});
