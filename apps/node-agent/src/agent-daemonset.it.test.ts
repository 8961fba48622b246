import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { type KubeletSim, startKubeletSim } from '@noderings/kubelet-sim';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { DAEMONSET_MODE_LINE } from './agent.js';
import { type AgentHarness, agentHarness } from './agent-harness.test-support.js';
import { type FleetStream, eventually, startFleetStream } from './fleet-stream.test-support.js';

const KUBELET_TOKEN = 'kubelet-token-0123456789abcdef';
const POD_DIR = 'shop_web-0_4f1c2d3e-0000-4000-8000-000000000001';

describe('the node agent as the DaemonSet, against kubelet-sim', () => {
  let fleet: FleetStream;
  let harness: AgentHarness;
  let kubelet: KubeletSim;

  beforeAll(async () => {
    fleet = await startFleetStream();
  });
  afterAll(async () => {
    await fleet.close();
  });
  beforeEach(async () => {
    await fleet.reset();
    harness = await agentHarness(fleet);
    kubelet = await startKubeletSim({ tokens: [{ token: KUBELET_TOKEN }], nodeName: 'worker-1' });
    await writeFile(join(harness.root, 'token'), KUBELET_TOKEN);
    await writeFile(join(harness.root, 'ca.pem'), kubelet.caPem);
  });
  afterEach(async () => {
    await harness.close();
    await kubelet.close();
  });

  const daemonSet = (): Parameters<AgentHarness['start']>[0] => ({
    agentType: 'k8s-node-monitor',
    k8sNodeMetrics: true,
    kubelet: {
      url: kubelet.url,
      tokenFile: join(harness.root, 'token'),
      caFile: join(harness.root, 'ca.pem'),
      insecureSkipVerify: false,
    },
  });

  test('publishes kubelet metrics, tailed logs and heartbeats with the kubelet collector', async () => {
    const podLogs = join(harness.root, 'pods', POD_DIR, 'web');
    await mkdir(podLogs, { recursive: true });
    await writeFile(join(podLogs, '0.log'), '');
    const agent = await harness.start(daemonSet());
    await agent.enrolled;
    await delay(300);
    await writeFile(join(podLogs, '0.log'), '2026-05-01T10:00:00.5Z stdout F served GET /\n');
    const found = await eventually(async () => {
      const all = await fleet.messages();
      const kinds = new Set(all.map((m) => m.message.kind));
      const healthy = all.some(
        (m) => m.message.kind === 'heartbeat' && m.message.collectors[0]?.status === 'ok',
      );
      return kinds.has('metrics') && kinds.has('logs') && healthy ? all : undefined;
    });
    expect(harness.lines.some((l) => l.msg === DAEMONSET_MODE_LINE)).toBe(true);
    const samples = found.flatMap((m) => (m.message.kind === 'metrics' ? m.message.samples : []));
    expect(samples.some((s) => s.n === 'kubelet_pods' && s.l.node === 'worker-1')).toBe(true);
    const entries = found.flatMap((m) => (m.message.kind === 'logs' ? m.message.entries : []));
    expect(entries).toEqual([
      {
        t: Date.parse('2026-05-01T10:00:00.5Z'),
        stream: 'stdout',
        line: 'served GET /',
        fields: {
          k8s_namespace: 'shop',
          k8s_pod: 'web-0',
          k8s_pod_uid: '4f1c2d3e-0000-4000-8000-000000000001',
          k8s_container: 'web',
        },
      },
    ]);
    const heartbeat = found.find(
      (m) => m.message.kind === 'heartbeat' && m.message.collectors[0]?.status === 'ok',
    );
    expect(heartbeat?.message).toMatchObject({
      agentType: 'k8s-node-monitor',
      collectors: [{ name: 'kubelet', kind: 'core', status: 'ok' }],
    });
    const published = harness.lines.filter((l) => l.msg === 'kubelet stats published');
    expect(published[0]?.level).toBe('info');
    expect(typeof published[0]?.series).toBe('number');
    expect(published.slice(1).every((l) => l.level === 'debug')).toBe(true);
    expect(harness.raw.join('\n')).not.toContain(KUBELET_TOKEN);
  });

  test('a /pods outage is one warning, the heartbeat says degraded, and the recovery an info line', async () => {
    kubelet.setFault('/pods', {
      status: 403,
      body: 'Forbidden (user=system:serviceaccount:proxima-system:proxima-node-agent, verb=get, resource=nodes, subresource=pods)',
    });
    const agent = await harness.start(daemonSet());
    await agent.enrolled;
    const degraded = await eventually(async () =>
      (await fleet.messages()).find(
        (m) => m.message.kind === 'heartbeat' && m.message.collectors[0]?.status === 'degraded',
      ),
    );
    expect(degraded.message.kind === 'heartbeat' && degraded.message.collectors[0]?.message).toContain(
      'nodes/pods',
    );
    // The first heartbeat already reports the first collection.
    const first = (await fleet.messages()).find((m) => m.message.kind === 'heartbeat');
    expect(first).toEqual(degraded);
    await delay(1_500);
    kubelet.setFault('/pods', undefined);
    await eventually(() => (harness.lines.some((l) => l.msg.includes('answers again')) ? true : undefined));
    const podsLines = harness.lines.filter((l) => l.source === '/pods');
    expect(podsLines.map((l) => l.level)).toEqual(['warn', 'info']);
  });

  test('reads the host signals from the kubelet when the host files are not mounted', async () => {
    const agent = await harness.start(daemonSet());
    await agent.enrolled;
    expect(harness.backend.enrollments[0]?.hostSignals.machineId).toMatch(/^[0-9a-f]{32}$/);
  });
});
