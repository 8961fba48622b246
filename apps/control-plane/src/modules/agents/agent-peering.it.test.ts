import { randomBytes } from 'node:crypto';
import { request } from 'node:https';
import { createServer, type AddressInfo, type Socket } from 'node:net';

import { installCrds, KubeClient } from '@noderings/kube';
import { startKubeSim, type KubeSim } from '@noderings/kube-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { SecretBox } from '../../crypto/secret-box.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';
import { AgentRepository } from './agent.repository.js';
import { AgentService } from './agent.service.js';
import { AgentTokenRepository } from './agent-token.repository.js';
import {
  inboundPeeringCheck,
  PEERING_CHECK_TIMEOUT_MS,
  unreachableMessage,
} from './inbound-peering-check.js';

interface PeeringStatus {
  inboundPeeringState: string;
  inboundPeeringError: string;
}

const RBAC = '/apis/rbac.authorization.k8s.io/v1';

/** The admin's raw call to the simulator, for what KubeClient has no method for (TokenRequest, RBAC). */
function kubeApi(
  sim: KubeSim,
  method: string,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(
      `${sim.url}${path}`,
      {
        method,
        ca: sim.caPem,
        headers: {
          authorization: `Bearer ${sim.adminToken}`,
          'content-type': 'application/json',
          'content-length': String(payload.length),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if ((res.statusCode ?? 500) >= 300) reject(new Error(`${method} ${path}: ${text}`));
          else resolve(JSON.parse(text) as Record<string, unknown>);
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function kubeconfig(input: {
  server: string;
  token: string;
  caPem?: string | undefined;
  cluster?: Record<string, unknown>;
  user?: Record<string, unknown>;
}): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'agent-cluster',
        cluster: {
          server: input.server,
          ...(input.caPem !== undefined && {
            'certificate-authority-data': Buffer.from(input.caPem).toString('base64'),
          }),
          ...input.cluster,
        },
      },
    ],
    users: [{ name: 'noderings', user: { token: input.token, ...input.user } }],
    contexts: [{ name: 'agent', context: { cluster: 'agent-cluster', user: 'noderings' } }],
    'current-context': 'agent',
  });
}

