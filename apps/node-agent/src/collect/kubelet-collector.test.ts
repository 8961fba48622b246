import { describe, expect, test } from 'vitest';

import { KubeletCollector } from './kubelet-collector.js';
import type { SourceResult, TickResult } from './kubelet-collector.js';
import {
  cadvisorBody,
  kubeletTime,
  NODE,
  podListBody,
  summaryBody,
  T0,
} from './kubelet-fixtures.test-support.js';
import type {
  CadvisorContainerFixture,
  PodItemFixture,
  SummaryNodeFixture,
  SummaryPodFixture,
} from './kubelet-fixtures.test-support.js';
import type { Sample } from './sample.js';

const INTERVAL = 30_000;
const UID = '4f1c8a2e-9b7d-4c3e-8f6a-1b2c3d4e5f60';
const OTHER_UID = '0a1b2c3d-0000-4000-8000-00000000beef';
const WEB_POD = 'web-7d9f8c6b5d-x2x9q';

const ok = (body: string): SourceResult => ({ ok: true, body });
const down = (
  error = 'Forbidden (user=system:serviceaccount:proxima:node-agent, verb=get, resource=nodes)',
) => ({ ok: false, error }) satisfies SourceResult;

interface Documents {
  node?: SummaryNodeFixture;
  summaryPods?: SummaryPodFixture[];
  cadvisor?: CadvisorContainerFixture[];
  machineCpuCores?: number | null;
  pods?: PodItemFixture[];
  summary?: SourceResult;
  cadvisorResult?: SourceResult;
  podsResult?: SourceResult;
}

function newCollector(): KubeletCollector {
  return new KubeletCollector({ nodeName: NODE, intervalMs: INTERVAL });
}

/** One tick at `nowMs`; documents default to a node without pods, stamped `nowMs`. */
function tick(collector: KubeletCollector, nowMs: number, documents: Documents = {}): TickResult {
  return collector.tick({
    nowMs,
    summary: documents.summary ?? ok(summaryBody(nowMs, documents.node ?? {}, documents.summaryPods ?? [])),
    cadvisor:
      documents.cadvisorResult ??
      ok(cadvisorBody(nowMs, documents.cadvisor ?? [], documents.machineCpuCores)),
    pods: documents.podsResult ?? ok(podListBody(documents.pods ?? [])),
  });
}

function matches(sample: Sample, name: string, labels: Record<string, string>): boolean {
  return sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value);
}

function samples(result: TickResult, name: string, labels: Record<string, string> = {}): Sample[] {
  return result.samples.filter((sample) => matches(sample, name, labels));
}

/** The value of the one sample that matches, or undefined when none does. */
function valueOf(result: TickResult, name: string, labels: Record<string, string> = {}): number | undefined {
  const found = samples(result, name, labels);
  expect(found.length, `${name} ${JSON.stringify(labels)}`).toBeLessThanOrEqual(1);
  return found[0]?.value;
}

const webPodItem = (overrides: Partial<PodItemFixture> = {}): PodItemFixture => ({
  uid: UID,
  name: WEB_POD,
  owner: { kind: 'ReplicaSet', name: 'web-7d9f8c6b5d' },
  labels: { app: 'web', 'pod-template-hash': '7d9f8c6b5d' },
  containers: [{ name: 'web' }],
  ...overrides,
});

