import { request } from 'node:https';

import type { KubeObject } from '@noderings/kube';
import { type KubeSim, startKubeSim } from '@noderings/kube-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { renderNodeAgent } from './index.js';

const OPTIONS = {
  image: 'registry.example/proxima/agent:0.8.0',
  backendUrl: 'https://api-console.example.com',
};

const PATHS: Record<string, { prefix: string; plural: string; namespaced: boolean }> = {
  Namespace: { prefix: '/api/v1', plural: 'namespaces', namespaced: false },
  ServiceAccount: { prefix: '/api/v1', plural: 'serviceaccounts', namespaced: true },
  ClusterRole: { prefix: '/apis/rbac.authorization.k8s.io/v1', plural: 'clusterroles', namespaced: false },
  ClusterRoleBinding: {
    prefix: '/apis/rbac.authorization.k8s.io/v1',
    plural: 'clusterrolebindings',
    namespaced: false,
  },
};

interface Reply {
  status: number;
  body: Record<string, unknown>;
}

function call(sim: KubeSim, token: string, method: string, path: string, body?: unknown): Promise<Reply> {
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

/** Server-side apply of everything kube-sim serves (it has no apps/v1, so no DaemonSet). */
async function applyAll(sim: KubeSim, objects: KubeObject[]): Promise<string[]> {
  const statuses: string[] = [];
  for (const object of objects) {
    const where = PATHS[object.kind ?? ''];
    if (where === undefined) continue;
    const ns = where.namespaced ? `/namespaces/${object.metadata?.namespace ?? ''}` : '';
    const path = `${where.prefix}${ns}/${where.plural}/${object.metadata?.name ?? ''}?fieldManager=nr&force=true`;
    statuses.push(`${object.kind ?? ''} ${(await call(sim, sim.adminToken, 'PATCH', path, object)).status}`);
  }
  return statuses;
}

async function canGet(sim: KubeSim, token: string, resource: string, subresource?: string): Promise<boolean> {
  const reply = await call(sim, token, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectAccessReview',
    spec: {
      resourceAttributes: {
        verb: 'get',
        resource,
        ...(subresource === undefined ? {} : { subresource }),
        ...(resource === 'secrets' ? { namespace: 'proxima-system' } : { name: 'worker-1' }),
      },
    },
  });
  expect(reply.status).toBe(201);
  return (reply.body.status as { allowed: boolean }).allowed;
}

describe('the node agent’s RBAC on a cluster', () => {
  let sim: KubeSim;
  let token: string;

  beforeAll(async () => {
    sim = await startKubeSim({ listen: '127.0.0.1:0' });
  });
  afterAll(async () => {
    await sim.close();
  });

  it('applies, and lets the service account read the three kubelet subresources, nothing else', async () => {
    const objects = renderNodeAgent(OPTIONS);
    expect(await applyAll(sim, objects)).toEqual([
      'Namespace 201',
      'ServiceAccount 201',
      'ClusterRole 201',
      'ClusterRoleBinding 201',
    ]);
    const reply = await call(
      sim,
      sim.adminToken,
      'POST',
      '/api/v1/namespaces/proxima-system/serviceaccounts/proxima-node-agent/token',
      { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} },
    );
    expect(reply.status).toBe(201);
    token = (reply.body.status as { token: string }).token;
    for (const subresource of ['stats', 'metrics', 'pods'])
      expect(await canGet(sim, token, 'nodes', subresource)).toBe(true);
    expect(await canGet(sim, token, 'nodes', 'proxy')).toBe(false);
    expect(await canGet(sim, token, 'nodes', 'log')).toBe(false);
    expect(await canGet(sim, token, 'nodes')).toBe(false);
    expect(await canGet(sim, token, 'secrets')).toBe(false);
    expect((await call(sim, token, 'GET', '/api/v1/namespaces/proxima-system/secrets')).status).toBe(403);
  });

  it('with --legacy-nodes-proxy also grants nodes/proxy', async () => {
    expect(await applyAll(sim, renderNodeAgent({ ...OPTIONS, legacyNodesProxy: true }))).toContain(
      'ClusterRole 200',
    );
    expect(await canGet(sim, token, 'nodes', 'proxy')).toBe(true);
    expect(await canGet(sim, token, 'secrets')).toBe(false);
  });
});
