import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

interface DeviceStart {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete: string;
  expires_in: number;
  interval: number;
}

interface TokenAnswer {
  access_token?: string;
  token_type?: string;
  expires_in?: number;
  refresh_token?: string;
  error?: string;
  error_description?: string;
}

describe.each(DATABASE_KINDS)('device sign-in (RFC 8628) on the %s database', (kind) => {
  let t: TestControlPlane;
  /** The control plane's clock: tests move it instead of waiting out poll intervals and expiries. */
  let clock = Date.now();

  beforeAll(async () => {
    t = await startTestControlPlane(kind, { now: () => new Date(clock) });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A form-encoded POST, as RFC 6749 clients send it. */
  async function form(
    path: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; body: DeviceStart & TokenAnswer; headers: Headers }> {
    const response = await fetch(`${t.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return {
      status: response.status,
      body: (await response.json()) as DeviceStart & TokenAnswer,
      headers: response.headers,
    };
  }

  const start = () => form('/v1/oauth/device_authorization', { client_id: 'nr-cli' });
  const poll = (deviceCode: string) =>
    form('/v1/oauth/token', {
      grant_type: DEVICE_GRANT,
      device_code: deviceCode,
      client_id: 'nr-cli',
    });
  const later = (seconds: number) => {
    clock += seconds * 1000;
  };

  it('signs a device in once the user approves its code, and the session it gets works', async () => {
    const user = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const started = await start();
    expect(started.status).toBe(200);
    expect(started.body.user_code).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{4}-[BCDFGHJKLMNPQRSTVWXZ]{4}$/);
    expect(started.body).toMatchObject({
      verification_uri: `${t.url}/device`,
      verification_uri_complete: `${t.url}/device?code=${started.body.user_code}`,
      expires_in: 900,
      interval: 5,
    });
    expect(started.body.device_code).toMatch(/^nrdc_/);

    expect((await poll(started.body.device_code)).body.error).toBe('authorization_pending');
    // Polling again at once is too soon.
    const early = await poll(started.body.device_code);
    expect(early.status).toBe(400);
    expect(early.body.error).toBe('slow_down');
    later(11);
    expect((await poll(started.body.device_code)).body.error).toBe('authorization_pending');

    // The user sees which client asks, typing the code any way they like, then approves.
    const typed = started.body.user_code.toLowerCase().replace('-', ' ');
    const shown = await t.call<{ device: { clientId: string; clientName: string; userCode: string } }>(
      'GET',
      `/v1/oauth/device/${encodeURIComponent(typed)}`,
      { as: user },
    );
    expect(shown.status).toBe(200);
    expect(shown.body.device).toMatchObject({ clientId: 'nr-cli', userCode: started.body.user_code });
    expect(shown.body.device.clientName).toContain('nr');
    const approved = await t.call('POST', `/v1/oauth/device/${started.body.user_code}:approve`, { as: user });
    expect(approved.status).toBe(200);

    later(11);
    const granted = await poll(started.body.device_code);
    expect(granted.status).toBe(200);
    expect(granted.headers.get('cache-control')).toBe('no-store');
    expect(granted.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
    expect(granted.body.refresh_token).toMatch(/^nrr_/);
    const session = { token: granted.body.access_token ?? '' };
    const organizations = await t.call<{ organizations: { id: string }[] }>('GET', '/v1/organizations', {
      as: session,
    });
    expect(organizations.body.organizations.map((o) => o.id)).toEqual([user.organizationId]);

    // A device code is exchanged once.
    later(11);
    expect((await poll(started.body.device_code)).body.error).toBe('invalid_grant');

    // The user sees the device among their sessions.
    const listed = await t.call<{ sessions: { id: string; clientId: string | null; current: boolean }[] }>(
      'GET',
      '/v1/auth/sessions',
      { as: user },
    );
    expect(listed.body.sessions.filter((s) => s.clientId === 'nr-cli')).toHaveLength(1);
    expect(listed.body.sessions.filter((s) => s.current)).toHaveLength(1);
  });

  it("rotates refresh tokens, and a replayed one revokes the user's device sessions", async () => {
    const user = await t.register('ORGANIZATION_TYPE_CLIENT');
    const first = await signIn(user);
    const refreshed = await form('/v1/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
      client_id: 'nr-cli',
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.refresh_token).not.toBe(first.refresh_token);
    // The old access token is revoked with its refresh token; the new one works.
    expect(
      (await t.call('GET', '/v1/organizations', { as: { token: first.access_token ?? '' } })).status,
    ).toBe(401);
    expect(
      (await t.call('GET', '/v1/organizations', { as: { token: refreshed.body.access_token ?? '' } })).status,
    ).toBe(200);
    // Someone replays the first refresh token: refused, and the device sessions of that user go too.
    const replayed = await form('/v1/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token ?? '',
      client_id: 'nr-cli',
    });
    expect(replayed.body.error).toBe('invalid_grant');
    expect(
      (await t.call('GET', '/v1/organizations', { as: { token: refreshed.body.access_token ?? '' } })).status,
    ).toBe(401);
  });

  it('revokes a device session by its token (RFC 7009) and from the session list', async () => {
    const user = await t.register('ORGANIZATION_TYPE_CLIENT');
    const a = await signIn(user);
    const revoked = await form('/v1/oauth/revoke', { token: a.refresh_token ?? '', client_id: 'nr-cli' });
    expect(revoked.status).toBe(200);
    expect((await t.call('GET', '/v1/organizations', { as: { token: a.access_token ?? '' } })).status).toBe(
      401,
    );
    // An unknown token is not an error.
    expect((await form('/v1/oauth/revoke', { token: 'nrr_nothing', client_id: 'nr-cli' })).status).toBe(200);

    const b = await signIn(user);
    const sessions = await t.call<{ sessions: { id: string; clientId: string | null }[] }>(
      'GET',
      '/v1/auth/sessions',
      { as: user },
    );
    const device = sessions.body.sessions.find((s) => s.clientId === 'nr-cli');
    expect(device).toBeDefined();
    const stranger = await t.register('ORGANIZATION_TYPE_CLIENT');
    expect((await t.call('DELETE', `/v1/auth/sessions/${device?.id ?? ''}`, { as: stranger })).status).toBe(
      404,
    );
    expect((await t.call('DELETE', `/v1/auth/sessions/${device?.id ?? ''}`, { as: user })).status).toBe(200);
    expect((await t.call('GET', '/v1/organizations', { as: { token: b.access_token ?? '' } })).status).toBe(
      401,
    );
    const refresh = await form('/v1/oauth/token', {
      grant_type: 'refresh_token',
      refresh_token: b.refresh_token ?? '',
      client_id: 'nr-cli',
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('tells a device the user denied it, and that a code has expired', async () => {
    const user = await t.register('ORGANIZATION_TYPE_CLIENT');
    const denied = await start();
    expect(
      (await t.call('POST', `/v1/oauth/device/${denied.body.user_code}:deny`, { as: user })).status,
    ).toBe(200);
    expect((await poll(denied.body.device_code)).body.error).toBe('access_denied');
    // Decided once: the code no longer names a pending request.
    expect(
      (await t.call('POST', `/v1/oauth/device/${denied.body.user_code}:approve`, { as: user })).status,
    ).toBe(404);

    const lapsed = await start();
    later(901);
    expect((await poll(lapsed.body.device_code)).body.error).toBe('expired_token');
    expect((await t.call('GET', `/v1/oauth/device/${lapsed.body.user_code}`, { as: user })).status).toBe(404);
  });

  it('refuses bad requests with the OAuth error shape and changes nothing', async () => {
    expect((await form('/v1/oauth/device_authorization', { client_id: 'someone-else' })).body).toEqual({
      error: 'invalid_client',
      error_description: expect.stringContaining('someone-else') as string,
    });
    expect((await form('/v1/oauth/device_authorization', {})).body.error).toBe('invalid_request');
    expect((await form('/v1/oauth/token', { client_id: 'nr-cli' })).body.error).toBe('invalid_request');
    expect((await form('/v1/oauth/token', { grant_type: 'password', client_id: 'nr-cli' })).body.error).toBe(
      'unsupported_grant_type',
    );
    expect(
      (await form('/v1/oauth/token', { grant_type: DEVICE_GRANT, client_id: 'nr-cli' })).body.error,
    ).toBe('invalid_request');
    expect((await poll('nrdc_not-a-code')).body.error).toBe('invalid_grant');
    // A device code is bound to the client it was issued to.
    const started = await start();
    const other = await form('/v1/oauth/token', {
      grant_type: DEVICE_GRANT,
      device_code: started.body.device_code,
      client_id: 'other',
    });
    expect(other.body.error).toBe('invalid_client');
  });

  it('lets only a signed-in user see and approve a code', async () => {
    const started = await start();
    const path = `/v1/oauth/device/${started.body.user_code}:approve`;
    expect((await t.call('POST', path)).status).toBe(401);
    const provider = await t.verifiedProvider();
    const account = await t.call<{ serviceAccount: { id: string } }>('POST', '/v1/service-accounts', {
      as: provider,
      body: { name: 'ci', role: 'MEMBER_ROLE_ADMIN' },
    });
    const token = await t.call<{ token: string }>(
      'POST',
      `/v1/service-accounts/${account.body.serviceAccount.id}/tokens`,
      { as: provider, body: { name: 'ci token' } },
    );
    expect(token.status).toBe(201);
    expect((await t.call('POST', path, { as: { token: token.body.token } })).status).toBe(403);
    // A code of the right form that names nothing is 404; one of the wrong form, 400 naming it.
    expect((await t.call('GET', '/v1/oauth/device/ZZZZ-ZZZZ', { as: provider })).status).toBe(404);
    expect((await t.call('GET', '/v1/oauth/device/NOT-ACODE', { as: provider })).status).toBe(400);
    // Still pending: nothing was approved.
    later(11);
    expect((await poll(started.body.device_code)).body.error).toBe('authorization_pending');
  });

  /** A full device sign-in for `user`, as `nr login` does it. */
  async function signIn(user: { token: string }): Promise<TokenAnswer> {
    const started = await start();
    const approved = await t.call('POST', `/v1/oauth/device/${started.body.user_code}:approve`, { as: user });
    if (approved.status !== 200) throw new Error(`approve: ${JSON.stringify(approved.body)}`);
    later(11);
    const granted = await poll(started.body.device_code);
    if (granted.status !== 200) throw new Error(`poll: ${JSON.stringify(granted.body)}`);
    return granted.body;
  }
});