describe('CPU usage from summary counters', () => {
  const pod = (cpuNs: number, containerCpuNs: number): SummaryPodFixture => ({
    uid: UID,
    name: WEB_POD,
    cpuNs,
    containers: [{ name: 'web', cpuNs: containerCpuNs }],
  });

  test('reports cores as the counter delta over the document times: 75 s of CPU in 30 s is 2.5 cores', () => {
    const collector = newCollector();
    const first = tick(collector, T0, { summaryPods: [pod(5e12, 4e12)] });
    expect(samples(first, 'container_cpu_usage_ratio')).toEqual([]);
    expect(samples(first, 'pod_cpu_usage_ratio')).toEqual([]);

    const second = tick(collector, T0 + 30_000, { summaryPods: [pod(5e12 + 90e9, 4e12 + 75e9)] });
    expect(samples(second, 'container_cpu_usage_ratio')).toEqual([
      {
        name: 'container_cpu_usage_ratio',
        labels: { node: NODE, namespace: 'shop', pod: WEB_POD, container: 'web' },
        value: 2.5,
        timestampMs: T0 + 30_000,
      },
    ]);
    expect(valueOf(second, 'pod_cpu_usage_ratio', { pod: WEB_POD })).toBe(3);
  });

  test('uses the documents’ own times, not the tick’s', () => {
    const collector = newCollector();
    const summaryAt = (timeMs: number, cpuNs: number) =>
      ok(summaryBody(timeMs, {}, [{ uid: UID, name: WEB_POD, containers: [{ name: 'web', cpuNs }] }]));
    tick(collector, T0 + 2_000, { summary: summaryAt(T0, 0) });
    // The kubelet's stats are 20 s apart although the ticks are 30 s apart.
    const result = tick(collector, T0 + 32_000, { summary: summaryAt(T0 + 20_000, 20e9) });
    expect(samples(result, 'container_cpu_usage_ratio')[0]).toMatchObject({
      value: 1,
      timestampMs: T0 + 20_000,
    });
  });

  test('skips the pair when the counter went down (a restart) and resumes from the new reading', () => {
    const collector = newCollector();
    tick(collector, T0, { summaryPods: [pod(9e12, 9e12)] });
    const reset = tick(collector, T0 + 30_000, { summaryPods: [pod(1e9, 1e9)] });
    expect(samples(reset, 'container_cpu_usage_ratio')).toEqual([]);
    expect(samples(reset, 'pod_cpu_usage_ratio')).toEqual([]);
    const after = tick(collector, T0 + 60_000, { summaryPods: [pod(1e9 + 15e9, 1e9 + 15e9)] });
    expect(valueOf(after, 'container_cpu_usage_ratio')).toBe(0.5);
  });

  test('skips a reading whose time did not advance and keeps the older one as the baseline', () => {
    const collector = newCollector();
    const summaryAt = (timeMs: number, cpuNs: number) =>
      ok(summaryBody(timeMs, {}, [{ uid: UID, name: WEB_POD, containers: [{ name: 'web', cpuNs }] }]));
    tick(collector, T0, { summary: summaryAt(T0, 0) });
    expect(
      samples(tick(collector, T0 + 30_000, { summary: summaryAt(T0, 5e9) }), 'container_cpu_usage_ratio'),
    ).toEqual([]);
    expect(
      valueOf(
        tick(collector, T0 + 60_000, { summary: summaryAt(T0 + 60_000, 60e9) }),
        'container_cpu_usage_ratio',
      ),
    ).toBe(1);
  });

  test('node_cpu_usage_ratio divides the node’s cores by machine_cpu_cores, remembered while cAdvisor fails', () => {
    const collector = newCollector();
    const first = tick(collector, T0, { node: { cpuNs: 1e15 }, machineCpuCores: 8 });
    expect(samples(first, 'node_cpu_usage_ratio')).toEqual([]);
    const second = tick(collector, T0 + 30_000, { node: { cpuNs: 1e15 + 120e9 }, machineCpuCores: 8 });
    expect(samples(second, 'node_cpu_usage_ratio')).toEqual([
      { name: 'node_cpu_usage_ratio', labels: { node: NODE }, value: 0.5, timestampMs: T0 + 30_000 },
    ]);
    const cadvisorDown = tick(collector, T0 + 60_000, {
      node: { cpuNs: 1e15 + 240e9 },
      cadvisorResult: down(),
    });
    expect(valueOf(cadvisorDown, 'node_cpu_usage_ratio')).toBe(0.5);
  });

  test('node_cpu_usage_ratio is not sent before the core count is known', () => {
    const collector = newCollector();
    tick(collector, T0, { node: { cpuNs: 0 }, cadvisorResult: down() });
    const result = tick(collector, T0 + 30_000, { node: { cpuNs: 30e9 }, machineCpuCores: null });
    expect(samples(result, 'node_cpu_usage_ratio')).toEqual([]);
  });
});

