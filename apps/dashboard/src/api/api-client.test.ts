import { describe, expect, it, vi } from 'vitest';

import { apiPath, createApiClient, withQuery } from './api-client.js';
import { ApiError } from './api-error.js';

describe('apiPath', () => {
  it('percent-encodes interpolated values so an id cannot add a path segment', () => {
    expect(apiPath`/v1/virtual-machines/${'../v1/x?y'}:start`).toBe(
      '/v1/virtual-machines/..%2Fv1%2Fx%3Fy:start',
    );
  });
});

describe('withQuery', () => {
  it('leaves out empty and undefined values', () => {
    expect(withQuery('/v1/x', { a: 1, b: '', c: undefined, d: true })).toBe('/v1/x?a=1&d=true');
    expect(withQuery('/v1/x', { b: '' })).toBe('/v1/x');
  });
});

function respond(status: number, body: unknown) {
  return vi.fn<typeof fetch>(() =>
    Promise.resolve(new Response(body === undefined ? null : JSON.stringify(body), { status })),
  );
}

describe('createApiClient', () => {
  it('sends the bearer token and the organisation, and JSON bodies ({} for an action)', async () => {
    const fetch = respond(200, { ok: true });
    const api = createApiClient({
      credentials: () => ({ token: 'nrs_t', organizationId: 'org-1' }),
      onUnauthenticated: () => undefined,
      fetch,
    });
    await api.post('/v1/virtual-machines/a:start');
    const [path, init] = fetch.mock.calls[0] ?? [];
    expect(path).toBe('/v1/virtual-machines/a:start');
    expect(init?.headers).toMatchObject({
      authorization: 'Bearer nrs_t',
      'x-organization-id': 'org-1',
      'content-type': 'application/json',
    });
    expect(init?.body).toBe('{}');
  });

  it('turns a refusal into an ApiError and ends the session on 401', async () => {
    const onUnauthenticated = vi.fn();
    const api = createApiClient({
      credentials: () => ({ token: 't', organizationId: '' }),
      onUnauthenticated,
      fetch: respond(401, { code: 'UNAUTHENTICATED', message: 'The bearer token is invalid.', details: [] }),
    });
    await expect(api.get('/v1/ssh-keys')).rejects.toMatchObject({
      status: 401,
      message: 'The bearer token is invalid.',
    });
    expect(onUnauthenticated).toHaveBeenCalledOnce();
  });

  it('does not end a session that was never there (a failed sign-in is just an error)', async () => {
    const onUnauthenticated = vi.fn();
    const api = createApiClient({
      credentials: () => undefined,
      onUnauthenticated,
      fetch: respond(401, {
        code: 'UNAUTHENTICATED',
        message: 'The email or password is incorrect.',
        details: [],
      }),
    });
    await expect(api.post('/v1/auth/login', {})).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthenticated).not.toHaveBeenCalled();
  });

  it('reports an unreachable server in words', async () => {
    const api = createApiClient({
      credentials: () => undefined,
      onUnauthenticated: () => undefined,
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(api.get('/v1/x')).rejects.toMatchObject({ code: 'UNAVAILABLE', status: 0 });
  });
});
