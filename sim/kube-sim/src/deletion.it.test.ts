import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, eventually, field, installCrd, ok, text, WatchClient, type Json } from './api-test-client.js';
import { startKubeSim, type KubeSim } from './kube-sim.js';

let sim: KubeSim;

beforeAll(async () => {
  sim = await startKubeSim();
});

afterAll(async () => {
  await sim.close();
});

const CM = '/api/v1/namespaces/default/configmaps';

async function gone(path: string): Promise<true> {
  return eventually(async () => ((await call(sim, 'GET', path)).status === 404 ? true : undefined));
}

function ownedBy(owner: Json): Json {
  return {
    apiVersion: text(owner, 'apiVersion'),
    kind: text(owner, 'kind'),
    name: text(owner, 'metadata.name'),
    uid: text(owner, 'metadata.uid'),
    blockOwnerDeletion: true,
  };
}

describe('deletion', () => {
  it('holds an object with finalizers until the last one is removed', async () => {
    const rv = text(await ok(sim, 'GET', CM), 'metadata.resourceVersion');
    const watch = await WatchClient.open(
      sim,
      `${CM}?watch=true&resourceVersion=${rv}&fieldSelector=metadata.name%3Dfin`,
    );
    try {
      await ok(sim, 'POST', CM, {
        body: { metadata: { name: 'fin', finalizers: ['test.io/a', 'test.io/b'] } },
      });
      const deleting = await call(sim, 'DELETE', `${CM}/fin`);
      expect(deleting.status).toBe(202);
      expect(field(deleting.json, 'metadata.deletionTimestamp')).toMatch(/Z$/);
      expect(field(deleting.json, 'metadata.deletionGracePeriodSeconds')).toBe(0);
      const still = await ok(sim, 'GET', `${CM}/fin`);
      expect(field(still, 'metadata.finalizers')).toEqual(['test.io/a', 'test.io/b']);
      const addition = await call(sim, 'PATCH', `${CM}/fin`, {
        body: { metadata: { finalizers: ['test.io/a', 'test.io/b', 'test.io/c'] } },
        contentType: 'application/merge-patch+json',
      });
      expect(addition.status).toBe(422);
      await ok(sim, 'PATCH', `${CM}/fin`, {
        body: { metadata: { finalizers: ['test.io/b'] } },
        contentType: 'application/merge-patch+json',
      });
      await ok(sim, 'GET', `${CM}/fin`);
      await ok(sim, 'PATCH', `${CM}/fin`, {
        body: [{ op: 'remove', path: '/metadata/finalizers' }],
        contentType: 'application/json-patch+json',
      });
      expect((await call(sim, 'GET', `${CM}/fin`)).status).toBe(404);
      await watch.until((w) => w.events.some((e) => e.type === 'DELETED'));
      expect(watch.events.map((e) => e.type)).toEqual([
        'ADDED',
        'MODIFIED',
        'MODIFIED',
        'MODIFIED',
        'DELETED',
      ]);
    } finally {
      watch.close();
    }
  });

  it('deletes dependents whose owners are gone (background), across namespaces for cluster-scoped owners', async () => {
    const owner = await ok(sim, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
      body: { metadata: { name: 'gc-owner' }, rules: [] },
    });
    await ok(sim, 'POST', CM, { body: { metadata: { name: 'gc-dep', ownerReferences: [ownedBy(owner)] } } });
    await ok(sim, 'POST', '/api/v1/namespaces/kube-public/configmaps', {
      body: { metadata: { name: 'gc-dep2', ownerReferences: [ownedBy(owner)] } },
    });
    const other = await ok(sim, 'POST', CM, { body: { metadata: { name: 'gc-other' } } });
    await ok(sim, 'POST', CM, {
      body: { metadata: { name: 'gc-shared', ownerReferences: [ownedBy(owner), ownedBy(other)] } },
    });
    await ok(sim, 'DELETE', '/apis/rbac.authorization.k8s.io/v1/clusterroles/gc-owner');
    await gone(`${CM}/gc-dep`);
    await gone('/api/v1/namespaces/kube-public/configmaps/gc-dep2');
    const shared = await eventually(async () => {
      const cm = await ok(sim, 'GET', `${CM}/gc-shared`);
      return (field(cm, 'metadata.ownerReferences') as unknown[]).length === 1 ? cm : undefined;
    });
    expect(field(shared, 'metadata.ownerReferences.0.name')).toBe('gc-other');
  });

  it('deletes dependents first with Foreground propagation', async () => {
    const owner = await ok(sim, 'POST', CM, { body: { metadata: { name: 'fg-owner' } } });
    await ok(sim, 'POST', CM, {
      body: { metadata: { name: 'fg-dep', ownerReferences: [ownedBy(owner)], finalizers: ['test.io/hold'] } },
    });
    const deleting = await call(sim, 'DELETE', `${CM}/fg-owner`, {
      body: { propagationPolicy: 'Foreground' },
    });
    expect(deleting.status).toBe(202);
    expect(field(deleting.json, 'metadata.finalizers')).toEqual(['foregroundDeletion']);
    const dep = await eventually(async () => {
      const d = await ok(sim, 'GET', `${CM}/fg-dep`);
      return field(d, 'metadata.deletionTimestamp') ? d : undefined;
    });
    // The owner waits for its dependent.
    expect(field(await ok(sim, 'GET', `${CM}/fg-owner`), 'metadata.deletionTimestamp')).toBeTruthy();
    await ok(sim, 'PATCH', `${CM}/fg-dep`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    expect(field(dep, 'metadata.name')).toBe('fg-dep');
    await gone(`${CM}/fg-owner`);
  });

  it('releases dependents with Orphan propagation', async () => {
    const owner = await ok(sim, 'POST', CM, { body: { metadata: { name: 'or-owner' } } });
    await ok(sim, 'POST', CM, { body: { metadata: { name: 'or-dep', ownerReferences: [ownedBy(owner)] } } });
    await ok(sim, 'DELETE', `${CM}/or-owner?propagationPolicy=Orphan`);
    await gone(`${CM}/or-owner`);
    const dep = await ok(sim, 'GET', `${CM}/or-dep`);
    expect(field(dep, 'metadata.ownerReferences')).toBeUndefined();
  });

  it('deletes a namespace with its content and refuses new content meanwhile', async () => {
    await ok(sim, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'doomed' } } });
    await ok(sim, 'POST', '/api/v1/namespaces/doomed/configmaps', {
      body: { metadata: { name: 'held', finalizers: ['test.io/x'] } },
    });
    const deleting = await ok(sim, 'DELETE', '/api/v1/namespaces/doomed');
    expect(field(deleting, 'status.phase')).toBe('Terminating');
    const refused = await call(sim, 'POST', '/api/v1/namespaces/doomed/configmaps', {
      body: { metadata: { name: 'new' } },
    });
    expect(refused.status).toBe(403);
    expect(text(refused.json, 'message')).toContain(
      'unable to create new content in namespace doomed because it is being terminated',
    );
    await ok(sim, 'PATCH', '/api/v1/namespaces/doomed/configmaps/held', {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    await gone('/api/v1/namespaces/doomed');
    const protectedNs = await call(sim, 'DELETE', '/api/v1/namespaces/default');
    expect(protectedNs.status).toBe(403);
  });

  it("removes a CRD's objects, then the CRD, and stops serving its resource", async () => {
    const crd = {
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'gadgets.test.kube-sim.dev' },
      spec: {
        group: 'test.kube-sim.dev',
        scope: 'Cluster',
        names: { kind: 'Gadget', plural: 'gadgets' },
        versions: [
          {
            name: 'v1',
            served: true,
            storage: true,
            schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } },
          },
        ],
      },
    };
    await installCrd(sim, crd);
    await ok(sim, 'POST', '/apis/test.kube-sim.dev/v1/gadgets', { body: { metadata: { name: 'g1' } } });
    await ok(sim, 'POST', '/apis/test.kube-sim.dev/v1/gadgets', {
      body: { metadata: { name: 'g2', finalizers: ['test.io/x'] } },
    });
    await ok(
      sim,
      'DELETE',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.kube-sim.dev',
    );
    await gone('/apis/test.kube-sim.dev/v1/gadgets/g1');
    const create = await call(sim, 'POST', '/apis/test.kube-sim.dev/v1/gadgets', {
      body: { metadata: { name: 'g3' } },
    });
    expect(create.status).toBe(405);
    await ok(sim, 'GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.kube-sim.dev');
    await ok(sim, 'PATCH', '/apis/test.kube-sim.dev/v1/gadgets/g2', {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    await gone('/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gadgets.test.kube-sim.dev');
    expect((await call(sim, 'GET', '/apis/test.kube-sim.dev/v1/gadgets')).status).toBe(404);
  });
});
