import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, field, installCrd, ok, text, widgetCrd } from './api-test-client.js';
import { startKubeSim, type KubeSim } from './kube-sim.js';

let sim: KubeSim;

beforeAll(async () => {
  sim = await startKubeSim();
  await installCrd(sim, widgetCrd());
});

afterAll(async () => {
  await sim.close();
});

const CM = '/api/v1/namespaces/default/configmaps';
const WIDGETS = '/apis/test.kube-sim.dev/v1/namespaces/default/widgets';

describe('built-in resources', () => {
  it('starts with the usual namespaces, each with a default service account', async () => {
    const list = await ok(sim, 'GET', '/api/v1/namespaces');
    const names = (list.items as unknown[]).map((n) => text(n, 'metadata.name'));
    expect(names).toEqual(expect.arrayContaining(['default', 'kube-system', 'kube-public']));
    await ok(sim, 'GET', '/api/v1/namespaces/kube-system/serviceaccounts/default');
  });

  it.each([
    [
      '/api/v1/namespaces/default/configmaps',
      { kind: 'ConfigMap', apiVersion: 'v1', data: { a: 'b' } },
      { data: { a: 'c' } },
    ],
    [
      '/api/v1/namespaces/default/serviceaccounts',
      { kind: 'ServiceAccount', apiVersion: 'v1' },
      { automountServiceAccountToken: false },
    ],
    [
      '/api/v1/namespaces/default/events',
      {
        kind: 'Event',
        apiVersion: 'v1',
        involvedObject: { kind: 'ConfigMap', name: 'x' },
        reason: 'Tested',
        message: 'm',
      },
      { message: 'n' },
    ],
    [
      '/apis/coordination.k8s.io/v1/namespaces/default/leases',
      { kind: 'Lease', apiVersion: 'coordination.k8s.io/v1', spec: { holderIdentity: 'a' } },
      { spec: { holderIdentity: 'b' } },
    ],
    [
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles',
      {
        kind: 'Role',
        apiVersion: 'rbac.authorization.k8s.io/v1',
        rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }],
      },
      { rules: [{ apiGroups: [''], resources: ['secrets'], verbs: ['get'] }] },
    ],
    [
      '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings',
      {
        kind: 'RoleBinding',
        apiVersion: 'rbac.authorization.k8s.io/v1',
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'User', name: 'alice' }],
      },
      { subjects: [{ kind: 'User', name: 'bob' }] },
    ],
    [
      '/apis/rbac.authorization.k8s.io/v1/clusterroles',
      {
        kind: 'ClusterRole',
        apiVersion: 'rbac.authorization.k8s.io/v1',
        rules: [{ nonResourceURLs: ['/x'], verbs: ['get'] }],
      },
      { rules: [{ nonResourceURLs: ['/y'], verbs: ['get'] }] },
    ],
    [
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      {
        kind: 'ClusterRoleBinding',
        apiVersion: 'rbac.authorization.k8s.io/v1',
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
        subjects: [{ kind: 'Group', name: 'g' }],
      },
      { subjects: [{ kind: 'Group', name: 'h' }] },
    ],
    [
      WIDGETS,
      { kind: 'Widget', apiVersion: 'test.kube-sim.dev/v1', spec: { size: 1 } },
      { spec: { size: 2 } },
    ],
  ])('create, get, list, update, patch and delete %s', async (path, body, change) => {
    const name = `crud-${path.split('/').at(-1) ?? ''}`;
    const created = await ok(sim, 'POST', path, { body: { ...body, metadata: { name } } });
    expect(field(created, 'metadata.uid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(field(created, 'metadata.creationTimestamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(field(created, 'metadata.resourceVersion')).toMatch(/^\d+$/);
    const got = await ok(sim, 'GET', `${path}/${name}`);
    expect(got).toEqual(created);
    const list = await ok(sim, 'GET', path);
    expect((list.items as unknown[]).map((i) => text(i, 'metadata.name'))).toContain(name);
    expect(field(list, 'metadata.resourceVersion')).toMatch(/^\d+$/);
    const updated = await ok(sim, 'PUT', `${path}/${name}`, { body: { ...got, ...change } });
    expect(Number(field(updated, 'metadata.resourceVersion'))).toBeGreaterThan(
      Number(field(got, 'metadata.resourceVersion')),
    );
    const patched = await ok(sim, 'PATCH', `${path}/${name}`, {
      body: { metadata: { labels: { patched: 'yes' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(field(patched, 'metadata.labels.patched')).toBe('yes');
    await ok(sim, 'DELETE', `${path}/${name}`);
    expect((await call(sim, 'GET', `${path}/${name}`)).status).toBe(404);
  });

  it("merges a secret's stringData into base64 data and refuses data that is not base64", async () => {
    const secret = await ok(sim, 'POST', '/api/v1/namespaces/default/secrets', {
      body: {
        metadata: { name: 's1' },
        data: { a: Buffer.from('x').toString('base64') },
        stringData: { b: 'hello' },
      },
    });
    expect(secret).toMatchObject({ type: 'Opaque', data: { a: 'eA==', b: 'aGVsbG8=' } });
    expect(secret.stringData).toBeUndefined();
    const bad = await call(sim, 'POST', '/api/v1/namespaces/default/secrets', {
      body: { metadata: { name: 's2' }, data: { a: 'not base64!' } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ kind: 'Status', reason: 'BadRequest' });
    expect(text(bad.json, 'message')).toContain('illegal base64 data at input byte 3');
    expect((await call(sim, 'GET', '/api/v1/namespaces/default/secrets/s2')).status).toBe(404);
  });

  it('names objects from generateName', async () => {
    const created = await ok(sim, 'POST', CM, { body: { metadata: { generateName: 'gen-' } } });
    expect(text(created, 'metadata.name')).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(field(created, 'metadata.generateName')).toBe('gen-');
  });

  it('honours dryRun=All without storing anything', async () => {
    const created = await ok(sim, 'POST', `${CM}?dryRun=All`, {
      body: { metadata: { name: 'dry' }, data: { a: 'b' } },
    });
    expect(created).toMatchObject({ metadata: { name: 'dry' }, data: { a: 'b' } });
    expect((await call(sim, 'GET', `${CM}/dry`)).status).toBe(404);
    await ok(sim, 'POST', CM, { body: { metadata: { name: 'dry' } } });
    await ok(sim, 'DELETE', `${CM}/dry?dryRun=All`);
    await ok(sim, 'GET', `${CM}/dry`);
  });

  it("answers 404 and 409 with kube's Status texts", async () => {
    const missing = await call(sim, 'GET', `${WIDGETS}/nr-1`);
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'widgets.test.kube-sim.dev "nr-1" not found',
      reason: 'NotFound',
      details: { name: 'nr-1', group: 'test.kube-sim.dev', kind: 'widgets' },
      code: 404,
    });
    await ok(sim, 'POST', '/api/v1/namespaces/default/secrets', { body: { metadata: { name: 'x' } } });
    const dup = await call(sim, 'POST', '/api/v1/namespaces/default/secrets', {
      body: { metadata: { name: 'x' } },
    });
    expect(dup.status).toBe(409);
    expect(dup.json).toMatchObject({
      reason: 'AlreadyExists',
      message: 'secrets "x" already exists',
      details: { name: 'x', kind: 'secrets' },
    });
  });

  it('refuses an update with a stale resourceVersion, then accepts the fresh one', async () => {
    const cm = await ok(sim, 'POST', CM, { body: { metadata: { name: 'occ' }, data: { n: '1' } } });
    await ok(sim, 'PUT', `${CM}/occ`, { body: { ...cm, data: { n: '2' } } });
    const stale = await call(sim, 'PUT', `${CM}/occ`, { body: { ...cm, data: { n: '3' } } });
    expect(stale.status).toBe(409);
    expect(stale.json).toMatchObject({
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on configmaps "occ": the object has been modified; please apply your changes to the latest version and try again',
    });
    const fresh = await ok(sim, 'GET', `${CM}/occ`);
    const retried = await ok(sim, 'PUT', `${CM}/occ`, { body: { ...fresh, data: { n: '3' } } });
    expect(retried.data).toEqual({ n: '3' });
  });

  it('lists with label and field selectors and pages with limit and continue', async () => {
    for (const [name, labels] of [
      ['sel-a', { app: 'web', tier: 'front' }],
      ['sel-b', { app: 'web', tier: 'back' }],
      ['sel-c', { app: 'db' }],
      ['sel-d', {}],
    ] as const) {
      await ok(sim, 'POST', CM, { body: { metadata: { name, labels } } });
    }
    const names = async (query: string): Promise<string[]> => {
      const list = await ok(sim, 'GET', `${CM}?${query}`);
      return (list.items as unknown[])
        .map((i) => text(i, 'metadata.name'))
        .filter((n) => n.startsWith('sel-'));
    };
    expect(await names('labelSelector=app%3Dweb')).toEqual(['sel-a', 'sel-b']);
    expect(await names('labelSelector=app%3D%3Dweb,tier!%3Dback')).toEqual(['sel-a']);
    expect(await names(`labelSelector=${encodeURIComponent('app in (db,web),tier notin (front)')}`)).toEqual([
      'sel-b',
      'sel-c',
    ]);
    expect(await names('labelSelector=tier')).toEqual(['sel-a', 'sel-b']);
    expect(await names('labelSelector=!app')).toEqual(['sel-d']);
    expect(await names('fieldSelector=metadata.name%3Dsel-c')).toEqual(['sel-c']);
    expect(await names('fieldSelector=metadata.namespace%3Dkube-system')).toEqual([]);
    const seen: string[] = [];
    let token = '';
    do {
      const page = await ok(
        sim,
        'GET',
        `${CM}?labelSelector=app&limit=1${token ? `&continue=${token}` : ''}`,
      );
      seen.push(...(page.items as unknown[]).map((i) => text(i, 'metadata.name')));
      token = text(page, 'metadata.continue');
    } while (token);
    expect(seen).toEqual(['sel-a', 'sel-b', 'sel-c']);
    const bad = await call(sim, 'GET', `${CM}?labelSelector=${encodeURIComponent('a in b')}`);
    expect(bad.status).toBe(400);
  });

  it('patches with JSON patch and strategic merge patch on built-in kinds, and refuses strategic merge on custom resources', async () => {
    await ok(sim, 'POST', CM, {
      body: { metadata: { name: 'p1', finalizers: ['a.io/x'] }, data: { k: 'v' } },
    });
    const json = await ok(sim, 'PATCH', `${CM}/p1`, {
      body: [{ op: 'replace', path: '/data/k', value: 'w' }],
      contentType: 'application/json-patch+json',
    });
    expect(json.data).toEqual({ k: 'w' });
    const strategic = await ok(sim, 'PATCH', `${CM}/p1`, {
      body: { metadata: { finalizers: ['b.io/y'] } },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(field(strategic, 'metadata.finalizers')).toEqual(['a.io/x', 'b.io/y']);
    await ok(sim, 'PATCH', `${CM}/p1`, {
      body: { metadata: { finalizers: null } },
      contentType: 'application/merge-patch+json',
    });
    await ok(sim, 'POST', WIDGETS, { body: { metadata: { name: 'sm' }, spec: { size: 1 } } });
    const refused = await call(sim, 'PATCH', `${WIDGETS}/sm`, {
      body: { spec: { size: 2 } },
      contentType: 'application/strategic-merge-patch+json',
    });
    expect(refused.status).toBe(415);
    expect(refused.json).toMatchObject({ reason: 'UnsupportedMediaType' });
  });

  it('creates and updates with server-side apply, tracking managed fields and conflicts between managers', async () => {
    const apply = (body: unknown, query: string) =>
      call(sim, 'PATCH', `${CM}/ssa?${query}`, {
        rawBody: JSON.stringify(body),
        contentType: 'application/apply-patch+yaml',
      });
    const first = await apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { a: '1', b: '2' } },
      'fieldManager=one',
    );
    expect(first.status).toBe(201);
    expect(field(first.json, 'metadata.managedFields')).toEqual([
      expect.objectContaining({
        manager: 'one',
        operation: 'Apply',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:a': {}, 'f:b': {} } },
      }),
    ]);
    const clash = await apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { a: 'other' } },
      'fieldManager=two',
    );
    expect(clash.status).toBe(409);
    expect(clash.json).toMatchObject({
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "one" using v1: .data.a',
    });
    const forced = await apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' }, data: { a: 'other' } },
      'fieldManager=two&force=true',
    );
    expect(forced.status).toBe(200);
    expect(field(forced.json, 'data')).toEqual({ a: 'other', b: '2' });
    const dropped = await apply(
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa', labels: { x: 'y' } } },
      'fieldManager=one',
    );
    expect(field(dropped.json, 'data')).toEqual({ a: 'other' });
    const noManager = await apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'ssa' } }, '');
    expect(noManager.status).toBe(422);
  });
});