describe('memory, filesystem and network from the summary', () => {
  test('maps the kubelet’s fields, node memory used being the working set as kubectl top shows it', () => {
    const result = tick(newCollector(), T0, {
      node: {
        workingSetBytes: 4.2e9,
        usageBytes: 5.3e9,
        availableBytes: 1.2e10,
        rssBytes: 3.2e9,
        fsUsedBytes: 3.9e10,
        fsAvailableBytes: 6.1e10,
        rxBytes: 9.8e8,
        txBytes: 1.2e8,
      },
      summaryPods: [
        {
          uid: UID,
          name: WEB_POD,
          usageBytes: 3.6e8,
          workingSetBytes: 3.2e8,
          rssBytes: 3e8,
          rxBytes: 1e6,
          txBytes: 2e6,
          containers: [
            {
              name: 'web',
              usageBytes: 3.5e8,
              workingSetBytes: 3.1e8,
              rssBytes: 2.9e8,
              rootfsBytes: 40960,
              logsBytes: 1048576,
            },
          ],
        },
      ],
    });
    const values = Object.fromEntries(result.samples.map((sample) => [sample.name, sample.value]));
    expect(values).toEqual({
      node_memory_used_bytes: 4.2e9,
      node_memory_available_bytes: 1.2e10,
      node_memory_rss_bytes: 3.2e9,
      node_fs_used_bytes: 3.9e10,
      node_fs_available_bytes: 6.1e10,
      node_network_receive_bytes_total: 9.8e8,
      node_network_transmit_bytes_total: 1.2e8,
      pod_memory_used_bytes: 3.6e8,
      pod_memory_working_set_bytes: 3.2e8,
      pod_memory_rss_bytes: 3e8,
      pod_network_receive_bytes_total: 1e6,
      pod_network_transmit_bytes_total: 2e6,
      container_memory_used_bytes: 3.5e8,
      container_memory_working_set_bytes: 3.1e8,
      container_memory_rss_bytes: 2.9e8,
      container_rootfs_used_bytes: 40960,
      container_logs_used_bytes: 1048576,
      kubelet_pods: 0,
    });
    expect(samples(result, 'node_memory_used_bytes')[0]?.labels).toEqual({ node: NODE });
    expect(samples(result, 'pod_memory_used_bytes')[0]?.labels).toEqual({
      node: NODE,
      namespace: 'shop',
      pod: WEB_POD,
    });
  });

  test('leaves out a series whose field the kubelet did not report', () => {
    const result = tick(newCollector(), T0, { node: { workingSetBytes: 1 } });
    expect(samples(result, 'node_memory_used_bytes')).toHaveLength(1);
    expect(samples(result, 'node_memory_rss_bytes')).toEqual([]);
    expect(samples(result, 'node_fs_used_bytes')).toEqual([]);
  });
});

describe('cAdvisor series', () => {
  const web = (
    cfs: { periods: number; throttledPeriods: number } | undefined,
    extra: Partial<CadvisorContainerFixture> = {},
  ) => ({ uid: UID, pod: WEB_POD, container: 'web', cfs, ...extra }) satisfies CadvisorContainerFixture;

  test('throttle ratio is Δthrottled periods ÷ Δperiods between two answers, stamped with cAdvisor’s time', () => {
    const collector = newCollector();
    expect(
      samples(
        tick(collector, T0, { cadvisor: [web({ periods: 1000, throttledPeriods: 100 })] }),
        'container_cpu_throttled_ratio',
      ),
    ).toEqual([]);
    const result = tick(collector, T0 + 30_000, {
      cadvisor: [web({ periods: 1400, throttledPeriods: 200 })],
    });
    expect(samples(result, 'container_cpu_throttled_ratio')).toEqual([
      {
        name: 'container_cpu_throttled_ratio',
        labels: { node: NODE, namespace: 'shop', pod: WEB_POD, container: 'web' },
        value: 0.25,
        timestampMs: T0 + 30_000,
      },
    ]);
  });

  test('throttle ratio is 0 for an idle container and absent without a CPU limit', () => {
    const collector = newCollector();
    tick(collector, T0, { cadvisor: [web({ periods: 1000, throttledPeriods: 100 })] });
    expect(
      valueOf(
        tick(collector, T0 + 30_000, { cadvisor: [web({ periods: 1000, throttledPeriods: 100 })] }),
        'container_cpu_throttled_ratio',
      ),
    ).toBe(0);
    const unlimited = newCollector();
    tick(unlimited, T0, { cadvisor: [web(undefined)] });
    expect(
      samples(tick(unlimited, T0 + 30_000, { cadvisor: [web(undefined)] }), 'container_cpu_throttled_ratio'),
    ).toEqual([]);
  });

  test('throttle ratio skips a counter that went down and an answer whose timestamps did not advance', () => {
    const collector = newCollector();
    tick(collector, T0, { cadvisor: [web({ periods: 1000, throttledPeriods: 100 })] });
    const decreased = tick(collector, T0 + 30_000, {
      cadvisor: [web({ periods: 1100, throttledPeriods: 50 })],
    });
    expect(samples(decreased, 'container_cpu_throttled_ratio')).toEqual([]);
    const stale = collector.tick({
      nowMs: T0 + 60_000,
      summary: ok(summaryBody(T0 + 60_000, {}, [])),
      cadvisor: ok(cadvisorBody(T0 + 30_000, [web({ periods: 1500, throttledPeriods: 90 })])),
      pods: ok(podListBody([])),
    });
    expect(samples(stale, 'container_cpu_throttled_ratio')).toEqual([]);
    const next = tick(collector, T0 + 90_000, { cadvisor: [web({ periods: 1200, throttledPeriods: 100 })] });
    expect(valueOf(next, 'container_cpu_throttled_ratio')).toBe(0.5);
  });

  test('fs reads and writes are the cumulative sums over devices; pod-level, pause and system rows are dropped', () => {
    const result = tick(newCollector(), T0, {
      cadvisor: [
        web(undefined, {
          fs: [
            { device: '/dev/nvme0n1', readBytes: 4096, writeBytes: 8192 },
            { device: '/dev/nvme1n1', readBytes: 1e6, writeBytes: 2e6 },
          ],
        }),
      ],
    });
    expect(samples(result, 'container_fs_reads_bytes_total')).toEqual([
      {
        name: 'container_fs_reads_bytes_total',
        labels: { node: NODE, namespace: 'shop', pod: WEB_POD, container: 'web' },
        value: 1_004_096,
        timestampMs: T0,
      },
    ]);
    expect(valueOf(result, 'container_fs_writes_bytes_total')).toBe(2_008_192);
    const containers = new Set(result.samples.map((sample) => sample.labels.container));
    expect(containers).toEqual(new Set([undefined, 'web']));
  });

  test('keys containers by pod UID, so a StatefulSet pod recreated under the same name starts afresh', () => {
    const collector = newCollector();
    const db = (uid: string, periods: number) =>
      ({
        uid,
        pod: 'db-0',
        container: 'postgres',
        cfs: { periods, throttledPeriods: 0 },
      }) satisfies CadvisorContainerFixture;
    tick(collector, T0, { cadvisor: [db(UID, 5000)] });
    expect(
      samples(
        tick(collector, T0 + 30_000, { cadvisor: [db(OTHER_UID, 100)] }),
        'container_cpu_throttled_ratio',
      ),
    ).toEqual([]);
  });
});

