import { createServer, type AddressInfo, type Socket } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  startTestControlPlane,
  type Caller,
  type TestControlPlane,
} from '../../control-plane.test-support.js';
import { DATABASE_KINDS } from '../../db/test-database.test-support.js';

function kubeconfig(server: string): string {
  return `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: '${server}'}}]
users: [{name: u, user: {token: tok-probe}}]
contexts: [{name: x, context: {cluster: c, user: u}}]
current-context: x
`;
}

describe.each(DATABASE_KINDS)('where the kubeconfig upload dials, on the %s database', (kind) => {
  let t: TestControlPlane;
  let provider: Caller;
  let agentId: string;
  const connections: Socket[] = [];
  const listener = createServer((socket) => {
    connections.push(socket);
    socket.destroy();
  });
  let port: number;
  beforeAll(async () => {
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as AddressInfo).port;
    // As in production: the development flag is off.
    t = await startTestControlPlane(kind, { allowPrivateDestinations: false });
    provider = await t.verifiedProvider();
    const agent = await t.call<{ agent: { id: string } }>('POST', '/v1/agents', {
      as: provider,
      body: {
        name: 'probe',
        agentPublicIp: '185.12.64.10',
        gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
        hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
      },
    });
    agentId = agent.body.agent.id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    await new Promise<void>((resolve) =>
      listener.close(() => {
        resolve();
      }),
    );
  });

  it.each([
    ['127.0.0.1', (p: number) => `https://127.0.0.1:${String(p)}`],
    ['localhost', (p: number) => `https://localhost:${String(p)}`],
    ['IPv4-mapped loopback', (p: number) => `https://[::ffff:127.0.0.1]:${String(p)}`],
    ['a private address', (p: number) => `https://10.0.0.1:${String(p)}`],
    ['the metadata address', (p: number) => `https://169.254.169.254:${String(p)}`],
  ])('never dials %s, and says only that it is not public', async (_name, serverAt) => {
    const server = serverAt(port);
    const response = await t.call<{ inboundPeeringState: string; inboundPeeringError: string }>(
      'POST',
      `/v1/agents/${agentId}:uploadInboundPeeringConfig`,
      { as: provider, body: { kubeconfig: kubeconfig(server) } },
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.inboundPeeringState).toBe('INBOUND_PEERING_STATE_FAILED');
    expect(response.body.inboundPeeringError).toContain('public addresses only');
    expect(response.body.inboundPeeringError).not.toMatch(/ECONN|EPROTO|TLS|SSL|certificate|socket|hang up/i);
    expect(connections).toHaveLength(0);
  });
});
