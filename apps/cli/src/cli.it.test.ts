import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { startControlPlane, type ControlPlane } from '@noderings/control-plane';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Agent } from './agent-view.js';
import type { AuthStatus } from './commands/auth-status.js';
import { nr, tempHome } from './cli-harness.test-support.js';

const ADMIN = { email: 'staff@noderings.test', password: 'staff password 1234' };
const UNLIMITED = { kind: 'window', limit: 1_000_000, windowMs: 60_000 } as const;
const REPOSITORY_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

interface Provider {
  readonly organizationId: string;
  readonly organizationName: string;
  /** The owner's session token. */
  readonly session: string;
}

let cp: ControlPlane;

interface CallOptions {
  readonly token?: string;
  readonly organizationId?: string;
  readonly body?: unknown;
}

/** Sets the test's fixtures up through the API, as a person would. */
async function call<T>(method: string, path: string, options: CallOptions = {}): Promise<T> {
  const { token, organizationId, body } = options;
  const response = await fetch(`${cp.url}${path}`, {
    method,
    headers: {
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...(organizationId !== undefined && { 'x-organization-id': organizationId }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

async function registerProvider(verified: boolean): Promise<Provider> {
  const email = `provider-${randomUUID()}@example.test`;
  const organizationName = `Provider ${email}`;
  const registered = await call<{ token: string; organization: { id: string } }>(
    'POST',
    '/v1/auth/register',
    {
      body: {
        email,
        password: 'correct horse battery',
        organizationName,
        organizationType: 'ORGANIZATION_TYPE_PROVIDER',
      },
    },
  );
  if (verified) {
    const staff = await call<{ token: string }>('POST', '/v1/auth/login', { body: ADMIN });
    await call('POST', `/v1/organizations/${registered.organization.id}:verify`, { token: staff.token });
  }
  return { organizationId: registered.organization.id, organizationName, session: registered.token };
}

/** A service-account token with the admin role, as a CI job would hold. */
async function serviceAccountToken(provider: Provider): Promise<string> {
  const as = { token: provider.session, organizationId: provider.organizationId };
  const { serviceAccount } = await call<{ serviceAccount: { id: string } }>('POST', '/v1/service-accounts', {
    ...as,
    body: { name: 'ci', role: 'MEMBER_ROLE_ADMIN' },
  });
  const minted = await call<{ token: string }>('POST', `/v1/service-accounts/${serviceAccount.id}/tokens`, {
    ...as,
    body: { name: 'ci token' },
  });
  return minted.token;
}

/** A home folder whose `~/.nr` holds `token` for the control plane and organisation. */
async function signedIn(token: string, organizationId: string): Promise<string> {
  const home = await tempHome();
  const run = await nr(home, [
    'auth',
    'set-token',
    '--token',
    token,
    '--api-url',
    cp.url,
    '--org-id',
    organizationId,
  ]);
  if (run.code !== 0) throw new Error(`set-token: ${run.stderr}`);
  return home;
}

function agentFlags(name: string): string[] {
  return ['--name', name, '--agent-ip', '203.0.113.7', '--gateway-region', 'ams01'];
}

describe('nr against a control plane', () => {
  let verified: Provider;
  let pending: Provider;
  let ciToken: string;

  beforeAll(async () => {
    cp = await startControlPlane({
      database: { inMemory: true },
      secretKey: randomBytes(32),
      logDestination: new Writable({
        write: (_chunk, _encoding, callback) => {
          callback();
        },
      }),
      admin: ADMIN,
      registrationLimits: { perAddress: UNLIMITED, overall: UNLIMITED },
      allowPrivateDestinations: true,
    });
    verified = await registerProvider(true);
    pending = await registerProvider(false);
    ciToken = await serviceAccountToken(verified);
  });
  afterAll(() => cp.close());

  it('logs in with the device flow once the user approves the code, renews the session, and logs out', async () => {
    const home = await tempHome();
    let approving: Promise<unknown> | undefined;
    const run = await nr(
      home,
      ['login', '--api-url', cp.url, '--org-id', verified.organizationId, '--output', 'json'],
      {
        sleep: () => new Promise((resolve) => setTimeout(resolve, 20)),
        onStderr: (text) => {
          const code = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(text)?.[1];
          if (code !== undefined && approving === undefined) {
            // The user approves in the dashboard, as the API has it.
            approving = call('POST', `/v1/oauth/device/${code}:approve`, { token: verified.session });
          }
        },
      },
    );
    await approving;
    expect(run.stderr).toContain(`${cp.url}/device`);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ signed_in: true });
    const stored = JSON.parse(await readFile(join(home, '.nr', 'credentials.json'), 'utf8')) as {
      token: string;
      refreshToken: string;
      expiresAt: string;
    };
    expect(stored.refreshToken).toMatch(/^nrr_/);
    expect((await stat(join(home, '.nr', 'credentials.json'))).mode & 0o777).toBe(0o600);

    const listed = await nr(home, ['agent', 'list', '--output', 'json']);
    expect(listed.code).toBe(0);

    // A lapsing token is renewed with the refresh token before the call, and stored again.
    await writeFile(
      join(home, '.nr', 'credentials.json'),
      JSON.stringify({ ...stored, expiresAt: new Date(Date.now() + 1000).toISOString() }),
      { mode: 0o600 },
    );
    expect((await nr(home, ['agent', 'list', '--output', 'json'])).code).toBe(0);
    const renewed = JSON.parse(
      await readFile(join(home, '.nr', 'credentials.json'), 'utf8'),
    ) as typeof stored;
    expect(renewed.token).not.toBe(stored.token);
    expect(renewed.refreshToken).not.toBe(stored.refreshToken);

    const out = await nr(home, ['logout', '--output', 'json']);
    expect(out.code).toBe(0);
    expect(JSON.parse(out.stdout)).toEqual({ removed: true, revoked: true });
    // Revoked in the API, not only forgotten here.
    const after = await fetch(`${cp.url}/v1/organizations`, {
      headers: { authorization: `Bearer ${renewed.token}` },
    });
    expect(after.status).toBe(401);
  });

  it('tells the user when the sign-in is denied, and exits 1', async () => {
    const home = await tempHome();
    let deciding: Promise<unknown> | undefined;
    const run = await nr(home, ['login', '--api-url', cp.url], {
      sleep: () => new Promise((resolve) => setTimeout(resolve, 20)),
      onStderr: (text) => {
        const code = /enter the code ([A-Z]{4}-[A-Z]{4})/.exec(text)?.[1];
        if (code !== undefined && deciding === undefined)
          deciding = call('POST', `/v1/oauth/device/${code}:deny`, { token: verified.session });
      },
    });
    await deciding;
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('The sign-in was denied in the dashboard.');
    await expect(stat(join(home, '.nr', 'credentials.json'))).rejects.toThrow();
  });

  it('auth status names the organization a service-account token acts in', async () => {
    const home = await signedIn(ciToken, verified.organizationId);
    const run = await nr(home, ['auth', 'status', '--output', 'json']);
    expect(run.code).toBe(0);
    expect(run.stdout).not.toContain(ciToken);
    const status = JSON.parse(run.stdout) as AuthStatus;
    expect(status).toEqual({
      authenticated: true,
      source: 'credentials',
      token_hint: `****${ciToken.slice(-4)}`,
      token_type: 'service_account',
      api_url: cp.url,
      server_verified: true,
      server_error: null,
      organization: {
        id: verified.organizationId,
        name: verified.organizationName,
        type: 'ORGANIZATION_TYPE_PROVIDER',
        is_verified: true,
      },
      role: null,
      provider_review_pending: false,
    });
    const text = await nr(home, ['auth', 'status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${verified.organizationName} (${verified.organizationId})`);
  });

  it("auth status of a user's session token gives the role, and the review when it is pending", async () => {
    const home = await tempHome();
    const run = await nr(home, ['auth', 'status', '--output', 'json', '--api-url', cp.url], {
      env: { NR_TOKEN: pending.session, NR_ORGANIZATION_ID: pending.organizationId },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      authenticated: true,
      source: 'env',
      token_type: 'session',
      role: 'MEMBER_ROLE_OWNER',
      organization: { id: pending.organizationId, is_verified: false },
      provider_review_pending: true,
    });
  });

  it('auth status of a revoked or made-up token: not authenticated, exit 1', async () => {
    const home = await signedIn(`nrs_${randomBytes(16).toString('hex')}`, verified.organizationId);
    const run = await nr(home, ['auth', 'status', '--output', 'json']);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({
      authenticated: false,
      server_verified: true,
      server_error: 'The bearer token is invalid, expired or revoked.',
    });
    const list = await nr(home, ['agent', 'list']);
    expect(list.code).toBe(1);
    expect(list.stderr).toBe('The bearer token is invalid, expired or revoked.\n');
  });

  it('creates, lists, reads, updates and deletes an agent', async () => {
    const home = await signedIn(ciToken, verified.organizationId);
    const name = `Frankfurt ${randomUUID().slice(0, 8)}`;

    const created = await nr(home, [
      'agent',
      'create',
      ...agentFlags(name),
      '--description',
      'rack 4',
      '--output',
      'json',
    ]);
    expect(created.code).toBe(0);
    expect(created.stderr).toMatch(/^\[OK\] Created agent Frankfurt/);
    const agent = JSON.parse(created.stdout) as Agent;
    expect(agent).toMatchObject({
      name,
      description: 'rack 4',
      agentPublicIp: '203.0.113.7',
      gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
      hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
      provisioned: false,
      inboundPeeringState: 'INBOUND_PEERING_STATE_PENDING',
    });

    const listed = await nr(home, ['agent', 'list', '--output', 'json', '--search', name]);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual({ agents: [agent], totalCount: 1 });
    const table = await nr(home, ['agent', 'list']);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+PUBLIC IP\s+REGION\s+PROVISIONED\s+STATUS$/);
    expect(table.stdout).toMatch(
      new RegExp(`${agent.id}\\s+${name}\\s+203\\.0\\.113\\.7\\s+AMS01\\s+no\\s+OFFLINE`),
    );

    const got = await nr(home, ['agent', 'get', agent.id]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(/^ID: +[0-9a-f-]{36}$/m);
    expect(got.stdout).toMatch(/^Gateway service port: +\d+$/m);

    const updated = await nr(home, ['agent', 'update', agent.id, '--name', `${name} b`, '--output', 'json']);
    expect(updated.code).toBe(0);
    expect(JSON.parse(updated.stdout)).toMatchObject({
      id: agent.id,
      name: `${name} b`,
      description: 'rack 4',
    });

    // Off a terminal without --yes, and on one answered with the default, nothing is deleted.
    const refused = await nr(home, ['agent', 'delete', agent.id]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/re-run with --yes/);
    const declined = await nr(home, ['agent', 'delete', agent.id], { tty: { answers: [''] } });
    expect(declined.code).toBe(1);
    expect(declined.stderr).toContain(`Delete agent ${name} b (${agent.id})? [y/N] `);
    expect((await nr(home, ['agent', 'get', agent.id])).code).toBe(0);

    const deleted = await nr(home, ['agent', 'delete', agent.id], { tty: { answers: ['y'] } });
    expect(deleted.code).toBe(0);
    expect(deleted.stderr).toContain(`✓ Deleted agent ${name} b (${agent.id}).`);
    const gone = await nr(home, ['agent', 'get', agent.id]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/not found/i);

    const again = await nr(home, ['agent', 'create', ...agentFlags(`${name} c`), '--output', 'json']);
    const id = (JSON.parse(again.stdout) as Agent).id;
    const withYes = await nr(home, ['agent', 'delete', id, '--yes', '--output', 'json']);
    expect(withYes.code).toBe(0);
    expect(JSON.parse(withYes.stdout)).toEqual({ success: true });
  });

  it("prints the API's message and its field violations, and exits 1", async () => {
    const home = await signedIn(ciToken, verified.organizationId);
    const run = await nr(home, ['agent', 'create', ...agentFlags('x'.repeat(101))]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    const [message, violation] = run.stderr.split('\n');
    expect(message).not.toBe('');
    expect(violation).toMatch(/^ {2}name: /);
  });

  it('an unverified provider is told exactly that its review is pending', async () => {
    const home = await signedIn(pending.session, pending.organizationId);
    const run = await nr(home, ['agent', 'create', ...agentFlags('first agent')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Provider organization review is pending.\n');
  });

  it('exits 0, 1 and 2 from a real process', async () => {
    const home = await signedIn(ciToken, verified.organizationId);
    const ok = await spawnNr(home, ['agent', 'list', '--output', 'json']);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toHaveProperty('totalCount');
    const usage = await spawnNr(home, ['agent', 'list', '--output', 'yaml']);
    expect(usage.code).toBe(2);
    const failure = await spawnNr(home, ['agent', 'get', randomUUID()]);
    expect(failure.code).toBe(1);
  }, 60_000);
});

function spawnNr(home: string, argv: readonly string[]): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npx', ['tsx', 'apps/cli/src/main.ts', ...argv], {
      cwd: REPOSITORY_ROOT,
      env: { PATH: process.env.PATH, HOME: home },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      resolve({ code, stdout });
    });
  });
}