describe('container_oom_events_total', () => {
  const cadvisorWeb = (oomEvents: number, containerId = 'run1') =>
    ({ uid: UID, pod: WEB_POD, container: 'web', oomEvents, containerId }) satisfies CadvisorContainerFixture;
  const podsWeb = (restartCount: number, lastTerminationReason?: string): PodItemFixture =>
    webPodItem({ containers: [{ name: 'web', restartCount, lastTerminationReason }] });

  test('starts at cAdvisor’s first value and adds its increases, a new cgroup counting whole', () => {
    const collector = newCollector();
    const labels = { container: 'web', pod: WEB_POD };
    expect(
      valueOf(tick(collector, T0, { cadvisor: [cadvisorWeb(2)] }), 'container_oom_events_total', labels),
    ).toBe(2);
    expect(
      valueOf(
        tick(collector, T0 + 30_000, { cadvisor: [cadvisorWeb(3)] }),
        'container_oom_events_total',
        labels,
      ),
    ).toBe(3);
    // The container was recreated: a new cgroup with its own counter.
    const recreated = tick(collector, T0 + 60_000, { cadvisor: [cadvisorWeb(1, 'run2')] });
    expect(samples(recreated, 'container_oom_events_total', labels)).toEqual([
      {
        name: 'container_oom_events_total',
        labels: { node: NODE, namespace: 'shop', pod: WEB_POD, container: 'web' },
        value: 4,
        timestampMs: T0 + 60_000,
      },
    ]);
  });

  test('adds the PID-1 kills only /pods shows: restart count up and last termination OOMKilled', () => {
    const collector = newCollector();
    const first = tick(collector, T0, { cadvisor: [cadvisorWeb(0)], pods: [podsWeb(4, 'OOMKilled')] });
    expect(valueOf(first, 'container_oom_events_total', { container: 'web' })).toBe(0);
    // The kill removed the cgroup: cAdvisor shows a fresh one at 0.
    const killed = tick(collector, T0 + 30_000, {
      cadvisor: [cadvisorWeb(0, 'run2')],
      pods: [podsWeb(6, 'OOMKilled')],
    });
    expect(valueOf(killed, 'container_oom_events_total', { container: 'web' })).toBe(2);
    const crashed = tick(collector, T0 + 60_000, {
      cadvisor: [cadvisorWeb(0, 'run3')],
      pods: [podsWeb(7, 'Error')],
    });
    expect(valueOf(crashed, 'container_oom_events_total', { container: 'web' })).toBe(2);
  });

  test('is sent from /pods alone when cAdvisor fails, stamped with the tick’s time', () => {
    const collector = newCollector();
    tick(collector, T0, { cadvisorResult: down(), pods: [podsWeb(0)] });
    const result = tick(collector, T0 + 30_000, { cadvisorResult: down(), pods: [podsWeb(1, 'OOMKilled')] });
    expect(samples(result, 'container_oom_events_total')).toEqual([
      {
        name: 'container_oom_events_total',
        labels: {
          node: NODE,
          namespace: 'shop',
          pod: WEB_POD,
          container: 'web',
          workload_kind: 'Deployment',
          workload: 'web',
        },
        value: 1,
        timestampMs: T0 + 30_000,
      },
    ]);
  });
});

