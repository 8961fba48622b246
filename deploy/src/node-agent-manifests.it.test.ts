import type { KubeObject } from '@noderings/kube';
import { type KubeSim, startKubeSim } from '@noderings/kube-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { renderNodeAgent } from './index.js';
import { apply, call, canI, served, tokenFor } from './kube-sim-client.test-support.js';

const OPTIONS = {
  image: 'registry.example/proxima/agent:0.8.0',
  backendUrl: 'https://api-console.example.com',
};

/** Server-side apply of everything kube-sim serves (it has no apps/v1, so no DaemonSet). */
async function applyAll(sim: KubeSim, objects: KubeObject[]): Promise<string[]> {
  const statuses: string[] = [];
  for (const object of objects.filter(served))
    statuses.push(`${object.kind ?? ''} ${(await apply(sim, object)).status}`);
  return statuses;
}

function canGet(sim: KubeSim, token: string, resource: string, subresource?: string): Promise<boolean> {
  return canI(sim, token, {
    verb: 'get',
    resource,
    ...(subresource === undefined ? {} : { subresource }),
    ...(resource === 'secrets' ? { namespace: 'proxima-system' } : { name: 'worker-1' }),
  });
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
    token = await tokenFor(sim, 'proxima-system', 'proxima-node-agent');
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
