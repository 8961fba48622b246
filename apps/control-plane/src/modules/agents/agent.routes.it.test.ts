import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { AGENT_CREDENTIAL_TTL_MS, INSTALL_TOKEN_TTL_MS, REVIEW_PENDING_MESSAGE } from './agent.service.js';

interface AgentView {
  id: string;
  name: string;
  description: string;
  organizationId: string;
  agentPublicIp: string;
  gwServerServicePort: number;
  provisioned: boolean;
  gatewayRegion: string;
  hypervisorDriver: string;
  inboundPeeringState: string;
  inboundPeeringError: string;
  serviceStatus: string;
  createTime: string;
  updateTime: string;
}

interface ErrorBody {
  code: string;
  message: string;
  details: { fieldViolations: { field: string; description: string }[] }[];
}

interface Redeemed {
  agent: AgentView;
  credential: { token: string; expiresAt: string };
}

const INVALID_INSTALL_TOKEN = 'The install token is invalid, expired or already used.';

function agentBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: `agent ${String(Math.random()).slice(2, 10)}`,
    agentPublicIp: '203.0.113.7',
    gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
    hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
    ...overrides,
  };
}

function fieldsOf(body: unknown): string[] {
  return ((body as ErrorBody).details[0]?.fieldViolations ?? []).map((v) => v.field).sort();
}