describe('/pods series', () => {
  test('kubelet_pods reports every phase each tick, zeros included', () => {
    const result = tick(newCollector(), T0, {
      pods: [
        webPodItem(),
        { uid: 'u2', name: 'job-1', phase: 'Succeeded' },
        { uid: 'u3', name: 'job-2', phase: 'Succeeded' },
        { uid: 'u4', name: 'odd', phase: 'Evicting' },
      ],
    });
    expect(
      samples(result, 'kubelet_pods').map(({ labels, value, timestampMs }) => ({
        labels,
        value,
        timestampMs,
      })),
    ).toEqual([
      { labels: { node: NODE, phase: 'Running' }, value: 1, timestampMs: T0 },
      { labels: { node: NODE, phase: 'Pending' }, value: 0, timestampMs: T0 },
      { labels: { node: NODE, phase: 'Succeeded' }, value: 2, timestampMs: T0 },
      { labels: { node: NODE, phase: 'Failed' }, value: 0, timestampMs: T0 },
      { labels: { node: NODE, phase: 'Unknown' }, value: 1, timestampMs: T0 },
    ]);
    const empty = tick(newCollector(), T0);
    expect(samples(empty, 'kubelet_pods').map((sample) => sample.value)).toEqual([0, 0, 0, 0, 0]);
  });

  test('container_restarts_total is the raw restart count, init containers included with init="true"', () => {
    const result = tick(newCollector(), T0, {
      pods: [
        webPodItem({
          containers: [
            { name: 'web', restartCount: 7 },
            { name: 'proxy', restartCount: 0 },
          ],
          initContainers: [{ name: 'migrate', restartCount: 2 }],
        }),
      ],
    });
    const workload = { workload_kind: 'Deployment', workload: 'web' };
    const base = { node: NODE, namespace: 'shop', pod: WEB_POD, ...workload };
    expect(samples(result, 'container_restarts_total')).toEqual([
      { name: 'container_restarts_total', labels: { ...base, container: 'web' }, value: 7, timestampMs: T0 },
      {
        name: 'container_restarts_total',
        labels: { ...base, container: 'proxy' },
        value: 0,
        timestampMs: T0,
      },
      {
        name: 'container_restarts_total',
        labels: { ...base, container: 'migrate', init: 'true' },
        value: 2,
        timestampMs: T0,
      },
    ]);
  });

  test('container_waiting is 1 with the reason while waiting, then one 0 with that reason, then nothing', () => {
    const collector = newCollector();
    const waiting = (reason: string | undefined) => ({
      pods: [webPodItem({ containers: [{ name: 'web', waiting: reason }] })],
    });
    const labels = {
      node: NODE,
      namespace: 'shop',
      pod: WEB_POD,
      container: 'web',
      workload_kind: 'Deployment',
      workload: 'web',
    };
    expect(samples(tick(collector, T0, waiting('ContainerCreating')), 'container_waiting')).toEqual([
      {
        name: 'container_waiting',
        labels: { ...labels, reason: 'ContainerCreating' },
        value: 1,
        timestampMs: T0,
      },
    ]);
    expect(samples(tick(collector, T0 + 30_000, waiting('CrashLoopBackOff')), 'container_waiting')).toEqual([
      {
        name: 'container_waiting',
        labels: { ...labels, reason: 'CrashLoopBackOff' },
        value: 1,
        timestampMs: T0 + 30_000,
      },
      {
        name: 'container_waiting',
        labels: { ...labels, reason: 'ContainerCreating' },
        value: 0,
        timestampMs: T0 + 30_000,
      },
    ]);
    expect(samples(tick(collector, T0 + 60_000, waiting(undefined)), 'container_waiting')).toEqual([
      {
        name: 'container_waiting',
        labels: { ...labels, reason: 'CrashLoopBackOff' },
        value: 0,
        timestampMs: T0 + 60_000,
      },
    ]);
    expect(samples(tick(collector, T0 + 90_000, waiting(undefined)), 'container_waiting')).toEqual([]);
  });

  test('a pod stuck in Init:CrashLoopBackOff reports its init container with init="true", and a 0 when it goes away', () => {
    const collector = newCollector();
    const stuck = webPodItem({
      phase: 'Pending',
      containers: [{ name: 'web', waiting: 'PodInitializing' }],
      initContainers: [{ name: 'migrate', restartCount: 5, waiting: 'CrashLoopBackOff' }],
    });
    const first = tick(collector, T0, { pods: [stuck] });
    expect(
      samples(first, 'container_waiting').map(({ labels, value }) => [
        labels.container,
        labels.reason,
        labels.init,
        value,
      ]),
    ).toEqual([
      ['web', 'PodInitializing', undefined, 1],
      ['migrate', 'CrashLoopBackOff', 'true', 1],
    ]);
    // The pod is deleted.
    const gone = tick(collector, T0 + 30_000, { pods: [] });
    expect(
      samples(gone, 'container_waiting').map(({ labels, value }) => [labels.container, labels.init, value]),
    ).toEqual([
      ['web', undefined, 0],
      ['migrate', 'true', 0],
    ]);
  });
});

