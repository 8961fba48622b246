import { createServer, type AddressInfo } from 'node:net';
import { request } from 'node:https';
import { TLSSocket } from 'node:tls';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from './sandbox.js';

const START_TIMEOUT_MS = 90_000;

/** The sandbox as a newcomer meets it: over HTTP, with the printed credentials and nothing else. */
async function api(
  sandbox: Sandbox,
  method: 'GET' | 'POST',
  path: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${sandbox.controlPlaneUrl}${path}`, {
    method,
    headers: {
      ...(options.token !== undefined && { authorization: `Bearer ${options.token}` }),
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  return { status: response.status, body: await response.json() };
}

async function signIn(sandbox: Sandbox, account: { email: string; password: string }) {
  const login = await api(sandbox, 'POST', '/v1/auth/login', {
    body: { email: account.email, password: account.password },
  });
  expect(login.status).toBe(200);
  return login.body as { token: string; organizationId: string };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('the sandbox', () => {
  let sandbox: Sandbox | undefined;

  beforeAll(async () => {
    sandbox = await startSandbox({ database: { inMemory: true } });
  }, START_TIMEOUT_MS);
  afterAll(async () => {
    await sandbox?.close();
  });

  function started(): Sandbox {
    if (sandbox === undefined) throw new Error('the sandbox did not start');
    return sandbox;
  }

  it('lets the provider sign in and see its agent peered, its platform and the three nodes', async () => {
    const s = started();
    const { token, organizationId } = await signIn(s, s.credentials.provider);
    expect(organizationId).toBe(s.credentials.provider.organizationId);

    const agents = await api(s, 'GET', '/v1/agents', { token });
    expect(agents).toMatchObject({
      status: 200,
      body: {
        totalCount: 1,
        agents: [
          {
            agent: {
              id: s.seeded.agent.id,
              provisioned: true,
              inboundPeeringState: 'INBOUND_PEERING_STATE_READY',
              inboundPeeringError: '',
            },
          },
        ],
      },
    });

    const platforms = await api(s, 'GET', '/v1/platforms', { token });
    expect(platforms).toMatchObject({
      status: 200,
      body: {
        totalCount: 1,
        platforms: [
          {
            endpointUrl: s.pveUrl,
            driver: 'PLATFORM_DRIVER_PROXMOX',
            agentId: s.seeded.agent.id,
            agentProvisioned: true,
            // Reported by the sandbox's metrics forwarding before it was ready.
            serviceStatus: 'SERVICE_STATUS_ONLINE',
          },
        ],
      },
    });

    const nodes = await api(s, 'GET', '/v1/nodes', { token });
    expect(nodes).toMatchObject({ status: 200, body: { totalCount: 3 } });
    const listed = (nodes.body as { nodes: { node: { name: string; vmidSeed: number } }[] }).nodes.map(
      (n) => n.node,
    );
    expect(listed.map((n) => n.name).sort()).toEqual(['pve1', 'pve2', 'pve3']);
    for (const node of listed) {
      expect(node).toMatchObject({
        platformId: s.seeded.platform.id,
        regionId: s.seeded.region.id,
        vmStorageDestination: 'local-lvm',
        backupStorageDestination: 'local',
        backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
        serviceStatus: 'SERVICE_STATUS_ONLINE',
        // pve-sim's default nodes, as its metrics report them.
        inventory: {
          cpuCores: 16,
          memoryBytes: 64 * 1024 ** 3,
          storagePools: expect.arrayContaining([
            expect.objectContaining({ storageId: 'local-lvm' }),
          ]) as unknown,
        },
      });
    }
    // A Proxmox cluster shares one VMID space: no two nodes may hand out the same VMIDs.
    expect(new Set(listed.map((n) => n.vmidSeed)).size).toBe(3);
  });

  it('lets staff sign in and find the provider verified', async () => {
    const s = started();
    const { token } = await signIn(s, s.credentials.staff);
    const organizations = await api(s, 'GET', '/v1/staff/organizations', { token });
    expect(organizations.status).toBe(200);
    expect((organizations.body as { organizations: unknown[] }).organizations).toContainEqual(
      expect.objectContaining({ id: s.credentials.provider.organizationId, isVerified: true }),
    );
  });

  it('serves the simulated Proxmox VE with the printed token and certificate fingerprint', async () => {
    const s = started();
    const answer = await new Promise<{ status: number; fingerprint: string; body: string }>(
      (resolve, reject) => {
        const req = request(
          `${s.pveUrl}/api2/json/nodes`,
          {
            headers: { authorization: `PVEAPIToken=${s.pveToken.id}=${s.pveToken.secret}` },
            // The certificate is self-signed: the printed fingerprint is how a client pins it.
            rejectUnauthorized: false,
          },
          (res) => {
            const fingerprint =
              res.socket instanceof TLSSocket ? res.socket.getPeerCertificate().fingerprint256 : '';
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () => {
              resolve({ status: res.statusCode ?? 0, fingerprint, body });
            });
          },
        );
        req.on('error', reject);
        req.end();
      },
    );
    expect(answer.status).toBe(200);
    expect(answer.fingerprint).toBe(s.pveFingerprint);
    expect(JSON.parse(answer.body) as unknown).toMatchObject({
      data: expect.arrayContaining([expect.objectContaining({ node: 'pve1' })]) as unknown,
    });
  });
});

describe('a sandbox that cannot start', () => {
  it(
    'closes the simulators it had started',
    async () => {
      const taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
      const pvePort = await freePort();
      const kubePort = await freePort();
      try {
        await expect(
          startSandbox({
            database: { inMemory: true },
            listen: { host: '127.0.0.1', port: (taken.address() as AddressInfo).port },
            pveListen: { host: '127.0.0.1', port: pvePort },
            kubeListen: { host: '127.0.0.1', port: kubePort },
          }),
        ).rejects.toMatchObject({ code: 'EADDRINUSE' });
        // Both ports are free again: nothing is left listening after the failed start.
        for (const port of [pvePort, kubePort]) {
          const again = createServer();
          await new Promise<void>((resolve, reject) => {
            again.once('error', reject);
            again.listen(port, '127.0.0.1', resolve);
          });
          await new Promise((resolve) => again.close(resolve));
        }
      } finally {
        await new Promise((resolve) => taken.close(resolve));
      }
    },
    START_TIMEOUT_MS,
  );
});