describe.each(DATABASE_KINDS)('agents on the %s database', (kind) => {
  let t: TestControlPlane;
  let skewMs = 0;
  beforeAll(async () => {
    t = await startTestControlPlane(kind, { now: () => new Date(Date.now() + skewMs) });
  });
  afterAll(() => t.close());

  async function createAgent(as: Caller, overrides: Record<string, unknown> = {}): Promise<AgentView> {
    const response = await t.call<{ agent: AgentView }>('POST', '/v1/agents', {
      as,
      body: agentBody(overrides),
    });
    if (response.status !== 201) throw new Error(`create agent failed: ${JSON.stringify(response.body)}`);
    return response.body.agent;
  }

  async function installToken(as: Caller, agentId: string): Promise<string> {
    const before = Date.now();
    const response = await t.call<{ command: string; token: string; expiresAt: string }>(
      'POST',
      `/v1/agents/${agentId}:generateInstallCommand`,
      { as, body: {} },
    );
    if (response.status !== 200) throw new Error(`generate failed: ${JSON.stringify(response.body)}`);
    // The token works for an hour; the answer says until when.
    const expiresIn = Date.parse(response.body.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(3_590_000);
    expect(expiresIn).toBeLessThanOrEqual(3_600_000 + 600_000);
    return response.body.token;
  }

  function redeem(agentId: string, token: string) {
    return t.call<Redeemed>('POST', `/v1/agents/${agentId}:redeemInstallToken`, { body: { token } });
  }

  it('creates, lists, reads, updates and deletes an agent', async () => {
    const provider = await t.verifiedProvider();
    const created = await t.call<{ agent: AgentView }>('POST', '/v1/agents', {
      as: provider,
      body: agentBody({ name: 'Frankfurt production', description: 'rack 4', agentPublicIp: '10.0.0.5' }),
    });
    expect(created.status).toBe(201);
    const agent = created.body.agent;
    expect(agent).toMatchObject({
      name: 'Frankfurt production',
      description: 'rack 4',
      organizationId: provider.organizationId,
      agentPublicIp: '10.0.0.5',
      gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
      hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
      provisioned: false,
      inboundPeeringState: 'INBOUND_PEERING_STATE_PENDING',
      inboundPeeringError: '',
      serviceStatus: 'SERVICE_STATUS_OFFLINE',
    });
    expect(agent).not.toHaveProperty('kubeconfig');
    expect(agent).not.toHaveProperty('inboundKubeconfig');

    const list = await t.call<{ agents: { agent: AgentView }[]; totalCount: number }>(
      'GET',
      '/v1/agents?gatewayRegion=AGENT_GATEWAY_REGION_AMS01&search=FRANKFURT',
      { as: provider },
    );
    expect(list.status).toBe(200);
    expect(list.body.totalCount).toBe(1);
    expect(list.body.agents.map((a) => a.agent.id)).toEqual([agent.id]);
    const none = await t.call<{ totalCount: number }>('GET', '/v1/agents?search=100%25', { as: provider });
    expect(none.body.totalCount).toBe(0);

    const read = await t.call<{ agent: AgentView }>('GET', `/v1/agents/${agent.id}`, { as: provider });
    expect(read.body.agent).toEqual(agent);

    const patched = await t.call<{ agent: AgentView }>('PATCH', `/v1/agents/${agent.id}`, {
      as: provider,
      body: { name: 'Frankfurt staging', description: '' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.agent).toMatchObject({
      name: 'Frankfurt staging',
      description: '',
      agentPublicIp: '10.0.0.5',
    });

    expect((await t.call('DELETE', `/v1/agents/${agent.id}`, { as: provider })).status).toBe(200);
    expect((await t.call('GET', `/v1/agents/${agent.id}`, { as: provider })).status).toBe(404);
  });

  it('refuses bad input with field paths and writes nothing', async () => {
    const provider = await t.verifiedProvider();
    const bad = await t.call('POST', '/v1/agents', {
      as: provider,
      body: {
        name: '',
        agentPublicIp: '2001:db8::1',
        gatewayRegion: 'AGENT_GATEWAY_REGION_UNSPECIFIED',
        hypervisorDriver: 'vmware',
      },
    });
    expect(bad.status).toBe(400);
    expect(fieldsOf(bad.body)).toEqual(['agentPublicIp', 'gatewayRegion', 'hypervisorDriver', 'name']);

    for (const ip of [
      '0.0.0.0',
      '127.0.0.1',
      '224.0.0.1',
      '255.255.255.255',
      '169.254.10.1',
      '300.1.1.1',
      '01.2.3.4',
    ]) {
      const response = await t.call('POST', '/v1/agents', {
        as: provider,
        body: agentBody({ agentPublicIp: ip }),
      });
      expect(response.status, ip).toBe(400);
      expect(fieldsOf(response.body), ip).toEqual(['agentPublicIp']);
    }
    const tooLong = await t.call('POST', '/v1/agents', {
      as: provider,
      body: agentBody({ name: 'x'.repeat(101) }),
    });
    expect(fieldsOf(tooLong.body)).toEqual(['name']);
    const extra = await t.call('POST', '/v1/agents', {
      as: provider,
      body: agentBody({ provisioned: true }),
    });
    expect(extra.status).toBe(400);

    const list = await t.call<{ totalCount: number }>('GET', '/v1/agents', { as: provider });
    expect(list.body.totalCount).toBe(0);
  });

  it('refuses a second agent with the same name in one organization but not in another', async () => {
    const provider = await t.verifiedProvider();
    await createAgent(provider, { name: 'edge-1' });
    const duplicate = await t.call<ErrorBody>('POST', '/v1/agents', {
      as: provider,
      body: agentBody({ name: 'edge-1' }),
    });
    expect(duplicate.status).toBe(409);
    expect(duplicate.body.code).toBe('ALREADY_EXISTS');
    expect(duplicate.body.message).toContain('edge-1');

    const other = await createAgent(provider, { name: 'edge-2' });
    const rename = await t.call<ErrorBody>('PATCH', `/v1/agents/${other.id}`, {
      as: provider,
      body: { name: 'edge-1' },
    });
    expect(rename.status).toBe(409);

    await createAgent(await t.verifiedProvider(), { name: 'edge-1' });
  });

  it('assigns gateway ports in sequence, never the same twice', async () => {
    const provider = await t.verifiedProvider();
    const first = await createAgent(provider);
    const second = await createAgent(provider);
    const third = await createAgent(await t.verifiedProvider());
    expect([second.gwServerServicePort, third.gwServerServicePort]).toEqual([
      first.gwServerServicePort + 1,
      first.gwServerServicePort + 2,
    ]);
    const ports = await t.cp.db.selectFrom('agents').select('gw_server_service_port').execute();
    expect(new Set(ports.map((p) => p.gw_server_service_port)).size).toBe(ports.length);
  });

  it('refuses an unreviewed provider and client organizations', async () => {
    const pending = await t.register('ORGANIZATION_TYPE_PROVIDER');
    const refused = await t.call<ErrorBody>('POST', '/v1/agents', { as: pending, body: agentBody() });
    expect(refused.status).toBe(412);
    expect(refused.body).toMatchObject({ code: 'FAILED_PRECONDITION', message: REVIEW_PENDING_MESSAGE });

    // An agent created before the review lapsed (or by staff) still cannot be installed from a pending org.
    const agentRow = await t.cp.db
      .insertInto('agents')
      .values({
        organization_id: pending.organizationId,
        name: 'legacy',
        description: '',
        agent_public_ip: '203.0.113.9',
        gateway_region: 'AGENT_GATEWAY_REGION_AMS01',
        hypervisor_driver: 'proxmox',
        inbound_peering_state: 'INBOUND_PEERING_STATE_PENDING',
        service_status: 'SERVICE_STATUS_OFFLINE',
        updated_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const install = await t.call<ErrorBody>('POST', `/v1/agents/${agentRow.id}:generateInstallCommand`, {
      as: pending,
      body: {},
    });
    expect(install.status).toBe(412);
    expect(install.body.message).toBe(REVIEW_PENDING_MESSAGE);

    const client = await t.register('ORGANIZATION_TYPE_CLIENT');
    for (const [method, path] of [
      ['GET', '/v1/agents'],
      ['POST', '/v1/agents'],
      ['GET', `/v1/agents/${agentRow.id}`],
    ] as const) {
      const response = await t.call<ErrorBody>(method, path, {
        as: client,
        ...(method === 'POST' && { body: agentBody() }),
      });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.code).toBe('PERMISSION_DENIED');
    }
  });

  it("hides another organization's agent as not found", async () => {
    const owner = await t.verifiedProvider();
    const agent = await createAgent(owner);
    const stranger = await t.verifiedProvider();
    for (const [method, path, body] of [
      ['GET', `/v1/agents/${agent.id}`, undefined],
      ['PATCH', `/v1/agents/${agent.id}`, { name: 'mine now' }],
      ['DELETE', `/v1/agents/${agent.id}`, undefined],
      ['POST', `/v1/agents/${agent.id}:generateInstallCommand`, {}],
      ['POST', `/v1/agents/${agent.id}:generatePeeringConfig`, {}],
      ['POST', `/v1/agents/${agent.id}:uploadInboundPeeringConfig`, { kubeconfig: 'x: 1' }],
    ] as const) {
      const response = await t.call<ErrorBody>(method, path, { as: stranger, ...(body && { body }) });
      expect(response.status, `${method} ${path}`).toBe(404);
      expect(response.body.code).toBe('NOT_FOUND');
    }
    expect(
      (await t.call<{ agent: AgentView }>('GET', `/v1/agents/${agent.id}`, { as: owner })).body.agent.name,
    ).toBe(agent.name);
    const list = await t.call<{ totalCount: number }>('GET', '/v1/agents', { as: stranger });
    expect(list.body.totalCount).toBe(0);
  });

  it('generates an install command with the agent id and a one-time token that is stored only hashed', async () => {
    const provider = await t.verifiedProvider();
    const agent = await createAgent(provider);
    const response = await t.call<{ command: string; token: string }>(
      'POST',
      `/v1/agents/${agent.id}:generateInstallCommand`,
      { as: provider },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const { command, token } = response.body;
    expect(token).toMatch(/^nri_[A-Za-z0-9_-]{43}$/);
    expect(command).toBe(
      `curl -sfL https://get.nrings.io | CLUSTER_ID=${agent.id} TOKEN=${token} LIQO_GW_SERVICE_TYPE=LoadBalancer sh -`,
    );
    const stored = await t.cp.db
      .selectFrom('install_tokens')
      .selectAll()
      .where('agent_id', '=', agent.id)
      .execute();
    expect(stored).toHaveLength(1);
    expect(Buffer.from(stored[0]?.token_hash ?? []).toString('latin1')).not.toContain(token);
    expect(stored[0]?.token_hash).toHaveLength(32);
    expect(t.logLines.some((l) => l.includes(token))).toBe(false);
  });

  it('redeems an install token once, for its own agent, before it expires', async () => {
    const provider = await t.verifiedProvider();
    const agent = await createAgent(provider);
    const other = await createAgent(provider);

    const token = await installToken(provider, agent.id);
    const wrongAgent = await redeem(other.id, token);
    expect(wrongAgent.status).toBe(401);
    expect(wrongAgent.body).toMatchObject({ code: 'UNAUTHENTICATED', message: INVALID_INSTALL_TOKEN });

    const first = await redeem(agent.id, token);
    expect(first.status).toBe(200);
    expect(first.body.agent.id).toBe(agent.id);
    expect(first.body.credential.token).toMatch(/^nra_/);
    expect(Date.parse(first.body.credential.expiresAt) - Date.now()).toBeGreaterThan(
      AGENT_CREDENTIAL_TTL_MS - 60_000,
    );
    expect(Date.parse(first.body.credential.expiresAt) - Date.now()).toBeLessThanOrEqual(
      AGENT_CREDENTIAL_TTL_MS,
    );
    const second = await redeem(agent.id, token);
    expect(second.status).toBe(401);
    expect(second.body).toMatchObject({ message: INVALID_INSTALL_TOKEN });

    const unknown = await redeem(agent.id, 'nri_not-a-token');
    expect(unknown.status).toBe(401);

    const lapsing = await installToken(provider, agent.id);
    skewMs = INSTALL_TOKEN_TTL_MS + 1_000;
    try {
      const expired = await redeem(agent.id, lapsing);
      expect(expired.status).toBe(401);
      expect(expired.body).toMatchObject({ message: INVALID_INSTALL_TOKEN });
    } finally {
      skewMs = 0;
    }
    const unused = await t.cp.db
      .selectFrom('install_tokens')
      .select('used_at')
      .where('agent_id', '=', agent.id)
      .orderBy('created_at')
      .execute();
    expect(unused.map((r) => r.used_at === null)).toEqual([false, true]);
    const credentials = await t.cp.db
      .selectFrom('access_tokens')
      .select(['kind', 'organization_id'])
      .where('agent_id', '=', agent.id)
      .execute();
    expect(credentials).toEqual([{ kind: 'agent', organization_id: provider.organizationId }]);
    expect(t.logLines.some((l) => l.includes(token) || l.includes(first.body.credential.token))).toBe(false);
  });

  it('lets exactly one of two concurrent redeems of one token succeed', async () => {
    const provider = await t.verifiedProvider();
    const agent = await createAgent(provider);
    for (let round = 0; round < 3; round += 1) {
      const token = await installToken(provider, agent.id);
      const results = await Promise.all([
        redeem(agent.id, token),
        redeem(agent.id, token),
        redeem(agent.id, token),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401]);
    }
    const minted = await t.cp.db
      .selectFrom('access_tokens')
      .select('id')
      .where('agent_id', '=', agent.id)
      .execute();
    expect(minted).toHaveLength(3);
  });

  it('gives the agent a credential for its own agent routes only', async () => {
    const provider = await t.verifiedProvider();
    const agent = await createAgent(provider);
    const sibling = await createAgent(provider);
    const redeemed = await redeem(agent.id, await installToken(provider, agent.id));
    const asAgent: Caller = { token: redeemed.body.credential.token };

    const own = await t.call<{ agent: AgentView }>('GET', `/v1/agents/${agent.id}`, { as: asAgent });
    expect(own.status).toBe(200);
    expect(own.body.agent.id).toBe(agent.id);
    const config = await t.call<{ config: string }>('POST', `/v1/agents/${agent.id}:generatePeeringConfig`, {
      as: asAgent,
      body: {},
    });
    expect(config.status).toBe(200);
    const upload = await t.call('POST', `/v1/agents/${agent.id}:uploadInboundPeeringConfig`, {
      as: asAgent,
      body: { kubeconfig: 'not: [a kubeconfig' },
    });
    expect(upload.status).toBe(400);
    expect(fieldsOf(upload.body)).toEqual(['kubeconfig']);

    for (const [method, path, body] of [
      ['GET', `/v1/agents/${sibling.id}`, undefined],
      ['POST', `/v1/agents/${sibling.id}:uploadInboundPeeringConfig`, { kubeconfig: 'x: 1' }],
      ['GET', '/v1/agents', undefined],
      ['PATCH', `/v1/agents/${agent.id}`, { name: 'renamed by the agent' }],
      ['DELETE', `/v1/agents/${agent.id}`, undefined],
      ['POST', `/v1/agents/${agent.id}:generateInstallCommand`, {}],
      ['GET', '/v1/regions', undefined],
      ['GET', '/v1/platforms', undefined],
    ] as const) {
      const response = await t.call<ErrorBody>(method, path, { as: asAgent, ...(body && { body }) });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(response.body.code).toBe('PERMISSION_DENIED');
    }
    const elsewhere = await t.call('GET', `/v1/agents/${agent.id}`, {
      as: { ...asAgent, organizationId: (await t.verifiedProvider()).organizationId },
    });
    expect(elsewhere.status).toBe(403);
  });

  it('generates a peering kubeconfig with a fresh agent token for the tenant namespace', async () => {
    const provider = await t.verifiedProvider();
    const agent = await createAgent(provider);
    const response = await t.call<{ config: string }>(
      'POST',
      `/v1/agents/${agent.id}:generatePeeringConfig`,
      {
        as: provider,
        body: {},
      },
    );
    expect(response.status).toBe(200);
    const { parse } = await import('yaml');
    const config = parse(response.body.config) as {
      clusters: { cluster: { server: string } }[];
      contexts: { context: { namespace: string } }[];
      users: { user: { token: string } }[];
      'current-context': string;
    };
    expect(config.clusters[0]?.cluster.server).toBe('https://peering.noderings.invalid:6443');
    expect(config.contexts[0]?.context.namespace).toBe(`liqo-tenant-${agent.id}`);
    const token = config.users[0]?.user.token ?? '';
    expect(token).toMatch(/^nra_/);
    const asAgent = await t.call('GET', `/v1/agents/${agent.id}`, { as: { token } });
    expect(asAgent.status).toBe(200);
    expect(t.logLines.some((l) => l.includes(token))).toBe(false);
  });

  it('refuses to delete an agent a platform still uses', async () => {
    const provider = await t.verifiedProvider();
    const agent = await createAgent(provider);
    const platform = await t.call<{ platform: { id: string } }>('POST', '/v1/platform', {
      as: provider,
      body: {
        name: 'pve',
        endpointUrl: 'https://pve.example.test:8006',
        driver: 'PLATFORM_DRIVER_PROXMOX',
        agentId: agent.id,
      },
    });
    expect(platform.status).toBe(201);
    const refused = await t.call<ErrorBody>('DELETE', `/v1/agents/${agent.id}`, { as: provider });
    expect(refused.status).toBe(412);
    expect(refused.body.code).toBe('FAILED_PRECONDITION');
    await t.call('POST', `/v1/platforms/${platform.body.platform.id}:UnassignAgent`, {
      as: provider,
      body: { agentId: agent.id },
    });
    expect((await t.call('DELETE', `/v1/agents/${agent.id}`, { as: provider })).status).toBe(200);
  });

  it('records mutating calls in the audit trail', async () => {
    const provider = await t.verifiedProvider();
    const agent = await createAgent(provider);
    await installToken(provider, agent.id);
    await expect
      .poll(() =>
        t.cp.db
          .selectFrom('audit_events')
          .select(['action', 'target_id', 'status_code'])
          .where('organization_id', '=', provider.organizationId)
          .where('action', 'like', 'agent.%')
          .orderBy('created_at')
          .execute(),
      )
      .toEqual([
        { action: 'agent.create', target_id: agent.id, status_code: 201 },
        { action: 'agent.generateInstallCommand', target_id: agent.id, status_code: 200 },
      ]);
  });
});

describe.each(DATABASE_KINDS)('gateway port exhaustion on the %s database', (kind) => {
  let t: TestControlPlane;
  beforeAll(async () => {
    t = await startTestControlPlane(kind);
  });
  afterAll(() => t.close());

  it('answers RESOURCE_EXHAUSTED once the last gateway port is taken', async () => {
    const provider = await t.verifiedProvider();
    await sql`ALTER SEQUENCE agent_gateway_port RESTART WITH 32767`.execute(t.cp.db);
    const last = await t.call<{ agent: AgentView }>('POST', '/v1/agents', {
      as: provider,
      body: agentBody(),
    });
    expect(last.status).toBe(201);
    expect(last.body.agent.gwServerServicePort).toBe(32767);
    const refused = await t.call<ErrorBody>('POST', '/v1/agents', { as: provider, body: agentBody() });
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('RESOURCE_EXHAUSTED');
    expect(refused.body.message).toMatch(/gateway service port/);
  });
});