describe('workload labels', () => {
  test('label pod and container series once /pods resolved the pod', () => {
    const result = tick(newCollector(), T0, {
      node: { workingSetBytes: 1 },
      summaryPods: [{ uid: UID, name: WEB_POD, usageBytes: 1, containers: [{ name: 'web', usageBytes: 1 }] }],
      cadvisor: [
        { uid: UID, pod: WEB_POD, container: 'web', fs: [{ device: 'sda', readBytes: 1, writeBytes: 1 }] },
      ],
      pods: [webPodItem()],
    });
    const workload = { workload_kind: 'Deployment', workload: 'web' };
    expect(samples(result, 'pod_memory_used_bytes')[0]?.labels).toEqual({
      node: NODE,
      namespace: 'shop',
      pod: WEB_POD,
      ...workload,
    });
    for (const name of [
      'container_memory_used_bytes',
      'container_fs_reads_bytes_total',
      'container_restarts_total',
    ]) {
      expect(samples(result, name)[0]?.labels, name).toEqual({
        node: NODE,
        namespace: 'shop',
        pod: WEB_POD,
        container: 'web',
        ...workload,
      });
    }
    expect(samples(result, 'node_memory_used_bytes')[0]?.labels).toEqual({ node: NODE });
  });

  test('stick through a /pods outage, while a pod first seen during the outage has none', () => {
    const collector = newCollector();
    const webStats: SummaryPodFixture = {
      uid: UID,
      name: WEB_POD,
      usageBytes: 1,
      containers: [{ name: 'web', usageBytes: 1 }],
    };
    const newStats: SummaryPodFixture = { uid: OTHER_UID, name: 'api-5b6c7d8e9f-abcde', usageBytes: 1 };
    tick(collector, T0, { summaryPods: [webStats], pods: [webPodItem()] });
    for (let i = 1; i <= 10; i++) {
      const result = tick(collector, T0 + i * 30_000, {
        summaryPods: [webStats, newStats],
        podsResult: down(),
      });
      expect(samples(result, 'pod_memory_used_bytes', { pod: WEB_POD })[0]?.labels).toMatchObject({
        workload_kind: 'Deployment',
        workload: 'web',
      });
      expect(samples(result, 'container_memory_used_bytes', { pod: WEB_POD })[0]?.labels.workload).toBe(
        'web',
      );
      expect(samples(result, 'pod_memory_used_bytes', { pod: 'api-5b6c7d8e9f-abcde' })[0]?.labels).toEqual({
        node: NODE,
        namespace: 'shop',
        pod: 'api-5b6c7d8e9f-abcde',
      });
    }
  });

  test('do not change once resolved', () => {
    const collector = newCollector();
    tick(collector, T0, { pods: [webPodItem()] });
    const adopted = tick(collector, T0 + 30_000, {
      pods: [webPodItem({ owner: { kind: 'StatefulSet', name: 'other' } })],
    });
    expect(samples(adopted, 'container_restarts_total')[0]?.labels.workload).toBe('web');
  });

  test('are forgotten once the pod has been gone from the summary and /pods for a few ticks', () => {
    const collector = newCollector();
    const stats: SummaryPodFixture = { uid: UID, name: WEB_POD, usageBytes: 1 };
    tick(collector, T0, { summaryPods: [stats], pods: [webPodItem()] });
    tick(collector, T0 + 30_000, { summaryPods: [stats], podsResult: down() });
    const stillKnown = tick(collector, T0 + 60_000, { summaryPods: [stats], podsResult: down() });
    expect(samples(stillKnown, 'pod_memory_used_bytes')[0]?.labels.workload).toBe('web');
    for (let i = 3; i <= 5; i++) tick(collector, T0 + i * 30_000, { podsResult: down() });
    const back = tick(collector, T0 + 6 * 30_000, { summaryPods: [stats], podsResult: down() });
    expect(samples(back, 'pod_memory_used_bytes')[0]?.labels.workload).toBeUndefined();
  });
});

