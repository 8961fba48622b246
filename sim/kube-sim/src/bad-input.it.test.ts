import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, installCrd, ok, widgetCrd, type ApiReply } from './api-test-client.js';
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

function expectStatus(reply: ApiReply, code: number, reason: string): void {
  expect(reply.status).toBe(code);
  expect(reply.json).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code, reason });
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('bad input', () => {
  it('refuses malformed bodies with 400 and stores nothing', async () => {
    expectStatus(
      await call(sim, 'POST', CM, { rawBody: '{"metadata": {"name": "x"', contentType: 'application/json' }),
      400,
      'BadRequest',
    );
    expectStatus(await call(sim, 'POST', CM, { rawBody: '[1, 2]' }), 400, 'BadRequest');
    expectStatus(
      await call(sim, 'POST', CM, { rawBody: 'a: [b', contentType: 'application/yaml' }),
      400,
      'BadRequest',
    );
    expectStatus(
      await call(sim, 'POST', CM, { body: { metadata: { name: 'x' }, data: { a: 1 } } }),
      400,
      'BadRequest',
    );
    expectStatus(
      await call(sim, 'PATCH', `${CM}/x`, {
        rawBody: 'not json',
        contentType: 'application/merge-patch+json',
      }),
      404,
      'NotFound',
    );
    await ok(sim, 'POST', CM, { body: { metadata: { name: 'exists' } } });
    expectStatus(
      await call(sim, 'PATCH', `${CM}/exists`, {
        rawBody: 'not json',
        contentType: 'application/merge-patch+json',
      }),
      400,
      'BadRequest',
    );
    expectStatus(
      await call(sim, 'PATCH', `${CM}/exists`, { rawBody: '{}', contentType: 'text/plain' }),
      415,
      'UnsupportedMediaType',
    );
    expectStatus(
      await call(sim, 'PATCH', `${CM}/exists`, {
        body: [{ op: 'test', path: '/data/a', value: 'z' }],
        contentType: 'application/json-patch+json',
      }),
      422,
      'Invalid',
    );
    expect((await call(sim, 'GET', `${CM}/x`)).status).toBe(404);
  });

  it('refuses a body whose namespace or name differs from the URL', async () => {
    const ns = await call(sim, 'POST', CM, { body: { metadata: { name: 'y', namespace: 'kube-system' } } });
    expectStatus(ns, 400, 'BadRequest');
    expect(ns.json?.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
    await ok(sim, 'POST', CM, { body: { metadata: { name: 'named' } } });
    const renamed = await call(sim, 'PUT', `${CM}/named`, { body: { metadata: { name: 'other' } } });
    expectStatus(renamed, 400, 'BadRequest');
    expect(renamed.json?.message).toBe(
      'the name of the object (other) does not match the name on the URL (named)',
    );
    expect((await call(sim, 'GET', '/api/v1/namespaces/kube-system/configmaps/y')).status).toBe(404);
  });

  it('refuses invalid names with 422 and field causes', async () => {
    const reply = await call(sim, 'POST', CM, { body: { metadata: { name: 'Bad_Name' } } });
    expectStatus(reply, 422, 'Invalid');
    expect(reply.json).toMatchObject({
      message: expect.stringMatching(
        /^ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
      ) as string,
      details: {
        name: 'Bad_Name',
        kind: 'ConfigMap',
        causes: [
          { reason: 'FieldValueInvalid', field: 'metadata.name', message: expect.any(String) as string },
        ],
      },
    });
    expectStatus(await call(sim, 'POST', CM, { body: { metadata: {} } }), 422, 'Invalid');
    expectStatus(
      await call(sim, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'a.b' } } }),
      422,
      'Invalid',
    );
    expectStatus(
      await call(sim, 'POST', CM, { body: { metadata: { name: 'ok', labels: { 'bad key!': 'v' } } } }),
      422,
      'Invalid',
    );
    expectStatus(
      await call(sim, 'POST', '/api/v1/namespaces/missing/configmaps', {
        body: { metadata: { name: 'ok' } },
      }),
      404,
      'NotFound',
    );
  });

  it('answers unknown paths, verbs and resources with Status objects', async () => {
    expectStatus(await call(sim, 'GET', '/api/v1/namespaces/default/pods'), 404, 'NotFound');
    expectStatus(await call(sim, 'GET', '/apis/nope.io/v1'), 404, 'NotFound');
    expectStatus(await call(sim, 'GET', '/nothing'), 404, 'NotFound');
    expectStatus(await call(sim, 'DELETE', '/api/v1/namespaces'), 405, 'MethodNotAllowed');
    expectStatus(await call(sim, 'POST', '/version'), 405, 'MethodNotAllowed');
  });

  it('answers a few hundred random requests with Status-shaped errors and keeps serving', async () => {
    const next = random(42);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
    const paths = [
      CM,
      `${CM}/fuzz`,
      WIDGETS,
      `${WIDGETS}/fuzz`,
      `${WIDGETS}/fuzz/status`,
      '/api/v1/namespaces/default/secrets/fuzz',
      '/api/v1/namespaces/%zz/configmaps',
      '/apis/test.kube-sim.dev/v1/namespaces/default/widgets/fuzz/bogus',
      '/api/v1/namespaces/default/serviceaccounts/default/token',
      '/api/v1/namespaces',
      '/apis///',
      `${CM}?labelSelector=%3D%3D%3D`,
      `${CM}?watch=true&resourceVersion=abc`,
      `${CM}?limit=-1`,
      `${CM}?continue=garbage`,
    ];
    const contentTypes = [
      'application/json',
      'application/merge-patch+json',
      'application/json-patch+json',
      'application/strategic-merge-patch+json',
      'application/apply-patch+yaml',
      'application/yaml',
      'application/vnd.kubernetes.protobuf',
      'text/plain',
    ];
    const bodies = [
      '',
      '{',
      'null',
      '[]',
      '"string"',
      '42',
      '{"metadata": "x"}',
      '{"metadata": {"name": 5}}',
      '{"apiVersion": "v9", "metadata": {"name": "fuzz"}}',
      '{"kind": "Pod", "metadata": {"name": "fuzz"}}',
      '{"metadata": {"name": "fuzz"}, "spec": {"size": "big"}}',
      '{"metadata": {"name": "fuzz", "labels": {"a": 1}}}',
      '[{"op": "move", "from": "/nope", "path": "/x"}]',
      'k8s\u0000\u00ff\u00ff',
      '\u0000\u0001\u0002',
      'a: b: c',
      JSON.stringify({ metadata: { name: 'fuzz', finalizers: [42] } }),
      JSON.stringify({ metadata: { name: 'fuzz', ownerReferences: [{}] } }),
    ];
    for (let i = 0; i < 300; i++) {
      const method = pick(methods);
      const body = method === 'GET' ? undefined : pick(bodies);
      const reply = await call(sim, method, pick(paths), {
        ...(body !== undefined ? { rawBody: body, contentType: pick(contentTypes) } : {}),
      });
      if (reply.status >= 400) {
        expect(reply.json, `${method} → ${reply.status} ${reply.text}`).toMatchObject({
          kind: 'Status',
          status: 'Failure',
          code: reply.status,
        });
        expect(reply.status).toBeLessThan(500);
      }
    }
    await ok(sim, 'GET', '/api/v1/namespaces');
  });
});
