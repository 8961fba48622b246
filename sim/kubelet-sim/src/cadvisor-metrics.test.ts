import { describe, expect, it } from 'vitest';
import { renderCadvisorMetrics } from './cadvisor-metrics.js';
import { readExposition, type PromSample } from './kubelet-test-client.js';
import { createSimulatedNode, type SimulatedNodeOptions } from './simulated-node.js';

const T0 = Date.parse('2026-08-01T10:00:00Z');
const SIX = ['container', 'id', 'image', 'name', 'namespace', 'pod'];

function setup(options: SimulatedNodeOptions = {}) {
  let t = T0;
  const node = createSimulatedNode({ now: () => t, ...options });
  return {
    node,
    read: () => readExposition(renderCadvisorMetrics(node)),
    advance: (ms: number) => {
      t += ms;
    },
  };
}

const key = (s: PromSample): string => `${s.name}${JSON.stringify(s.labels)}`;
const of = (samples: PromSample[], name: string): PromSample[] => samples.filter((s) => s.name === name);

describe('renderCadvisorMetrics', () => {
  it('writes text format 0.0.4 as the kubelet does: sorted families, HELP and TYPE, a ms timestamp on every sample', () => {
    const { node } = setup();
    const text = renderCadvisorMetrics(node);
    const { samples, types, help } = readExposition(text);
    const families = [...types.keys()];
    expect(families.length).toBeGreaterThanOrEqual(50);
    expect(families.length).toBeLessThanOrEqual(70);
    expect(families).toEqual([...families].sort());
    expect([...help.keys()]).toEqual(families);
    expect(
      samples.every((s) => s.timestamp !== undefined && s.timestamp > T0 - 1000 && s.timestamp <= T0),
    ).toBe(true);
    expect(new Set(samples.map((s) => s.timestamp)).size).toBeGreaterThan(50);
    // A busy 110-pod node: megabytes of long lines.
    expect(text.length).toBeGreaterThan(3_000_000);
    expect(text.length / samples.length).toBeGreaterThan(300);
    expect(text.length / samples.length).toBeLessThan(500);
    expect(text).toMatch(/ \d\.\d+e\+\d\d \d{13}\n/);
  });

  it('labels every container series with exactly container, id, image, name, namespace and pod, plus the family’s own', () => {
    const { samples } = setup({ pods: 30 }).read();
    const labelSets = new Map<string, string>();
    for (const s of samples) labelSets.set(s.name, Object.keys(s.labels).join(','));
    expect(labelSets.get('container_cpu_usage_seconds_total')).toBe(
      'container,cpu,id,image,name,namespace,pod',
    );
    expect(labelSets.get('container_fs_reads_bytes_total')).toBe(
      'container,device,id,image,name,namespace,pod',
    );
    expect(labelSets.get('container_fs_writes_bytes_total')).toBe(
      'container,device,id,image,name,namespace,pod',
    );
    expect(labelSets.get('container_network_receive_bytes_total')).toBe(
      'container,id,image,interface,name,namespace,pod',
    );
    for (const name of [
      'container_memory_working_set_bytes',
      'container_oom_events_total',
      'container_cpu_cfs_periods_total',
      'container_cpu_cfs_throttled_periods_total',
      'container_cpu_cfs_throttled_seconds_total',
      'container_start_time_seconds',
      'container_spec_cpu_quota',
    ]) {
      expect(labelSets.get(name)).toBe(SIX.join(','));
    }
    expect(of(samples, 'container_cpu_usage_seconds_total').every((s) => s.labels.cpu === 'total')).toBe(
      true,
    );
  });

  it('includes the rows a consumer must filter out: the root, system services, pod cgroups and pause containers', () => {
    const { node, read } = setup();
    const usage = of(read().samples, 'container_cpu_usage_seconds_total');
    const ids = usage.map((s) => s.labels.id ?? '');
    expect(ids).toContain('/');
    expect(ids).toContain('/kubepods.slice');
    expect(ids).toContain('/system.slice/kubelet.service');
    expect(ids).toContain('/system.slice/containerd.service');
    const running = node.pods().filter((p) => p.phase === 'Running');
    for (const pod of running) {
      const escaped = pod.uid.replace(/-/g, '_');
      const podRows = usage.filter((s) => s.labels.pod === pod.name && s.labels.namespace === pod.namespace);
      const cgroup = podRows.filter((s) => s.labels.container === '');
      expect(cgroup).toHaveLength(1);
      expect(cgroup[0]?.labels.id).toMatch(new RegExp(`^/kubepods\\.slice/.*pod${escaped}\\.slice$`));
      const pause = podRows.filter((s) => s.labels.container === 'POD');
      expect(pause[0]?.labels).toMatchObject({
        image: 'registry.k8s.io/pause:3.10',
        name: expect.stringMatching(/^[0-9a-f]{64}$/) as string,
      });
      for (const c of [...pod.initContainers, ...pod.containers].filter((x) => x.state === 'running')) {
        const rows = podRows.filter((s) => s.labels.container === c.name);
        expect(rows).toHaveLength(1);
        expect(rows[0]?.labels.name).toBe(c.containerId);
        expect(rows[0]?.labels.id).toBe(
          `${cgroup[0]?.labels.id ?? ''}/cri-containerd-${c.containerId ?? ''}.scope`,
        );
      }
      for (const c of pod.containers.filter((x) => x.state !== 'running')) {
        expect(podRows.some((s) => s.labels.container === c.name)).toBe(false);
      }
    }
    const sorted = [...usage].sort((a, b) =>
      (a.labels.container ?? '') === (b.labels.container ?? '')
        ? (a.labels.id ?? '') < (b.labels.id ?? '')
          ? -1
          : 1
        : (a.labels.container ?? '') < (b.labels.container ?? '')
          ? -1
          : 1,
    );
    expect(usage).toEqual(sorted);
  });

  it('has CFS counters only for containers with a CPU limit, and machine gauges labelled with the node identity', () => {
    const { node, read } = setup();
    const { samples } = read();
    const periods = of(samples, 'container_cpu_cfs_periods_total').filter((s) => s.labels.container !== '');
    const limited = node
      .pods()
      .flatMap((p) => [...p.initContainers, ...p.containers].filter((c) => c.state === 'running'))
      .filter((c) => c.cpuLimited);
    expect(periods.map((s) => s.labels.name).sort()).toEqual(limited.map((c) => c.containerId).sort());
    const throttled = new Map(
      of(samples, 'container_cpu_cfs_throttled_periods_total').map((s) => [s.labels.id, s.value]),
    );
    for (const s of periods) expect(throttled.get(s.labels.id)).toBeLessThanOrEqual(s.value);
    expect(periods.some((s) => (throttled.get(s.labels.id) ?? 0) > s.value * 0.2)).toBe(true);
    const identity = { boot_id: node.bootId, machine_id: node.machineId, system_uuid: node.systemUuid };
    expect(of(samples, 'machine_cpu_cores')).toEqual([
      { name: 'machine_cpu_cores', labels: identity, value: node.cores, timestamp: T0 },
    ]);
    expect(of(samples, 'machine_memory_bytes')[0]).toMatchObject({
      labels: identity,
      value: node.memoryBytes,
    });
  });

  it('gives counters that only grow, and restarts a container in a new cgroup from zero', () => {
    const { node, read, advance } = setup({ pods: 40 });
    const counters = (samples: PromSample[]) => samples.filter((s) => s.name.endsWith('_total'));
    const before = read().samples;
    advance(60_000);
    const after = new Map(counters(read().samples).map((s) => [key(s), s]));
    let grew = 0;
    for (const s of counters(before)) {
      const later = after.get(key(s));
      if (!later) throw new Error(`${key(s)} vanished`);
      expect(later.value).toBeGreaterThanOrEqual(s.value);
      expect(later.timestamp).toBe((s.timestamp ?? 0) + 60_000);
      if (later.value > s.value) grew++;
    }
    expect(grew).toBeGreaterThan(counters(before).length / 2);
    for (const s of of(before, 'container_cpu_usage_seconds_total')) {
      expect(after.get(key(s))?.value).toBeGreaterThan(s.value);
    }

    const pod = node.pods().find((p) => p.phase === 'Running' && p.containers[0]?.state === 'running');
    const c = pod?.containers[0];
    if (!pod || !c) throw new Error('no running pod');
    const old = of(read().samples, 'container_cpu_usage_seconds_total').find(
      (s) => s.labels.name === c.containerId,
    );
    node.restartContainer(pod.uid, c.name, { reason: 'OOMKilled' });
    advance(10_000);
    const usage = of(read().samples, 'container_cpu_usage_seconds_total');
    expect(usage.some((s) => s.labels.name === c.containerId)).toBe(false);
    const fresh = usage.filter((s) => s.labels.pod === pod.name && s.labels.container === c.name);
    expect(fresh).toHaveLength(1);
    expect(fresh[0]?.labels.name).not.toBe(c.containerId);
    expect(fresh[0]?.value).toBeLessThan(old?.value ?? 0);
    expect(fresh[0]?.value).toBeLessThan(10);
  });

  it('counts OOM events a container survives, and its fs reads and writes by device', () => {
    const { node, read, advance } = setup();
    advance(4 * 3_600_000);
    const { samples } = read();
    const worker = node.pods().find((p) => p.name.startsWith('report-worker-'));
    const oom = of(samples, 'container_oom_events_total').find(
      (s) => s.labels.pod === worker?.name && s.labels.container === 'worker',
    );
    expect(oom?.value).toBeGreaterThanOrEqual(4);
    expect(
      of(samples, 'container_oom_events_total')
        .filter((s) => s.labels.container === '')
        .every((s) => s.value === 0),
    ).toBe(true);
    const writes = of(samples, 'container_fs_writes_bytes_total').filter(
      (s) => s.labels.container !== '' && s.labels.container !== 'POD',
    );
    expect(writes.length).toBeGreaterThan(100);
    expect(writes.every((s) => s.labels.device === '/dev/nvme0n1')).toBe(true);
    expect(writes.some((s) => s.value > 0)).toBe(true);
  });

  it('names cgroups as cgroupfs does when the node uses that driver', () => {
    const { node, read } = setup({ pods: 5, cgroupDriver: 'cgroupfs' });
    const pod = node.pods().find((p) => p.phase === 'Running');
    const ids = of(read().samples, 'container_memory_rss').map((s) => s.labels.id ?? '');
    expect(ids).toContain('/kubepods');
    expect(ids.some((id) => id.endsWith(`pod${pod?.uid ?? '?'}`))).toBe(true);
    expect(
      ids.some((id) => id.endsWith(`pod${pod?.uid ?? '?'}/${pod?.containers[0]?.containerId ?? '?'}`)),
    ).toBe(true);
  });

  it('renders a 110-pod node quickly enough to be scraped every second', () => {
    const { node, advance } = setup();
    renderCadvisorMetrics(node);
    advance(1000);
    const start = performance.now();
    renderCadvisorMetrics(node);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});