describe('/pods outage', () => {
  test('the /pods series are held from the last answer for two intervals, then stopped, then resumed', () => {
    const collector = newCollector();
    const pods = [
      webPodItem({ containers: [{ name: 'web', restartCount: 3, waiting: 'CrashLoopBackOff' }] }),
    ];
    const podSeries = (result: TickResult) =>
      result.samples.filter((sample) =>
        ['kubelet_pods', 'container_restarts_total', 'container_waiting'].includes(sample.name),
      );

    const fresh = tick(collector, T0, { pods, node: { workingSetBytes: 1 } });
    expect(fresh.podsSeries).toBe('fresh');
    expect(podSeries(fresh)).toHaveLength(7);

    for (const i of [1, 2]) {
      const held = tick(collector, T0 + i * INTERVAL, { podsResult: down(), node: { workingSetBytes: 1 } });
      expect(held.podsSeries).toBe('held');
      expect(held.sources.pods).toEqual({ error: down().error });
      expect(podSeries(held)).toEqual(
        podSeries(fresh).map((sample) => ({ ...sample, timestampMs: T0 + i * INTERVAL })),
      );
      expect(valueOf(held, 'node_memory_used_bytes')).toBe(1);
    }

    const stopped = tick(collector, T0 + 3 * INTERVAL, { podsResult: down(), node: { workingSetBytes: 1 } });
    expect(stopped.podsSeries).toBe('stopped');
    expect(podSeries(stopped)).toEqual([]);
    expect(valueOf(stopped, 'node_memory_used_bytes')).toBe(1);

    const resumed = tick(collector, T0 + 4 * INTERVAL, { pods: [webPodItem()] });
    expect(resumed.podsSeries).toBe('fresh');
    expect(valueOf(resumed, 'container_restarts_total')).toBe(0);
    // The container stopped waiting while /pods was away: its one 0 comes with the first answer.
    expect(samples(resumed, 'container_waiting')).toMatchObject([
      { value: 0, labels: { reason: 'CrashLoopBackOff' } },
    ]);
  });

  test('tolerates a tick that comes a little late', () => {
    const collector = newCollector();
    tick(collector, T0, { pods: [webPodItem()] });
    tick(collector, T0 + INTERVAL + 1_500, { podsResult: down() });
    expect(tick(collector, T0 + 2 * INTERVAL + 1_900, { podsResult: down() }).podsSeries).toBe('held');
  });

  test('with no good answer yet, the /pods series are not sent', () => {
    const result = tick(newCollector(), T0, { podsResult: down() });
    expect(result.podsSeries).toBe('stopped');
    expect(samples(result, 'kubelet_pods')).toEqual([]);
  });
});

