import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startFleetSite, type FleetSite } from './fleet-site.js';
import { startNodeAgentProcess, type NodeAgentProcess } from './node-agent-process.js';

/**
 * The node agent end to end, every part real and talking over the network: kubelet-sim (HTTPS, token
 * auth) → `npm run node-agent` as its own process → a nats-server in operator mode → the control plane's
 * consumer → what a provider reads from the fleet API.
 */

interface AgentView {
  readonly id: string;
  readonly agentType: string;
  readonly name: string;
  readonly version: string;
  readonly status: string;
  readonly collectors: readonly { name: string; status: string }[];
}
interface SeriesView {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly latestValue: number | string | null;
}
interface RestartsView {
  readonly points: readonly { time: string; restarts: number }[];
  readonly workloads?: readonly {
    workloadKind: string | null;
    workload: string | null;
    points: { restarts: number }[];
  }[];
}

const INTERVAL = '1s';
const TIMEOUT_MS = 120_000;

async function until<T>(
  what: string,
  probe: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await delay(250);
  }
}

describe('kubelet-sim → node agent → NATS → control plane', () => {
  let site: FleetSite;
  let agent: NodeAgentProcess | undefined;
  const stateDir = (): string => join(site.dir, 'agent-data');
  const logDir = (): string => join(site.dir, 'pod-logs');

  const startAgent = (): NodeAgentProcess =>
    startNodeAgentProcess([
      ...['--backend-url', site.controlPlane.url, '--install-token', site.installToken],
      ...['--agent-type', 'k8s-node-monitor', '--k8s-node-metrics', '--node-name', site.nodeName],
      ...['--data-dir', stateDir(), '--log-dir', logDir(), '--metrics-interval', INTERVAL],
      ...['--kubelet-url', site.kubelet.url, '--kubelet-token-file', site.kubeletTokenFile],
      ...['--kubelet-ca-file', site.kubeletCaFile, '--health-listen', '127.0.0.1:0'],
    ]);
  const get = <T>(path: string): Promise<T> => site.api.call<T>('GET', path, 200, { as: site.provider });
  const agents = async (): Promise<AgentView[]> =>
    (await get<{ agents: AgentView[] }>(`/api/v1/fleet/agents?environmentId=${site.environmentId}`)).agents;
  const series = async (agentId: string, name: string): Promise<SeriesView[]> =>
    (await get<{ series: SeriesView[] }>(`/api/v1/fleet/agents/${agentId}/series?name=${name}&pageSize=100`))
      .series;
  const restarts = (fromMs: number, by = ''): Promise<RestartsView> =>
    get<RestartsView>(
      `/api/v1/fleet/clusters/${site.clusterId}/restarts?from=${new Date(fromMs).toISOString()}&to=${new Date().toISOString()}&step=5s${by}`,
    );
  const total = (points: readonly { restarts: number }[]): number =>
    points.reduce((n, p) => n + p.restarts, 0);

  beforeAll(async () => {
    site = await startFleetSite({ pods: 24 });
    await mkdir(logDir(), { recursive: true });
  }, TIMEOUT_MS);

  afterAll(async () => {
    await agent?.stop();
    await site.close();
  }, TIMEOUT_MS);

  it(
    'enrolls, reports heartbeats and kubelet series with workload labels and cluster_id, and ships pod logs',
    async () => {
      agent = startAgent();
      await agent.waitForLine(
        'k8s DaemonSet mode — terminal access disabled (install host agent for terminal)',
      );
      const online = await until('the agent online with a healthy kubelet collector', async () => {
        const [a] = await agents();
        return a?.status === 'online' && a.collectors.some((c) => c.name === 'kubelet' && c.status === 'ok')
          ? a
          : undefined;
      });
      expect(online).toMatchObject({ agentType: 'k8s-node-monitor', name: site.nodeName });
      expect(online.version).not.toBe('');

      const cpu = await until('node CPU in the control plane', async () => {
        const found = await series(online.id, 'node_cpu_usage_ratio');
        return found.length > 0 ? found : undefined;
      });
      expect(cpu[0]?.labels).toMatchObject({ node: site.nodeName, cluster_id: site.clusterId });
      const phases = await until('every pod phase', async () => {
        const found = await series(online.id, 'kubelet_pods');
        return found.length === 5 ? found : undefined;
      });
      expect(phases.map((s) => s.labels.phase).sort()).toEqual([
        'Failed',
        'Pending',
        'Running',
        'Succeeded',
        'Unknown',
      ]);
      const running = site.kubelet.node.pods().filter((p) => p.phase === 'Running').length;
      expect(phases.find((s) => s.labels.phase === 'Running')?.latestValue).toBe(running);

      const sim = site.kubelet.node.pods();
      const deployment = sim.find((p) => p.workload.kind === 'Deployment' && p.phase === 'Running');
      if (deployment === undefined) throw new Error('kubelet-sim made no Deployment pod');
      const memory = await until('container memory of a Deployment pod', async () => {
        const found = await series(online.id, 'container_memory_working_set_bytes');
        return found.find((s) => s.labels.pod === deployment.name);
      });
      expect(memory.labels).toMatchObject({
        namespace: deployment.namespace,
        workload_kind: 'Deployment',
        workload: deployment.workload.name,
        cluster_id: site.clusterId,
      });
      const waiting = await series(online.id, 'container_waiting');
      // Init containers too (a pod in Init:CrashLoopBackOff), which carry init="true".
      const crashLooping = sim.flatMap((p) =>
        [...p.containers, ...p.initContainers].filter(
          (c) => c.state === 'waiting' && c.reason === 'CrashLoopBackOff',
        ),
      );
      expect(
        waiting.filter((s) => s.labels.reason === 'CrashLoopBackOff' && s.latestValue === 1),
      ).toHaveLength(crashLooping.length);
      const initLooping = sim.some((p) => p.initContainers.some((c) => c.reason === 'CrashLoopBackOff'));
      expect(waiting.some((s) => s.labels.init === 'true' && s.latestValue === 1)).toBe(initLooping);

      // A pod's container log, written the way the container runtime writes it.
      const container = deployment.containers[0]?.name ?? '';
      const file = join(
        logDir(),
        `${deployment.namespace}_${deployment.name}_${deployment.uid}`,
        container,
        '0.log',
      );
      await mkdir(join(file, '..'), { recursive: true });
      await writeFile(file, `${new Date().toISOString()} stdout F order 42 shipped\n`);
      const logs = await until('the log line in the control plane', async () => {
        const found = await get<{ entries: { line: string; fields: Record<string, string> }[] }>(
          `/api/v1/fleet/logs?environmentId=${site.environmentId}&k8s_pod=${deployment.name.slice(0, 5)}*`,
        );
        return found.entries.find((e) => e.line === 'order 42 shipped');
      });
      expect(logs.fields).toEqual({
        k8s_namespace: deployment.namespace,
        k8s_pod: deployment.name,
        k8s_container: container,
        k8s_pod_uid: deployment.uid,
      });
    },
    TIMEOUT_MS,
  );

  it(
    'counts a restart once, through an agent restart and a pod recreation, with the same identity',
    async () => {
      const [before] = await agents();
      if (before === undefined || agent === undefined)
        throw new Error('the first test did not enroll an agent');
      const from = Date.now() - 60_000;
      const sim = site.kubelet.node.pods();
      const deployment = sim.find((p) => p.workload.kind === 'Deployment' && p.phase === 'Running');
      const restarted =
        sim.find((p) => p.workload.kind === 'StatefulSet' && p.containers.some((c) => c.restartCount > 0)) ??
        sim.find((p) => p.workload.kind === 'StatefulSet');
      if (deployment === undefined || restarted === undefined) throw new Error('kubelet-sim pod mix changed');
      const container = deployment.containers[0]?.name ?? '';
      const workloadRestarts = async (name: string): Promise<number> => {
        const result = await restarts(from, '&by=workload');
        return total(result.workloads?.find((w) => w.workload === name)?.points ?? []);
      };

      // One restart of one container.
      site.kubelet.node.restartContainer(deployment.uid, container, { reason: 'Error' });
      await until('the restart counted', async () =>
        (await workloadRestarts(deployment.workload.name)) === 1 ? true : undefined,
      );

      // The agent is killed and started again on its data directory: same identity, no spike.
      const state = await readFile(join(stateDir(), 'state.json'), 'utf8');
      await agent.stop(true);
      const ticks = site.kubelet.requestCount('/stats/summary');
      agent = startAgent();
      await until('the restarted agent ticking again', () =>
        site.kubelet.requestCount('/stats/summary') > ticks + 4 ? true : undefined,
      );
      expect(await readFile(join(stateDir(), 'state.json'), 'utf8')).toBe(state);
      const after = await agents();
      expect(after.map((a) => a.id)).toEqual([before.id]);

      // A StatefulSet pod recreated under the same name: its count starts again at 0, which is no restart.
      site.kubelet.node.recreatePod(restarted.uid);
      const ticksAfter = site.kubelet.requestCount('/stats/summary');
      await until('a few ticks after the recreation', () =>
        site.kubelet.requestCount('/stats/summary') > ticksAfter + 4 ? true : undefined,
      );
      expect(await workloadRestarts(deployment.workload.name)).toBe(1);
      expect(await workloadRestarts(restarted.workload.name)).toBe(0);
      expect(total((await restarts(from)).points)).toBe(1);
    },
    TIMEOUT_MS,
  );
});
