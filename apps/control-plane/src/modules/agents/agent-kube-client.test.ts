import { createServer, type Server } from 'node:net';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AgentCluster } from '../dispatch/agent-cluster.js';
import { readAgentInventory } from '../proxmox-inventory/index.js';
import { agentKubeClient } from './public-destination.js';

/** A listener on loopback that only counts the connections it is offered, answering none. */
let listener: Server;
let connections = 0;
let port = 0;

beforeAll(async () => {
  listener = createServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const address = listener.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  port = address.port;
});

afterAll(async () => {
  await new Promise<void>((resolve) =>
    listener.close(() => {
      resolve();
    }),
  );
});

function kubeconfigFor(host: string): string {
  return `apiVersion: v1
kind: Config
clusters:
  - name: agent
    cluster:
      server: http://${host}:${String(port)}
      insecure-skip-tls-verify: true
users:
  - name: agent
    user:
      token: secret-token
contexts:
  - name: agent
    context: { cluster: agent, user: agent }
current-context: agent
`;
}

const guarded = { allowPrivateDestinations: false };

describe.each([
  ['an address literal', '127.0.0.1'],
  ['a host name that resolves to loopback', 'localhost'],
])('a stored kubeconfig naming %s', (_what, host) => {
  it('is never dialled by a request', async () => {
    const before = connections;
    const kube = agentKubeClient(kubeconfigFor(host), guarded);
    try {
      await expect(kube.proxmoxVMs.list('agent-operator', { limit: 1 })).rejects.toThrow();
    } finally {
      await kube.close();
    }
    expect(connections).toBe(before);
  });

  it('is never dialled by a watch', async () => {
    const before = connections;
    const kube = agentKubeClient(kubeconfigFor(host), guarded);
    try {
      await expect(
        kube.proxmoxVMs.watch('agent-operator', {}, () => undefined, AbortSignal.timeout(5_000)),
      ).rejects.toThrow();
    } finally {
      await kube.close();
    }
    expect(connections).toBe(before);
  });

  it('is never dialled by the dispatcher', async () => {
    const before = connections;
    const cluster = new AgentCluster('agent', kubeconfigFor(host), guarded);
    try {
      await expect(cluster.findOrder('vm-1', AbortSignal.timeout(5_000))).rejects.toThrow();
      await expect(
        cluster.kube.proxmoxVMs.watch(cluster.namespace, {}, () => undefined, AbortSignal.timeout(5_000)),
      ).rejects.toThrow();
    } finally {
      await cluster.close();
    }
    expect(connections).toBe(before);
  });

  it('is never dialled by the Proxmox inventory sync', async () => {
    const before = connections;
    const reading = await readAgentInventory('agent', kubeconfigFor(host), guarded);
    expect(reading).toEqual({ reported: false, why: 'the agent cluster did not answer' });
    expect(connections).toBe(before);
  });

  it('is dialled, by requests and watches, when private destinations are allowed (development)', async () => {
    const before = connections;
    const kube = agentKubeClient(kubeconfigFor(host), { allowPrivateDestinations: true });
    try {
      await expect(kube.proxmoxVMs.list('agent-operator', { limit: 1 })).rejects.toThrow();
      expect(connections).toBeGreaterThan(before);
      const afterRequest = connections;
      await kube.proxmoxVMs
        .watch('agent-operator', {}, () => undefined, AbortSignal.timeout(5_000))
        .catch(() => undefined);
      expect(connections).toBeGreaterThan(afterRequest);
    } finally {
      await kube.close();
    }
  });
});
