import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, field, installCrd, ok, widgetCrd } from './api-test-client.js';
import { startKubeSim, type KubeSim } from './kube-sim.js';

let sim: KubeSim;

beforeAll(async () => {
  sim = await startKubeSim();
  await installCrd(sim, widgetCrd());
});

afterAll(async () => {
  await sim.close();
});

const WIDGETS = '/apis/test.kube-sim.dev/v1/namespaces/default/widgets';
const TABLE =
  'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json';

describe('custom resources', () => {
  it('reports the CRD Established with its accepted names and serves it in discovery', async () => {
    const crd = await ok(
      sim,
      'GET',
      '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/widgets.test.kube-sim.dev',
    );
    expect(field(crd, 'status.acceptedNames')).toMatchObject({
      kind: 'Widget',
      plural: 'widgets',
      listKind: 'WidgetList',
      shortNames: ['wix'],
    });
    expect(field(crd, 'status.conditions')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'NamesAccepted', status: 'True', reason: 'NoConflicts' }),
        expect.objectContaining({ type: 'Established', status: 'True' }),
      ]),
    );
    const groups = await ok(sim, 'GET', '/apis');
    expect(groups.groups).toContainEqual({
      name: 'test.kube-sim.dev',
      versions: [{ groupVersion: 'test.kube-sim.dev/v1', version: 'v1' }],
      preferredVersion: { groupVersion: 'test.kube-sim.dev/v1', version: 'v1' },
    });
    const resources = await ok(sim, 'GET', '/apis/test.kube-sim.dev/v1');
    expect(resources.resources).toEqual([
      expect.objectContaining({
        name: 'widgets',
        kind: 'Widget',
        namespaced: true,
        shortNames: ['wix'],
        categories: ['all'],
        verbs: expect.arrayContaining(['watch', 'patch']) as string[],
      }),
      expect.objectContaining({ name: 'widgets/status', verbs: ['get', 'patch', 'update'] }),
    ]);
    const core = await ok(sim, 'GET', '/api/v1');
    expect(core.resources).toContainEqual(
      expect.objectContaining({
        name: 'serviceaccounts/token',
        kind: 'TokenRequest',
        group: 'authentication.k8s.io',
        verbs: ['create'],
      }),
    );
  });

  it('applies defaults, prunes unknown fields and refuses invalid objects with field causes', async () => {
    const created = await ok(sim, 'POST', WIDGETS, {
      body: { metadata: { name: 'w-def' }, spec: { size: 2, bogus: true }, extra: 1 },
    });
    expect(created.spec).toEqual({ size: 2, color: 'blue' });
    expect(created.extra).toBeUndefined();
    const invalid = await call(sim, 'POST', WIDGETS, {
      body: { metadata: { name: 'w-bad' }, spec: { size: 0 } },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.json).toMatchObject({
      reason: 'Invalid',
      details: {
        name: 'w-bad',
        group: 'test.kube-sim.dev',
        kind: 'Widget',
        causes: [expect.objectContaining({ field: 'spec.size' })],
      },
    });
    expect(field(invalid.json, 'message')).toMatch(
      /^Widget\.test\.kube-sim\.dev "w-bad" is invalid: spec\.size: /,
    );
    const missing = await call(sim, 'POST', WIDGETS, { body: { metadata: { name: 'w-missing' }, spec: {} } });
    expect(field(missing.json, 'message')).toBe(
      'Widget.test.kube-sim.dev "w-missing" is invalid: spec.size: Required value',
    );
    const strict = await call(sim, 'POST', `${WIDGETS}?fieldValidation=Strict`, {
      body: { metadata: { name: 'w-strict' }, spec: { size: 1, bogus: 1 } },
    });
    expect(strict.status).toBe(400);
    expect(field(strict.json, 'message')).toContain('unknown field "spec.bogus"');
    const warned = await call(sim, 'POST', `${WIDGETS}?fieldValidation=Warn`, {
      body: { metadata: { name: 'w-warn' }, spec: { size: 1, bogus: 1 } },
    });
    expect(warned.headers.warning).toContain('unknown field \\"spec.bogus\\"');
    for (const name of ['w-bad', 'w-missing', 'w-strict'])
      expect((await call(sim, 'GET', `${WIDGETS}/${name}`)).status).toBe(404);
  });

  it('bumps generation on spec changes only, and keeps status writes to /status', async () => {
    const created = await ok(sim, 'POST', WIDGETS, {
      body: { metadata: { name: 'w-gen' }, spec: { size: 1 }, status: { phase: 'Ignored' } },
    });
    expect(field(created, 'metadata.generation')).toBe(1);
    expect(created.status).toBeUndefined();
    const status = await ok(sim, 'PUT', `${WIDGETS}/w-gen/status`, {
      body: { ...created, spec: { size: 9 }, status: { phase: 'Ready' } },
    });
    expect(status).toMatchObject({
      spec: { size: 1 },
      status: { phase: 'Ready' },
      metadata: { generation: 1 },
    });
    const labelled = await ok(sim, 'PATCH', `${WIDGETS}/w-gen`, {
      body: { metadata: { labels: { a: 'b' } } },
      contentType: 'application/merge-patch+json',
    });
    expect(field(labelled, 'metadata.generation')).toBe(1);
    const ignored = await ok(sim, 'PATCH', `${WIDGETS}/w-gen`, {
      body: { status: { phase: 'Hacked' } },
      contentType: 'application/merge-patch+json',
    });
    expect(ignored).toMatchObject({ status: { phase: 'Ready' }, metadata: { generation: 1 } });
    const changed = await ok(sim, 'PATCH', `${WIDGETS}/w-gen`, {
      body: { spec: { size: 3 } },
      contentType: 'application/merge-patch+json',
    });
    expect(field(changed, 'metadata.generation')).toBe(2);
    const patchedStatus = await ok(sim, 'PATCH', `${WIDGETS}/w-gen/status`, {
      body: { status: { phase: 'Done' } },
      contentType: 'application/merge-patch+json',
    });
    expect(patchedStatus).toMatchObject({ status: { phase: 'Done' }, metadata: { generation: 2 } });
    expect(await ok(sim, 'GET', `${WIDGETS}/w-gen/status`)).toMatchObject({ status: { phase: 'Done' } });
    const noVersion = await call(sim, 'PUT', `${WIDGETS}/w-gen`, {
      body: { metadata: { name: 'w-gen' }, spec: { size: 4 } },
    });
    expect(noVersion.status).toBe(422);
  });

  it('answers Table requests with the printer columns', async () => {
    const w = await ok(sim, 'POST', WIDGETS, { body: { metadata: { name: 'w-table' }, spec: { size: 7 } } });
    await ok(sim, 'PUT', `${WIDGETS}/w-table/status`, { body: { ...w, status: { phase: 'Up' } } });
    const table = await ok(sim, 'GET', `${WIDGETS}?fieldSelector=metadata.name%3Dw-table`, {
      headers: { Accept: TABLE },
    });
    expect(table).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect((table.columnDefinitions as unknown[]).map((c) => field(c, 'name'))).toEqual([
      'Name',
      'Size',
      'Phase',
      'Age',
    ]);
    expect(table.rows).toEqual([
      {
        cells: ['w-table', 7, 'Up', expect.stringMatching(/^\d+s$/) as string],
        object: {
          kind: 'PartialObjectMetadata',
          apiVersion: 'meta.k8s.io/v1',
          metadata: expect.objectContaining({ name: 'w-table' }) as object,
        },
      },
    ]);
  });

  it('refuses a CRD whose schema is not structural, and one named wrongly', async () => {
    const crd = widgetCrd('Cluster', 'blobs', 'Blob');
    const version = (field(crd, 'spec.versions') as Record<string, unknown>[])[0] ?? {};
    version.schema = {
      openAPIV3Schema: { type: 'object', properties: { spec: { properties: { a: { type: 'string' } } } } },
    };
    const refused = await call(sim, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: crd,
    });
    expect(refused.status).toBe(422);
    expect(refused.json).toMatchObject({
      reason: 'Invalid',
      details: { kind: 'CustomResourceDefinition', group: 'apiextensions.k8s.io' },
    });
    const misnamed = await call(sim, 'POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', {
      body: { ...widgetCrd('Cluster', 'blobs', 'Blob'), metadata: { name: 'wrong.test.kube-sim.dev' } },
    });
    expect(misnamed.status).toBe(422);
    expect(
      (
        await call(
          sim,
          'GET',
          '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/blobs.test.kube-sim.dev',
        )
      ).status,
    ).toBe(404);
  });

  it('serves a cluster-scoped custom resource', async () => {
    await installCrd(sim, widgetCrd('Cluster', 'globes', 'Globe'));
    const created = await ok(sim, 'POST', '/apis/test.kube-sim.dev/v1/globes', {
      body: { metadata: { name: 'g', namespace: 'ignored' }, spec: { size: 1 } },
    });
    expect(field(created, 'metadata.namespace')).toBeUndefined();
    expect((await call(sim, 'GET', '/apis/test.kube-sim.dev/v1/namespaces/default/globes/g')).status).toBe(
      404,
    );
  });
});
