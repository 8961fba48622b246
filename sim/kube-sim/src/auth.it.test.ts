import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, ok, text } from './api-test-client.js';
import { startKubeSim, type KubeSim } from './kube-sim.js';

let sim: KubeSim;
let token: string;

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

beforeAll(async () => {
  sim = await startKubeSim({ tokens: [{ token: 'static-alice', username: 'alice', groups: ['devs'] }] });
  await ok(sim, 'POST', '/api/v1/namespaces', { body: { metadata: { name: 'team' } } });
  await ok(sim, 'POST', '/api/v1/namespaces/team/serviceaccounts', { body: { metadata: { name: 'robot' } } });
  await ok(sim, 'POST', `${RBAC}/namespaces/team/roles`, {
    body: {
      metadata: { name: 'robot' },
      rules: [
        { apiGroups: [''], resources: ['configmaps'], verbs: ['get', 'list', 'watch', 'create'] },
        { apiGroups: [''], resources: ['secrets'], resourceNames: ['allowed'], verbs: ['get'] },
        {
          apiGroups: ['apiextensions.k8s.io', 'test.kube-sim.dev'],
          resources: ['widgets/status'],
          verbs: ['update'],
        },
      ],
    },
  });
  await ok(sim, 'POST', `${RBAC}/namespaces/team/rolebindings`, {
    body: {
      metadata: { name: 'robot' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'robot' },
      subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'team' }],
    },
  });
  const request = await call(sim, 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', {
    body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 3600 } },
  });
  expect(request.status).toBe(201);
  expect(request.json).toMatchObject({
    kind: 'TokenRequest',
    apiVersion: 'authentication.k8s.io/v1',
    status: {
      token: expect.any(String) as string,
      expirationTimestamp: expect.stringMatching(/Z$/) as string,
    },
  });
  token = text(request.json, 'status.token');
});

afterAll(async () => {
  await sim.close();
});

describe('authentication and RBAC', () => {
  it('answers 401 without a token or with a bad one', async () => {
    for (const t of [null, 'nope']) {
      const reply = await call(sim, 'GET', '/api/v1/namespaces', { token: t });
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'Unauthorized',
        reason: 'Unauthorized',
        code: 401,
      });
    }
  });

  it('allows a least-privilege service account in its namespace and denies it elsewhere with the exact 403', async () => {
    await ok(sim, 'GET', '/api/v1/namespaces/team/configmaps', { token });
    await ok(sim, 'POST', '/api/v1/namespaces/team/configmaps', {
      token,
      body: { metadata: { name: 'mine' } },
    });
    const elsewhere = await call(sim, 'GET', '/api/v1/namespaces/default/configmaps', { token });
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.json).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message:
        'configmaps is forbidden: User "system:serviceaccount:team:robot" cannot list resource "configmaps" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { group: '', kind: 'configmaps' },
      code: 403,
    });
    const named = await call(sim, 'DELETE', '/api/v1/namespaces/team/configmaps/mine', { token });
    expect(named.status).toBe(403);
    expect(named.json).toMatchObject({
      message:
        'configmaps "mine" is forbidden: User "system:serviceaccount:team:robot" cannot delete resource "configmaps" in API group "" in the namespace "team"',
      details: { name: 'mine', group: '', kind: 'configmaps' },
    });
  });

  it('limits rules with resourceNames to those names', async () => {
    await ok(sim, 'POST', '/api/v1/namespaces/team/secrets', { body: { metadata: { name: 'allowed' } } });
    await ok(sim, 'POST', '/api/v1/namespaces/team/secrets', { body: { metadata: { name: 'other' } } });
    await ok(sim, 'GET', '/api/v1/namespaces/team/secrets/allowed', { token });
    expect((await call(sim, 'GET', '/api/v1/namespaces/team/secrets/other', { token })).status).toBe(403);
    expect((await call(sim, 'GET', '/api/v1/namespaces/team/secrets', { token })).status).toBe(403);
  });

  it('authorizes subresources separately from their resource', async () => {
    const status = await call(sim, 'PUT', '/apis/test.kube-sim.dev/v1/namespaces/team/widgets/w/status', {
      token,
      body: {},
    });
    // Allowed by RBAC, then not found: the widgets resource is not served here.
    expect(status.status).toBe(404);
    const main = await call(sim, 'PUT', '/apis/test.kube-sim.dev/v1/namespaces/team/widgets/w', {
      token,
      body: {},
    });
    expect(main.status).toBe(403);
    const tokenRequest = await call(sim, 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', {
      token,
      body: {},
    });
    expect(tokenRequest.status).toBe(403);
    expect(text(tokenRequest.json, 'message')).toContain(
      'cannot create resource "serviceaccounts/token" in API group "" in the namespace "team"',
    );
  });

  it('accepts static tokens and answers self-reviews', async () => {
    const whoami = await ok(sim, 'POST', '/apis/authentication.k8s.io/v1/selfsubjectreviews', {
      token: 'static-alice',
      body: { apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' },
    });
    expect(whoami.status).toEqual({
      userInfo: { username: 'alice', groups: ['devs', 'system:authenticated'] },
    });
    const review = (resourceAttributes: Record<string, string>) =>
      ok(sim, 'POST', '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews', {
        token,
        body: {
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SelfSubjectAccessReview',
          spec: { resourceAttributes },
        },
      });
    expect((await review({ namespace: 'team', verb: 'list', resource: 'configmaps' })).status).toMatchObject({
      allowed: true,
    });
    expect(
      (await review({ namespace: 'default', verb: 'list', resource: 'configmaps' })).status,
    ).toMatchObject({ allowed: false });
  });

  it('stops accepting the token of a deleted service account', async () => {
    await ok(sim, 'POST', '/api/v1/namespaces/team/serviceaccounts', {
      body: { metadata: { name: 'temp' } },
    });
    await ok(sim, 'POST', `${RBAC}/namespaces/team/rolebindings`, {
      body: {
        metadata: { name: 'temp' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'robot' },
        subjects: [{ kind: 'ServiceAccount', name: 'temp', namespace: 'team' }],
      },
    });
    const issued = await ok(sim, 'POST', '/api/v1/namespaces/team/serviceaccounts/temp/token', { body: {} });
    const temp = text(issued, 'status.token');
    await ok(sim, 'GET', '/api/v1/namespaces/team/configmaps', { token: temp });
    await ok(sim, 'DELETE', '/api/v1/namespaces/team/serviceaccounts/temp');
    expect((await call(sim, 'GET', '/api/v1/namespaces/team/configmaps', { token: temp })).status).toBe(401);
    // A new account of the same name is another account: the old token stays dead.
    await ok(sim, 'POST', '/api/v1/namespaces/team/serviceaccounts', {
      body: { metadata: { name: 'temp' } },
    });
    expect((await call(sim, 'GET', '/api/v1/namespaces/team/configmaps', { token: temp })).status).toBe(401);
  });

  it('refuses token requests shorter than ten minutes', async () => {
    const reply = await call(sim, 'POST', '/api/v1/namespaces/team/serviceaccounts/robot/token', {
      body: { spec: { expirationSeconds: 60 } },
    });
    expect(reply.status).toBe(422);
    expect(text(reply.json, 'message')).toContain(
      'spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes',
    );
  });
});