describe.each(DATABASE_KINDS)('inbound peering against kube-sim on the %s database', (kind) => {
  const secretKey = randomBytes(32);
  let sim: KubeSim | undefined;
  let admin: KubeClient;
  let t: TestControlPlane | undefined;
  /** The control plane's internal side, opened with the key it seals with. */
  let service: AgentService;
  let provider: Caller;

  beforeAll(async () => {
    sim = await startKubeSim({ listen: '127.0.0.1:0' });
    admin = new KubeClient({ kubeconfigYaml: sim.kubeconfigYaml });
    await installCrds(admin.customResourceDefinitions);
    t = await startTestControlPlane(kind, { secretKey });
    service = new AgentService({
      agents: new AgentRepository(t.cp.db),
      tokens: new AgentTokenRepository(t.cp.db),
      secretBox: new SecretBox(secretKey),
      checkPeering: inboundPeeringCheck({ allowPrivateDestinations: true }),
      now: () => new Date(),
      installScriptUrl: 'https://get.nrings.io',
      peeringApiServerUrl: 'https://peering.noderings.invalid:6443',
      allowPrivateDestinations: true,
    });
    provider = await t.verifiedProvider();
  });
  afterAll(async () => {
    try {
      await admin.close();
      await t?.close();
    } finally {
      await sim?.close();
    }
  });

  function cp(): TestControlPlane {
    if (t === undefined) throw new Error('control plane not started');
    return t;
  }
  function kube(): KubeSim {
    if (sim === undefined) throw new Error('kube-sim not started');
    return sim;
  }

  /** A new agent with its operator namespace on the simulated agent cluster. */
  async function newAgent(): Promise<string> {
    const created = await cp().call<{ agent: { id: string } }>('POST', '/v1/agents', {
      as: provider,
      body: {
        name: `agent ${randomBytes(4).toString('hex')}`,
        agentPublicIp: '198.51.100.20',
        gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
        hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
      },
    });
    expect(created.status).toBe(201);
    const id = created.body.agent.id;
    await admin.namespaces.create({ metadata: { name: `${id}-operator` } });
    return id;
  }

  /** A service account token in the operator namespace, with the dispatcher's Role or with no Role at all. */
  async function serviceAccountToken(agentId: string, name: string, canReadOrders: boolean): Promise<string> {
    const namespace = `${agentId}-operator`;
    await kubeApi(kube(), 'POST', `/api/v1/namespaces/${namespace}/serviceaccounts`, { metadata: { name } });
    if (canReadOrders) {
      await kubeApi(kube(), 'POST', `${RBAC}/namespaces/${namespace}/roles`, {
        metadata: { name },
        rules: [
          { apiGroups: ['vm.noderings.com'], resources: ['proxmoxvms'], verbs: ['get', 'list', 'watch'] },
        ],
      });
      await kubeApi(kube(), 'POST', `${RBAC}/namespaces/${namespace}/rolebindings`, {
        metadata: { name },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
        subjects: [{ kind: 'ServiceAccount', name, namespace }],
      });
    }
    const issued = await kubeApi(
      kube(),
      'POST',
      `/api/v1/namespaces/${namespace}/serviceaccounts/${name}/token`,
      {
        apiVersion: 'authentication.k8s.io/v1',
        kind: 'TokenRequest',
        spec: { expirationSeconds: 3600 },
      },
    );
    const token = (issued.status as { token?: unknown } | undefined)?.token;
    if (typeof token !== 'string') throw new Error('no token in the TokenRequest answer');
    return token;
  }

  function upload(agentId: string, text: string, as: Caller = provider) {
    return cp().call<PeeringStatus>('POST', `/v1/agents/${agentId}:uploadInboundPeeringConfig`, {
      as,
      body: { kubeconfig: text },
    });
  }

  async function storedRow(agentId: string) {
    return cp()
      .cp.db.selectFrom('agents')
      .select([
        'inbound_peering_state',
        'inbound_peering_error',
        'provisioned',
        'inbound_kubeconfig_ciphertext',
      ])
      .where('id', '=', agentId)
      .executeTakeFirstOrThrow();
  }

  it('peers with a working kubeconfig uploaded by the installer, and keeps it sealed', async () => {
    const agentId = await newAgent();
    const install = await cp().call<{ token: string }>(
      'POST',
      `/v1/agents/${agentId}:generateInstallCommand`,
      {
        as: provider,
        body: {},
      },
    );
    const redeemed = await cp().call<{ credential: { token: string } }>(
      'POST',
      `/v1/agents/${agentId}:redeemInstallToken`,
      { body: { token: install.body.token } },
    );
    const token = await serviceAccountToken(agentId, 'noderings', true);

    const response = await upload(agentId, kubeconfig({ server: kube().url, token, caPem: kube().caPem }), {
      token: redeemed.body.credential.token,
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      inboundPeeringState: 'INBOUND_PEERING_STATE_READY',
      inboundPeeringError: '',
    });
    const agent = await cp().call<{ agent: Record<string, unknown> }>('GET', `/v1/agents/${agentId}`, {
      as: provider,
    });
    expect(agent.body.agent).toMatchObject({
      provisioned: true,
      inboundPeeringState: 'INBOUND_PEERING_STATE_READY',
    });
    expect(JSON.stringify(agent.body)).not.toContain(token);

    const row = await storedRow(agentId);
    expect(row.inbound_kubeconfig_ciphertext).toMatch(/^v1\./);
    expect(row.inbound_kubeconfig_ciphertext).not.toContain(token);
    const opened = await service.inboundKubeconfig(agentId);
    expect(opened).toContain(token);
    const reloaded = new KubeClient({ kubeconfigYaml: opened });
    try {
      expect((await reloaded.proxmoxVMs.list(`${agentId}-operator`)).items).toEqual([]);
    } finally {
      await reloaded.close();
    }

    // Sealed for this agent only: the same ciphertext on another agent's row does not open.
    const other = await newAgent();
    await cp()
      .cp.db.updateTable('agents')
      .set({ inbound_kubeconfig_ciphertext: row.inbound_kubeconfig_ciphertext })
      .where('id', '=', other)
      .execute();
    await expect(service.inboundKubeconfig(other)).rejects.toThrow();
    expect(cp().logLines.some((l) => l.includes(token) || l.includes(install.body.token))).toBe(false);
  });

  it('fails with the cluster’s reason when the token may not list orders, and unprovisions the agent', async () => {
    const agentId = await newAgent();
    const good = await serviceAccountToken(agentId, 'noderings', true);
    expect(
      (await upload(agentId, kubeconfig({ server: kube().url, token: good, caPem: kube().caPem }))).body
        .inboundPeeringState,
    ).toBe('INBOUND_PEERING_STATE_READY');

    const powerless = await serviceAccountToken(agentId, 'nobody', false);
    const response = await upload(
      agentId,
      kubeconfig({ server: kube().url, token: powerless, caPem: kube().caPem }),
    );
    expect(response.status).toBe(200);
    expect(response.body.inboundPeeringState).toBe('INBOUND_PEERING_STATE_FAILED');
    expect(response.body.inboundPeeringError).toContain(
      `listing ProxmoxVMs in ${agentId}-operator failed: 403 Forbidden`,
    );
    expect(response.body.inboundPeeringError).toContain('cannot list resource "proxmoxvms"');
    expect(response.body.inboundPeeringError).not.toContain(powerless);
    const row = await storedRow(agentId);
    expect(row).toMatchObject({ provisioned: false, inbound_peering_state: 'INBOUND_PEERING_STATE_FAILED' });
    expect(cp().logLines.some((l) => l.includes(powerless) || l.includes(good))).toBe(false);
  });

  it('keeps TLS verification on: a kubeconfig without the cluster CA fails', async () => {
    const agentId = await newAgent();
    const token = await serviceAccountToken(agentId, 'noderings', true);
    const response = await upload(agentId, kubeconfig({ server: kube().url, token }));
    expect(response.body.inboundPeeringState).toBe('INBOUND_PEERING_STATE_FAILED');
    // Said as every other failure to reach it: a TLS error would tell a scanner what listens there.
    expect(response.body.inboundPeeringError).toBe(
      `listing ProxmoxVMs in ${agentId}-operator failed: ${unreachableMessage(kube().url)}`,
    );
  });

  it('fails fast on a refused connection and within the timeout on a server that never answers', async () => {
    const agentId = await newAgent();
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    const refused = await upload(
      agentId,
      kubeconfig({
        server: `https://127.0.0.1:${String(closedPort)}`,
        token: 'tok-refused',
        caPem: kube().caPem,
      }),
    );
    expect(refused.body.inboundPeeringState).toBe('INBOUND_PEERING_STATE_FAILED');
    expect(refused.body.inboundPeeringError).toBe(
      `listing ProxmoxVMs in ${agentId}-operator failed: ${unreachableMessage(`https://127.0.0.1:${String(closedPort)}`)}`,
    );

    const held = new Set<Socket>();
    const blackHole = createServer((socket) => held.add(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    try {
      const server = `https://127.0.0.1:${String((blackHole.address() as AddressInfo).port)}`;
      const started = Date.now();
      const silent = await upload(agentId, kubeconfig({ server, token: 'tok-silent', caPem: kube().caPem }));
      const elapsed = Date.now() - started;
      expect(silent.body).toEqual({
        inboundPeeringState: 'INBOUND_PEERING_STATE_FAILED',
        inboundPeeringError: `listing ProxmoxVMs in ${agentId}-operator failed: ${unreachableMessage(server)}`,
      });
      // The check gave the server its whole timeout before failing (an upper bound would only measure the machine).
      expect(elapsed).toBeGreaterThanOrEqual(PEERING_CHECK_TIMEOUT_MS - 100);
    } finally {
      for (const socket of held) socket.destroy();
      await new Promise<void>((resolve) =>
        blackHole.close(() => {
          resolve();
        }),
      );
    }
  });

  it('refuses documents that are not usable kubeconfigs and changes nothing', async () => {
    const agentId = await newAgent();
    const token = await serviceAccountToken(agentId, 'noderings', true);
    const good = { server: kube().url, token, caPem: kube().caPem };
    expect((await upload(agentId, kubeconfig(good))).body.inboundPeeringState).toBe(
      'INBOUND_PEERING_STATE_READY',
    );
    const before = await storedRow(agentId);

    const refused = [
      'clusters: [unclosed',
      'just some words',
      '[]',
      kubeconfig({ ...good, server: kube().url.replace('https:', 'http:') }),
      kubeconfig({ ...good, cluster: { 'insecure-skip-tls-verify': true } }),
      kubeconfig({ ...good, cluster: { 'certificate-authority': '/etc/ssl/private/key.pem' } }),
      kubeconfig({ ...good, cluster: { 'proxy-url': 'http://127.0.0.1:3128' } }),
      kubeconfig({
        ...good,
        user: { exec: { apiVersion: 'client.authentication.k8s.io/v1', command: 'touch' } },
      }),
      kubeconfig({ ...good, user: { tokenFile: '/var/run/secrets/token' } }),
      kubeconfig({ ...good, token: '' }),
      kubeconfig(good).replace('current-context: agent', 'current-context: elsewhere'),
    ];
    for (const text of refused) {
      const response = await upload(agentId, text);
      expect(response.status, text).toBe(400);
      const details = (
        response.body as unknown as {
          details: { fieldViolations: { field: string; description: string }[] }[];
        }
      ).details;
      expect(
        details[0]?.fieldViolations.map((v) => v.field),
        text,
      ).toEqual(['kubeconfig']);
      expect(JSON.stringify(response.body)).not.toContain(token);
    }
    expect(await storedRow(agentId)).toEqual(before);
  });
});
