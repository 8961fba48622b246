import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { renderPrometheusConfig } from '@noderings/deploy';
import { forwardingDecision } from '@noderings/domain';
import { createProxmoxClient, type ProxmoxClient } from '@noderings/proxmox';
import { decodeWriteRequest, type TimeSeries } from '@noderings/remote-write';
import { startPrometheus, type PrometheusProcess } from '@noderings/remote-write/prometheus-process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startSandbox, type Sandbox } from './sandbox.js';

/**
 * The agent's metrics path end to end with a real Prometheus in agent mode: it scrapes the exporter with
 * the configuration `deploy` renders from the forwarding rules and remote-writes to the control plane,
 * through a proxy here that records every request it relays.
 */

const START_TIMEOUT_MS = 60_000;
const TEST_TIMEOUT_MS = 60_000;

interface Recorded {
  readonly labels: Record<string, string>;
  readonly samples: TimeSeries['samples'];
}

async function until<T>(what: string, probe: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 45_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Relays remote-write requests to `target`, decoding and keeping each series on the way. */
async function startRecordingProxy(target: string, recorded: Recorded[]): Promise<Server> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      for (const s of decodeWriteRequest(body).timeseries)
        recorded.push({
          labels: Object.fromEntries(s.labels.map((l) => [l.name, l.value])),
          samples: s.samples,
        });
      const headers: Record<string, string> = {};
      for (const name of [
        'authorization',
        'content-type',
        'content-encoding',
        'x-prometheus-remote-write-version',
      ])
        if (typeof request.headers[name] === 'string') headers[name] = request.headers[name];
      fetch(target, { method: 'POST', headers, body })
        .then(async (answer) => {
          const text = await answer.text();
          response.writeHead(answer.status).end(text);
        })
        .catch(() => response.writeHead(502).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('metrics from a real Prometheus in agent mode, with the rendered configuration', () => {
  let sandbox: Sandbox | undefined;
  let prometheus: PrometheusProcess | undefined;
  let proxy: Server | undefined;
  let pve: ProxmoxClient | undefined;
  let dir: string | undefined;
  const recorded: Recorded[] = [];
  const nrName = `NR-${randomUUID()}`;
  const NR_VMID = 1500;
  let token = '';

  beforeAll(async () => {
    const s = (sandbox = await startSandbox({ forwardMetrics: false, log: () => undefined }));
    // A guest of NodeRings' beside pve-sim's own lab guests (`lab-1`, VMID 100, on pve1).
    pve = createProxmoxClient({
      baseUrl: s.pveUrl,
      token: `${s.pveToken.id}=${s.pveToken.secret}`,
      tls: { fingerprint: s.pveFingerprint },
    });
    await pve.waitForTask('pve1', await pve.cloneVm('pve1', 9000, { newid: NR_VMID, name: nrName }));
    await pve.waitForTask('pve1', await pve.startVm('pve1', NR_VMID));

    const login = await fetch(`${s.controlPlaneUrl}/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        email: s.credentials.provider.email,
        password: s.credentials.provider.password,
      }),
    });
    const session = (await login.json()) as { token: string };
    const created = await fetch(`${s.controlPlaneUrl}/v1/metrics-credentials`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        authorization: `Bearer ${session.token}`,
        'x-organization-id': s.seeded.provider.organizationId,
      },
      body: JSON.stringify({ agentId: s.seeded.provider.agent.id }),
    });
    const createdBody = (await created.json()) as { token?: string };
    if (createdBody.token === undefined)
      throw new Error(`metrics credential: ${JSON.stringify(createdBody)}`);
    token = createdBody.token;
    dir = await mkdtemp(join(tmpdir(), 'nr-metrics-pipeline-'));
    const tokenFile = join(dir, 'metrics-token');
    await writeFile(tokenFile, token, { mode: 0o600 });

    proxy = await startRecordingProxy(`${s.controlPlaneUrl}/api/v1/write`, recorded);
    const config = renderPrometheusConfig({
      exporter: new URL(s.exporterUrl).host,
      platformEndpoint: new URL(s.pveUrl).host,
      agentId: s.seeded.provider.agent.id,
      remoteWriteUrl: `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}/api/v1/write`,
      bearerTokenFile: tokenFile,
      scrapeInterval: '1s',
    });
    prometheus = await startPrometheus({ config, mode: 'agent' });
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    await prometheus?.stop();
    const relay = proxy;
    if (relay !== undefined) await new Promise((resolve) => relay.close(resolve));
    await pve?.close();
    await sandbox?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it(
    "forwards only NR guests' per-guest series and the node, cluster and storage series, labelled",
    async () => {
      const s = sandbox;
      if (s === undefined) throw new Error('the sandbox did not start');
      await until('the NR guest and the nodes to arrive', () => {
        const ids = new Set(recorded.filter((r) => r.labels.__name__ === 'pve_up').map((r) => r.labels.id));
        return ids.has(`qemu/${String(NR_VMID)}`) &&
          ids.has('node/pve3') &&
          recorded.some((r) => r.labels.__name__ === 'non_nr_pve_memory_size_bytes')
          ? true
          : undefined;
      });
      const instance = new URL(s.pveUrl).host;
      for (const r of recorded) {
        expect(r.labels).toMatchObject({ instance, agent_id: s.seeded.provider.agent.id, job: 'pve' });
        expect(forwardingDecision(r.labels.__name__ ?? '', r.labels)).toEqual({ forward: true });
        if (/^(qemu|lxc)\//.test(r.labels.id ?? '')) expect(r.labels.name).toBe(nrName);
      }
      const names = new Set(recorded.map((r) => r.labels.__name__));
      expect(names).toContain('pve_cpu_usage_ratio');
      expect(names).toContain('pve_network_transmit_bytes_total');
      expect(names).not.toContain('pve_ha_state');
      expect(names).not.toContain('pve_lock_state');
      const ids = new Set(recorded.map((r) => r.labels.id));
      for (const id of ['node/pve1', 'cluster/sim', 'storage/pve1/local-lvm', `qemu/${String(NR_VMID)}`])
        expect(ids).toContain(id);
      // pve-sim's lab guests and templates never leave the provider's network.
      for (const id of ['qemu/100', 'qemu/101', 'qemu/9000']) expect(ids).not.toContain(id);
      // Their use arrives only as the per-node non-NR sums: lab-1 has 4 GiB on pve1.
      const nonNr = recorded.find(
        (r) => r.labels.__name__ === 'non_nr_pve_memory_size_bytes' && r.labels.node === 'pve1',
      );
      expect(nonNr?.samples[0]?.value).toBe(4 * 1024 ** 3);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'brings the platform online and syncs node inventory in the control plane',
    async () => {
      const s = sandbox;
      if (s === undefined) throw new Error('the sandbox did not start');
      const login = await fetch(`${s.controlPlaneUrl}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          email: s.credentials.provider.email,
          password: s.credentials.provider.password,
        }),
      });
      const session = (await login.json()) as { token: string };
      const get = async (path: string) =>
        (await fetch(`${s.controlPlaneUrl}${path}`, {
          headers: {
            authorization: `Bearer ${session.token}`,
            'x-organization-id': s.seeded.provider.organizationId,
          },
        }).then((r) => r.json())) as Record<string, unknown>;
      await until('the platform to be online', async () => {
        const platforms = (await get('/v1/platforms')) as { platforms: { serviceStatus: string }[] };
        return platforms.platforms[0]?.serviceStatus === 'SERVICE_STATUS_ONLINE' ? true : undefined;
      });
      const nodes = (await get('/v1/nodes')) as {
        nodes: { node: { name: string; serviceStatus: string; inventory: Record<string, unknown> } }[];
      };
      const pve1 = nodes.nodes.find((n) => n.node.name === 'pve1')?.node;
      expect(pve1).toMatchObject({
        serviceStatus: 'SERVICE_STATUS_ONLINE',
        inventory: { cpuCores: 16, memoryBytes: 64 * 1024 ** 3 },
      });
    },
    TEST_TIMEOUT_MS,
  );
});