describe('failures and bad documents', () => {
  test('one failing source never stops the others', () => {
    const collector = newCollector();
    const documents: Documents = {
      node: { workingSetBytes: 1 },
      cadvisor: [
        { uid: UID, pod: WEB_POD, container: 'web', fs: [{ device: 'sda', readBytes: 1, writeBytes: 2 }] },
      ],
      pods: [webPodItem()],
    };
    const noSummary = tick(collector, T0, { ...documents, summary: down('timeout') });
    expect(noSummary.sources).toEqual({ summary: { error: 'timeout' }, cadvisor: 'ok', pods: 'ok' });
    expect(samples(noSummary, 'container_fs_reads_bytes_total')).toHaveLength(1);
    expect(samples(noSummary, 'kubelet_pods')).toHaveLength(5);
    const noCadvisor = tick(collector, T0 + INTERVAL, { ...documents, cadvisorResult: down('timeout') });
    expect(noCadvisor.sources).toEqual({ summary: 'ok', cadvisor: { error: 'timeout' }, pods: 'ok' });
    expect(samples(noCadvisor, 'node_memory_used_bytes')).toHaveLength(1);
    expect(samples(noCadvisor, 'container_fs_reads_bytes_total')).toEqual([]);
  });

  test('a summary that fails validation is a failed source and changes no state', () => {
    const collector = newCollector();
    const summaryAt = (timeMs: number, cpuNs: unknown) =>
      JSON.stringify({
        node: {},
        pods: [
          {
            podRef: { name: WEB_POD, namespace: 'shop', uid: UID },
            containers: [{ name: 'web', cpu: { time: kubeletTime(timeMs), usageCoreNanoSeconds: cpuNs } }],
          },
          { podRef: { name: 'broken', namespace: 'shop' } },
        ],
      });
    tick(collector, T0, {
      summary: ok(
        summaryBody(T0, {}, [{ uid: UID, name: WEB_POD, containers: [{ name: 'web', cpuNs: 0 }] }]),
      ),
    });
    const bad = tick(collector, T0 + 30_000, { summary: ok(summaryAt(T0 + 30_000, 1e15)) });
    expect(bad.sources.summary).toEqual({ error: 'pods[1].podRef.uid: expected a non-empty string' });
    expect(samples(bad, 'container_cpu_usage_ratio')).toEqual([]);
    // Had the bad document's reading been kept, this would be a negative delta and give nothing.
    const good = tick(collector, T0 + 60_000, {
      summary: ok(
        summaryBody(T0 + 60_000, {}, [
          { uid: UID, name: WEB_POD, containers: [{ name: 'web', cpuNs: 120e9 }] },
        ]),
      ),
    });
    expect(valueOf(good, 'container_cpu_usage_ratio')).toBe(2);
  });

  test('a cAdvisor answer malformed halfway is a failed source and changes no state', () => {
    const collector = newCollector();
    const web = (periods: number, throttledPeriods: number) =>
      ({
        uid: UID,
        pod: WEB_POD,
        container: 'web',
        cfs: { periods, throttledPeriods },
        oomEvents: 1,
      }) satisfies CadvisorContainerFixture;
    tick(collector, T0, { cadvisor: [web(1000, 0)] });
    const truncated = `${cadvisorBody(T0 + 30_000, [web(5000, 4000)])}container_oom_events_total{container="web",pod="x 3\n`;
    const bad = tick(collector, T0 + 30_000, { cadvisorResult: ok(truncated) });
    const status = bad.sources.cadvisor;
    expect(status !== 'ok' && status.error).toMatch(/^line \d+: value of label pod is not closed$/);
    expect(samples(bad, 'container_cpu_throttled_ratio')).toEqual([]);
    const good = tick(collector, T0 + 60_000, { cadvisor: [web(2000, 500)] });
    expect(valueOf(good, 'container_cpu_throttled_ratio')).toBe(0.5);
  });

  test('a /pods document that fails validation is a failed /pods answer: nothing resolved, series held', () => {
    const collector = newCollector();
    tick(collector, T0, { pods: [webPodItem({ containers: [{ name: 'web', restartCount: 1 }] })] });
    const badPods = JSON.stringify({
      items: [
        {
          metadata: {
            name: 'api-1',
            namespace: 'shop',
            uid: OTHER_UID,
            ownerReferences: [{ kind: 'StatefulSet', name: 'api' }],
          },
        },
        {
          metadata: { name: 'x', namespace: 'shop', uid: 'u9' },
          status: { containerStatuses: [{ name: 'c', restartCount: 'many' }] },
        },
      ],
    });
    const bad = tick(collector, T0 + INTERVAL, {
      podsResult: ok(badPods),
      summaryPods: [{ uid: OTHER_UID, name: 'api-1', usageBytes: 1 }],
    });
    expect(bad.sources.pods).toEqual({
      error: 'items[1].status.containerStatuses[0].restartCount: expected a number',
    });
    expect(bad.podsSeries).toBe('held');
    expect(valueOf(bad, 'container_restarts_total')).toBe(1);
    expect(samples(bad, 'pod_memory_used_bytes')[0]?.labels.workload).toBeUndefined();
  });
});

describe('KubeletCollector options', () => {
  test('are checked when the collector is made', () => {
    expect(() => new KubeletCollector({ nodeName: '', intervalMs: INTERVAL })).toThrow(RangeError);
    expect(() => new KubeletCollector({ nodeName: NODE, intervalMs: 0 })).toThrow(RangeError);
  });
});
