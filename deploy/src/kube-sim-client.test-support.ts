import { request } from 'node:https';

import type { KubeObject } from '@noderings/kube';
import type { KubeSim } from '@noderings/kube-sim';

/** Where each kind we render is served; kube-sim serves no apps/v1 (it has no workload controllers). */
const PATHS: Record<string, { prefix: string; plural: string; namespaced: boolean } | undefined> = {
  Namespace: { prefix: '/api/v1', plural: 'namespaces', namespaced: false },
  ServiceAccount: { prefix: '/api/v1', plural: 'serviceaccounts', namespaced: true },
  CustomResourceDefinition: {
    prefix: '/apis/apiextensions.k8s.io/v1',
    plural: 'customresourcedefinitions',
    namespaced: false,
  },
  Role: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'roles', namespaced: true },
  RoleBinding: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'rolebindings', namespaced: true },
  ClusterRole: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'clusterroles', namespaced: false },
  ClusterRoleBinding: {
    prefix: '/apis/rbac.authorization.k8s.io/v1',
    plural: 'clusterrolebindings',
    namespaced: false,
  },
};

export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/** One request to kube-sim over HTTPS with a bearer token; PATCH is a server-side apply. */
export function call(
  sim: KubeSim,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const contentType = method === 'PATCH' ? 'application/apply-patch+yaml' : 'application/json';
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(path, sim.url),
      {
        method,
        ca: sim.caPem,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(payload === undefined ? {} : { 'Content-Type': contentType }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({
            status: res.statusCode ?? 0,
            body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
          });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Whether kube-sim serves this kind (it has no apps/v1, so no Deployment or DaemonSet). */
export function served(object: KubeObject): boolean {
  return PATHS[object.kind ?? ''] !== undefined;
}

/** Server-side apply as the admin, as `kubectl apply --server-side` sends it. */
export function apply(sim: KubeSim, object: KubeObject): Promise<Reply> {
  const where = PATHS[object.kind ?? ''];
  if (where === undefined) throw new Error(`no path for ${object.kind ?? '?'}`);
  const ns = where.namespaced ? `/namespaces/${object.metadata?.namespace ?? ''}` : '';
  const path = `${where.prefix}${ns}/${where.plural}/${object.metadata?.name ?? ''}?fieldManager=nr&force=true`;
  return call(sim, sim.adminToken, 'PATCH', path, object);
}

/** A TokenRequest token for a service account. */
export async function tokenFor(sim: KubeSim, namespace: string, account: string): Promise<string> {
  const reply = await call(
    sim,
    sim.adminToken,
    'POST',
    `/api/v1/namespaces/${namespace}/serviceaccounts/${account}/token`,
    { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
  );
  if (reply.status !== 201) throw new Error(`TokenRequest answered ${reply.status}`);
  return (reply.body.status as { token: string }).token;
}

/** A SelfSubjectAccessReview with the token: may it do this? */
export async function canI(
  sim: KubeSim,
  token: string,
  attributes: {
    verb: string;
    resource: string;
    subresource?: string;
    name?: string;
    namespace?: string;
    group?: string;
  },
): Promise<boolean> {
  const reply = await call(sim, token, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: { resourceAttributes: attributes },
  });
  if (reply.status !== 201) throw new Error(`SelfSubjectAccessReview answered ${reply.status}`);
  return (reply.body.status as { allowed: boolean }).allowed;
}
