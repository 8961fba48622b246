import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';

import {
  metricsWriteCredentialSecret,
  pveExporterConfigSecret,
  renderAgentStack,
  toYaml,
} from '@noderings/deploy';
import { forwardingDecision } from '@noderings/domain';
import { defaultScenario, startPveSim, type PveSim } from '@noderings/pve-sim';
import { decodeWriteRequest, isStaleMarker } from '@noderings/remote-write';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startK3sSim, type K3sSim } from './k3s-sim.js';
import { eventually, kubectlApply, waitAvailable } from './k3s-sim.test-support.js';
import { serviceEndpointsPath } from './layout.js';

const AGENT = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f';
const WRITE_TOKEN = 'nrm_test-metrics-write-credential';
const NR_GUEST = 'NR-5a1e0c3b-2d4f-4e6a-8b9c-000000000001';

/** One node with pve-sim's templates and `lab-1` (the provider's own guest), and one customer VM of ours. */
function scenario() {
  const base = defaultScenario(1);
  const [node] = base.nodes;
  if (node === undefined) throw new Error('no node in the scenario');
  return {
    ...base,
    nodes: [
      {
        ...node,
        vms: [
          ...(node.vms ?? []),
          { vmid: 1042, name: NR_GUEST, running: true, cores: 2, memoryMiB: 2048, diskGiB: 20 },
        ],
      },
    ],
  };
}

interface Received {
  authorization: string | undefined;
  series: Record<string, string>[];
}

/** A remote-write receiver: every request decoded, its series' labels kept (stale markers left out). */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const { timeseries } = decodeWriteRequest(Buffer.concat(chunks));
      received.push({
        authorization: request.headers.authorization,
        series: timeseries
          .filter((s) => !s.samples.every((x) => isStaleMarker(x.value)))
          .map((s) => Object.fromEntries(s.labels.map((l) => [l.name, l.value]))),
      });
      response.statusCode = 204;
      response.end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${String(port)}/api/v1/write`, received };
}

describe('the agent stack with its metrics path on k3s-sim', () => {
  let root: string;
  let k3s: K3sSim | undefined;
  let pve: PveSim | undefined;
  let receiver: Awaited<ReturnType<typeof startReceiver>> | undefined;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), 'k3s-sim-metrics-'));
    pve = await startPveSim({
      tokens: [{ id: 'root@pam!exporter', secret: randomUUID() }],
      scenario: scenario(),
    });
    receiver = await startReceiver();
    k3s = await startK3sSim({ root, nodeIp: '10.0.0.10', nodeName: 'agent-1', version: 'v1.34.2+k3s1' });
  });
  afterEach(async () => {
    await k3s?.close();
    if (receiver?.server.listening) {
      receiver.server.closeAllConnections();
      await new Promise((resolve) => receiver?.server.close(resolve));
    }
    await pve?.close();
    await rm(root, { recursive: true, force: true });
  });

  it("runs the exporter and Alloy, and the receiver gets the exporter's series labelled with the agent", async () => {
    if (k3s === undefined || pve === undefined || receiver === undefined) throw new Error('not started');
    const endpoint = new URL(pve.url).host;
    const token = pve.tokens[0];
    if (token === undefined) throw new Error('pve-sim has no token');
    const [username = '', tokenName = ''] = token.id.split('!');
    const objects = [
      ...renderAgentStack({
        agentId: AGENT,
        image: 'registry.example/noderings/proxmox-operator:1.0.0',
        images: {
          pveExporter: 'registry.example/noderings/pve-exporter:1.0.0',
          alloy: 'docker.io/grafana/alloy:v1.11.0',
        },
        metrics: { remoteWriteUrl: receiver.url, proxmoxEndpoint: endpoint },
      }),
      pveExporterConfigSecret({
        username,
        tokenName,
        tokenSecret: token.secret,
        tlsFingerprint: pve.fingerprint,
      }),
      metricsWriteCredentialSecret(WRITE_TOKEN),
    ];
    await kubectlApply(k3s.layout, toYaml(objects));

    await waitAvailable(k3s.layout, 'proxmox-system', 'pve-exporter', 60_000);
    await waitAvailable(k3s.layout, 'proxmox-system', 'alloy', 60_000);
    const published = JSON.parse(
      await readFile(serviceEndpointsPath(k3s.layout.endpoints, 'proxmox-system', 'pve-exporter'), 'utf8'),
    ) as { ports: Record<string, string> };
    expect(published.ports['9221']).toMatch(/^127\.0\.0\.1:\d+$/);

    const series = await eventually(
      'series at the receiver',
      () => Promise.resolve(receiver?.received.find((r) => r.series.length > 0)?.series),
      30_000,
    );
    expect(receiver.received[0]?.authorization).toBe(`Bearer ${WRITE_TOKEN}`);
    const names = new Set(series.map((s) => s.__name__));
    for (const name of ['pve_up', 'pve_node_info', 'pve_memory_size_bytes', 'pve_cpu_usage_ratio'])
      expect(names).toContain(name);
    const guests = new Set(series.filter((s) => s.id?.startsWith('qemu/')).map((s) => s.name));
    expect([...guests]).toEqual([NR_GUEST]);
    expect(names).toContain('non_nr_pve_memory_size_bytes');
    for (const labels of series) {
      expect(labels).toMatchObject({ agent_id: AGENT, instance: endpoint, job: 'prometheus.scrape.pve' });
      // Alloy's rules let through only what the forwarding table forwards (no `up`, no non-NR guests).
      expect(forwardingDecision(labels.__name__ ?? '', labels).forward).toBe(true);
    }
  }, 120_000);
});
