import { decode } from '@nats-io/jwt';
import { signCredentialsRequest, type EnrollResponse } from '@noderings/fleet';
import { startNatsServer, type NatsServerProcess } from '@noderings/fleet/nats-server';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestControlPlane, type TestControlPlane } from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import {
  createFleetSite,
  enroll,
  enrollBody,
  enrolled,
  MACHINE_ID,
  newAgentKey,
  type AgentKey,
  type FleetErrorBody,
  type FleetSite,
} from './fleet.test-support.js';

const MINUTE = 60_000;
const OTHER_MACHINE = 'ffffffffffffffffffffffffffffffff';

interface AgentView {
  id: string;
  name: string;
  status: string;
  publicKey: string;
  releasedAt: string | null;
  reboundAt: string | null;
}

async function liveRecords(t: TestControlPlane, name: string): Promise<number> {
  const rows = await t.cp.db
    .selectFrom('fleet_agents')
    .select('id')
    .where('name', '=', name)
    .where('released_at', 'is', null)
    .execute();
  return rows.length;
}

describe.each(DATABASE_KINDS)('fleet enrollment on the %s database', (kind) => {
  let nats: NatsServerProcess;
  let t: TestControlPlane;
  /** The control plane's clock runs this far ahead of the real one: tests move it to make records quiet. */
  let aheadMs = 0;
  const now = () => new Date(Date.now() + aheadMs);
  let site: FleetSite;

  beforeAll(async () => {
    nats = await startNatsServer();
    t = await startTestControlPlane(kind, {
      now,
      fleet: { natsUrl: nats.url, accountSeed: nats.authority.accountSeed },
    });
    site = await createFleetSite(t);
  }, 60_000);
  afterAll(async () => {
    try {
      await t.close();
    } finally {
      await nats.stop();
    }
  });

  function credentials(agentId: string, key: AgentKey, atMs = now().getTime()) {
    return t.call<{ nats?: EnrollResponse['nats'] } & FleetErrorBody>(
      'POST',
      `/api/v1/fleet/agents/${agentId}/nats-credentials`,
      { headers: { authorization: signCredentialsRequest(key.seed, agentId, Math.floor(atMs / 1000)) } },
    );
  }

  it('shows an install token once, lists it without its secret, and stops accepting it once revoked', async () => {
    const created = await t.call<{ id: string; token: string; expiresAt: string }>(
      'POST',
      `/api/v1/fleet/environments/${site.environmentId}/install-tokens`,
      { as: site.provider, body: {} },
    );
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^nrf_[A-Za-z0-9_-]{43}$/);
    // Thirty days by default.
    expect(Date.parse(created.body.expiresAt) - now().getTime()).toBeGreaterThan(29.9 * 24 * 60 * MINUTE);
    const listed = await t.call('GET', `/api/v1/fleet/environments/${site.environmentId}/install-tokens`, {
      as: site.provider,
    });
    expect(JSON.stringify(listed.body)).not.toContain(created.body.token);
    expect(listed.body).toMatchObject({ totalCount: 2 });
    const stored = await t.cp.db.selectFrom('fleet_install_tokens').select('token_hash').execute();
    expect(stored.every((r) => !Buffer.from(r.token_hash).toString('utf8').includes('nrf_'))).toBe(true);

    expect(
      (await enroll(t, created.body.token, enrollBody(newAgentKey(), { name: 'revoked-1' }))).status,
    ).toBe(201);
    const revoked = await t.call(
      'DELETE',
      `/api/v1/fleet/environments/${site.environmentId}/install-tokens/${created.body.id}`,
      { as: site.provider },
    );
    expect(revoked.status).toBe(200);
    const refused = await enroll(t, created.body.token, enrollBody(newAgentKey(), { name: 'revoked-2' }));
    expect(refused.status).toBe(401);
    expect(t.logLines.filter((l) => l.includes(created.body.token))).toEqual([]);
  });

  it('answers 401 with one message to a missing, unknown or expired token, and stores nothing', async () => {
    const expiring = await t.call<{ token: string }>(
      'POST',
      `/api/v1/fleet/environments/${site.environmentId}/install-tokens`,
      { as: site.provider, body: { expiresInSeconds: 60 } },
    );
    aheadMs += 2 * MINUTE;
    const before = await liveRecords(t, 'refused');
    const answers = await Promise.all(
      [undefined, 'nrf_unknown', expiring.body.token, site.installToken.replace('nrf_', 'nrm_')].map(
        (token) => enroll(t, token, enrollBody(newAgentKey(), { name: 'refused' })),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(new Set(answers.map((a) => a.body.message)).size).toBe(1);
    expect(await liveRecords(t, 'refused')).toBe(before);
  });

  it('enrolls a new name (201), answers the same key again with the same record (200), and refuses another key while live (409)', async () => {
    const key = newAgentKey();
    const first = await enroll(t, site.installToken, enrollBody(key, { name: 'idem-1' }));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      environmentId: site.environmentId,
      agentType: 'k8s-node-monitor',
      name: 'idem-1',
      rebound: false,
      heartbeatIntervalSeconds: 30,
      nats: { servers: [nats.url], inboxPrefix: `_INBOX_${key.publicKey}` },
    });
    expect(Date.parse(first.body.nats.expiresAt) - now().getTime()).toBeGreaterThan(23.9 * 60 * MINUTE);
    // The JWT names the agent's key, is signed by the fleet account, and allows its own subjects only.
    const claims = decode<{ pub: { allow: string[] }; sub: { allow: string[] } }>(first.body.nats.jwt);
    expect(claims).toMatchObject({
      sub: key.publicKey,
      iss: nats.authority.accountPublicKey,
      exp: Math.floor(Date.parse(first.body.nats.expiresAt) / 1000),
      nats: { pub: { allow: [`fleet.${key.publicKey}.>`] }, sub: { allow: [`_INBOX_${key.publicKey}.>`] } },
    });
    const again = await enroll(t, site.installToken, enrollBody(key, { name: 'idem-1', version: '0.8.1' }));
    expect(again.status).toBe(200);
    expect(again.body.agentId).toBe(first.body.agentId);

    const other = await enroll(t, site.installToken, enrollBody(newAgentKey(), { name: 'idem-1' }));
    expect(other.status).toBe(409);
    expect(other.body.error?.code).toBe('identity_in_use');
    expect(other.body.code).toBe('ALREADY_EXISTS');
    expect(other.body.message).toContain('idem-1');
    expect(other.body.message).toContain('never been heard from');
    expect(other.body.message).toContain(`POST /api/v1/fleet/agents/${first.body.agentId}/release-identity`);
    expect(await liveRecords(t, 'idem-1')).toBe(1);
    const view = await t.call<AgentView & { version: string }>(
      'GET',
      `/api/v1/fleet/agents/${first.body.agentId}`,
      {
        as: site.provider,
      },
    );
    expect(view.body).toMatchObject({ status: 'never_seen', version: '0.8.1', publicKey: key.publicKey });
  });

  it('keeps refusing a quiet record to a caller without a matching host signal, and re-binds one with it', async () => {
    const original = newAgentKey();
    const first = await enrolled(t, site, original, { name: 'rebind-1' });
    aheadMs += 5 * MINUTE;
    for (const hostSignals of [{}, { machineId: OTHER_MACHINE }]) {
      const refused = await enroll(
        t,
        site.installToken,
        enrollBody(newAgentKey(), { name: 'rebind-1', hostSignals }),
      );
      expect(refused.status).toBe(409);
      expect(refused.body.error?.code).toBe('identity_in_use');
      expect(refused.body.message).toContain('no machineId or systemUuid matching');
    }
    const moved = newAgentKey();
    const rebound = await enroll(t, site.installToken, enrollBody(moved, { name: 'rebind-1' }));
    expect(rebound.status).toBe(200);
    expect(rebound.body).toMatchObject({ agentId: first.agentId, rebound: true });
    const view = await t.call<AgentView>('GET', `/api/v1/fleet/agents/${first.agentId}`, {
      as: site.provider,
    });
    expect(view.body.publicKey).toBe(moved.publicKey);
    expect(view.body.reboundAt).not.toBeNull();
    expect(await liveRecords(t, 'rebind-1')).toBe(1);

    // The new holder gets credentials; the old key is told the record moved on.
    expect((await credentials(first.agentId, moved)).status).toBe(200);
    const gone = await credentials(first.agentId, original);
    expect(gone.status).toBe(410);
    expect(gone.body.error?.code).toBe('identity_rebound');
    expect(gone.body.message).toContain('re-bound');
    // Just re-bound: the record is not quiet, whatever the signal.
    const third = await enroll(t, site.installToken, enrollBody(newAgentKey(), { name: 'rebind-1' }));
    expect(third.status).toBe(409);
  });

  it('re-binds on a matching DMI product UUID too', async () => {
    const board = '4C4C4544-0042-3510-8051-B7C04F4E4E32';
    const first = await enrolled(t, site, newAgentKey(), {
      name: 'rebind-2',
      hostSignals: { systemUuid: board },
    });
    aheadMs += 5 * MINUTE;
    const rebound = await enroll(
      t,
      site.installToken,
      enrollBody(newAgentKey(), { name: 'rebind-2', hostSignals: { systemUuid: board.toLowerCase() } }),
    );
    expect(rebound.status).toBe(200);
    expect(rebound.body).toMatchObject({ agentId: first.agentId, rebound: true });
  });

  it('keeps one live record per name under concurrent enrollments', async () => {
    const keys = Array.from({ length: 8 }, () => newAgentKey());
    const answers = await Promise.all(
      keys.map((k) => enroll(t, site.installToken, enrollBody(k, { name: 'race-1' }))),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    expect(await liveRecords(t, 'race-1')).toBe(1);

    // One agent retrying its enrollment at once (the same key): several rounds, since the race is narrow.
    for (let round = 0; round < 5; round++) {
      const key = newAgentKey();
      const name = `race-2-${round}`;
      const same = await Promise.all(
        Array.from({ length: 6 }, () => enroll(t, site.installToken, enrollBody(key, { name }))),
      );
      expect(same.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 201]);
      expect(new Set(same.map((a) => a.body.agentId)).size).toBe(1);
      expect(await liveRecords(t, name)).toBe(1);
    }
  });

  it('refuses a key already bound to another live name', async () => {
    const key = newAgentKey();
    await enrolled(t, site, key, { name: 'shared-dir-1' });
    const twin = await enroll(t, site.installToken, enrollBody(key, { name: 'shared-dir-2' }));
    expect(twin.status).toBe(409);
    expect(twin.body.error?.code).toBe('public_key_in_use');
    expect(await liveRecords(t, 'shared-dir-2')).toBe(0);
  });

  it('frees the name on release-identity: a new key enrolls afresh and the released key is refused', async () => {
    const key = newAgentKey();
    const first = await enrolled(t, site, key, { name: 'release-1' });
    const released = await t.call<AgentView>(
      'POST',
      `/api/v1/fleet/agents/${first.agentId}/release-identity`,
      { as: site.provider },
    );
    expect(released.status).toBe(200);
    expect(released.body.status).toBe('released');
    const again = await t.call<AgentView>('POST', `/api/v1/fleet/agents/${first.agentId}/release-identity`, {
      as: site.provider,
    });
    expect(again.body.releasedAt).toBe(released.body.releasedAt);

    const gone = await credentials(first.agentId, key);
    expect(gone.status).toBe(410);
    expect(gone.body.error?.code).toBe('identity_released');
    const fresh = await enroll(t, site.installToken, enrollBody(newAgentKey(), { name: 'release-1' }));
    expect(fresh.status).toBe(201);
    expect(fresh.body.agentId).not.toBe(first.agentId);
    // Kept for history.
    const all = await t.call<{ agents: AgentView[] }>(
      'GET',
      `/api/v1/fleet/agents?environmentId=${site.environmentId}&includeReleased=true&pageSize=100`,
      { as: site.provider },
    );
    expect(
      all.body.agents
        .filter((a) => a.name === 'release-1')
        .map((a) => a.status)
        .sort(),
    ).toEqual(['never_seen', 'released']);
    const live = await t.call<{ agents: AgentView[] }>('GET', `/api/v1/fleet/agents?pageSize=100`, {
      as: site.provider,
    });
    expect(live.body.agents.filter((a) => a.name === 'release-1')).toHaveLength(1);
  });

  it('gives credentials only to a fresh signature of the current key', async () => {
    const key = newAgentKey();
    const agent = await enrolled(t, site, key, { name: 'creds-1' });
    const fresh = await credentials(agent.agentId, key);
    expect(fresh.status).toBe(200);
    expect(fresh.body.nats?.jwt).toMatch(/^eyJ/);
    const stale = await credentials(agent.agentId, key, now().getTime() - 10 * MINUTE);
    expect(stale.status).toBe(401);
    expect(stale.body.message).toContain('clock');
    const wrong = await credentials(agent.agentId, newAgentKey());
    expect(wrong.status).toBe(401);
    const unsigned = await t.call('POST', `/api/v1/fleet/agents/${agent.agentId}/nats-credentials`);
    expect(unsigned.status).toBe(401);
    const unknown = await credentials('00000000-0000-4000-8000-000000000000', key);
    expect(unknown.status).toBe(404);
  });

  it('answers 400 to bad bodies and stores nothing', async () => {
    const count = async () =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM fleet_agents`.execute(t.cp.db)).rows[0]?.n);
    const before = await count();
    const key = newAgentKey();
    for (const body of [
      {},
      enrollBody(key, { agentType: 'daemon' }),
      enrollBody(key, { name: '-node' }),
      enrollBody(key, { publicKey: 'SUAAAA' }),
      enrollBody(key, { hostSignals: { machineId: 'not-hex' } }),
      enrollBody(key, { extra: true }),
    ]) {
      const response = await enroll(t, site.installToken, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe('INVALID_ARGUMENT');
    }
    expect(await count()).toBe(before);
  });

  it("hides one organisation's fleet from another", async () => {
    const key = newAgentKey();
    const agent = await enrolled(t, site, key, { name: 'isolated-1' });
    const other = await createFleetSite(t, 'other');
    const as = other.provider;
    const paths = [
      ['GET', `/api/v1/fleet/agents/${agent.agentId}`],
      ['GET', `/api/v1/fleet/agents/${agent.agentId}/series`],
      ['POST', `/api/v1/fleet/agents/${agent.agentId}/release-identity`],
      ['GET', `/api/v1/fleet/environments/${site.environmentId}`],
      ['GET', `/api/v1/fleet/environments/${site.environmentId}/install-tokens`],
      ['POST', `/api/v1/fleet/environments/${site.environmentId}/install-tokens`],
      ['GET', `/api/v1/fleet/agents?environmentId=${site.environmentId}`],
      ['GET', `/api/v1/fleet/logs?environmentId=${site.environmentId}`],
      ['GET', `/api/v1/fleet/logs?agentId=${agent.agentId}`],
      ['GET', `/api/v1/fleet/assets?environmentId=${site.environmentId}`],
      ['GET', `/api/v1/fleet/series/points?environmentId=${site.environmentId}&name=up`],
    ] as const;
    for (const [method, path] of paths) {
      const response = await t.call(method, path, { as, ...(method === 'POST' && { body: {} }) });
      expect(response.status, `${method} ${path}`).toBe(404);
    }
    const lists = await t.call<{ agents: AgentView[] }>('GET', '/api/v1/fleet/agents', { as });
    expect(lists.body.agents).toEqual([]);
    const environments = await t.call<{ environments: { id: string }[] }>(
      'GET',
      '/api/v1/fleet/environments',
      {
        as,
      },
    );
    expect(environments.body.environments.map((e) => e.id)).toEqual([other.environmentId]);
    // Other's token enrolls into other's environment, never into this one's record.
    const theirs = await enroll(t, other.installToken, enrollBody(newAgentKey(), { name: 'isolated-1' }));
    expect(theirs.status).toBe(201);
    expect(theirs.body.environmentId).toBe(other.environmentId);
    const view = await t.call<AgentView>('GET', `/api/v1/fleet/agents/${agent.agentId}`, {
      as: site.provider,
    });
    expect(view.body.status).toBe('never_seen');
    expect(view.body.publicKey).toBe(key.publicKey);
  });

  it('needs a provider admin for install tokens and provider members for reads', async () => {
    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    const refused = await t.call('GET', '/api/v1/fleet/environments', { as: client });
    expect(refused.status).toBe(403);
    const anonymous = await t.call('GET', '/api/v1/fleet/agents');
    expect(anonymous.status).toBe(401);
  });

  it('links a host name to one cluster of the environment at a time', async () => {
    const cluster = (name: string) =>
      t.call<{ id: string }>('POST', `/api/v1/fleet/environments/${site.environmentId}/clusters`, {
        as: site.provider,
        body: { name },
      });
    const east = (await cluster('east')).body.id;
    const west = (await cluster('west')).body.id;
    expect((await cluster('east')).status).toBe(409);
    const host = `${'n'.repeat(200)}.example.test`;
    const hostPath = (id: string) => `/api/v1/fleet/clusters/${id}/hosts/${host}`;
    const linked = await t.call('PUT', hostPath(east), { as: site.provider });
    expect(linked.status).toBe(200);
    expect(linked.body).toMatchObject({ clusterId: east, hostname: host });
    expect((await t.call('PUT', hostPath(east), { as: site.provider })).status).toBe(200);
    const elsewhere = await t.call<FleetErrorBody>('PUT', hostPath(west), { as: site.provider });
    expect(elsewhere.status).toBe(409);
    expect(elsewhere.body.message).toContain(east);
    expect((await t.call('DELETE', hostPath(east), { as: site.provider })).status).toBe(200);
    expect((await t.call('DELETE', hostPath(east), { as: site.provider })).status).toBe(404);
    expect((await t.call('PUT', hostPath(west), { as: site.provider })).status).toBe(200);
    const listed = await t.call<{ clusters: { id: string }[] }>(
      'GET',
      `/api/v1/fleet/clusters?environmentId=${site.environmentId}`,
      { as: site.provider },
    );
    expect(listed.body.clusters.map((c) => c.id)).toEqual(expect.arrayContaining([east, west]));
  });

  it('records the host signals it was given', async () => {
    const agent = await enrolled(t, site, newAgentKey(), { name: 'signals-1' });
    const row = await t.cp.db
      .selectFrom('fleet_agents')
      .select(['machine_id', 'hostname', 'version'])
      .where('id', '=', agent.agentId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ machine_id: MACHINE_ID, hostname: 'signals-1', version: '0.8.0' });
  });
});

describe('fleet enrollment without NATS', () => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane('embedded');
  });
  afterAll(() => t.close());

  it('answers 503 with the reason and stores nothing', async () => {
    const site = await createFleetSite(t);
    const response = await enroll(t, site.installToken, enrollBody(newAgentKey()));
    expect(response.status).toBe(503);
    expect(response.body.message).toContain('NR_NATS_URL');
    expect(await t.cp.db.selectFrom('fleet_agents').select('id').execute()).toEqual([]);
    const credentialsCall = await t.call(
      'POST',
      '/api/v1/fleet/agents/00000000-0000-4000-8000-000000000000/nats-credentials',
    );
    expect(credentialsCall.status).toBe(503);
  });
});
