import { describe, expect, it } from 'vitest';
import { createSimulatedNode } from './simulated-node.js';
import { renderStatsSummary } from './stats-summary.js';

const T0 = Date.parse('2026-08-01T10:00:00.400Z');

interface Cpu {
  time: string;
  usageNanoCores?: number;
  usageCoreNanoSeconds: number;
}
interface ContainerStats {
  name: string;
  startTime: string;
  cpu: Cpu;
  memory: { workingSetBytes: number; usageBytes: number; rssBytes: number; availableBytes?: number };
}
interface PodStats {
  podRef: { name: string; namespace: string; uid: string };
  containers: ContainerStats[] | null;
  cpu: Cpu;
  memory: { workingSetBytes: number };
  network?: { rxBytes: number; txBytes: number; interfaces: { name: string }[] };
}
interface Summary {
  node: {
    nodeName: string;
    systemContainers: { name: string }[];
    cpu: Cpu;
    memory: { availableBytes: number; workingSetBytes: number };
    network: { name: string; rxBytes: number; txBytes: number; interfaces: { name: string }[] };
    fs: { capacityBytes: number; usedBytes: number; availableBytes: number };
  };
  pods: PodStats[];
}

function setup(pods?: number) {
  let t = T0;
  const node = createSimulatedNode({ now: () => t, ...(pods !== undefined ? { pods } : {}) });
  return {
    node,
    read: () => JSON.parse(renderStatsSummary(node)) as Summary,
    advance: (ms: number) => {
      t += ms;
    },
  };
}

function walk(value: unknown, visit: (key: string, v: unknown) => void): void {
  if (Array.isArray(value)) for (const v of value) walk(v, visit);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      visit(k, v);
      walk(v, visit);
    }
  }
}

describe('renderStatsSummary', () => {
  it('answers in the kubelet schema, one-space indented, whole-second times and whole numbers', () => {
    const { read, node } = setup();
    const text = renderStatsSummary(node);
    expect(text.startsWith('{\n "node": {\n  "nodeName": "sim-node-1",\n  "systemContainers": [')).toBe(true);
    const summary = read();
    expect(Object.keys(summary.node)).toEqual([
      'nodeName',
      'systemContainers',
      'startTime',
      'cpu',
      'memory',
      'network',
      'fs',
      'runtime',
      'rlimit',
    ]);
    expect(summary.node.systemContainers.map((c) => c.name)).toEqual(['kubelet', 'runtime', 'pods']);
    expect(summary.node.cpu.time).toBe('2026-08-01T10:00:00Z');
    expect(summary.node.network).toMatchObject({
      name: 'eth0',
      interfaces: [{ name: 'eth0' }, { name: 'vxlan.calico' }],
    });
    walk(summary, (key, v) => {
      if (key === 'time' || key === 'startTime') expect(v).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
      if (typeof v === 'number') expect(Number.isInteger(v) && v >= 0).toBe(true);
    });
    const pod = summary.pods.find((p) => p.containers?.length && p.network);
    expect(Object.keys(pod ?? {})).toEqual([
      'podRef',
      'startTime',
      'containers',
      'cpu',
      'memory',
      'network',
      'volume',
      'ephemeral-storage',
      'process_stats',
    ]);
    expect(Object.keys(pod?.containers?.[0] ?? {})).toEqual([
      'name',
      'startTime',
      'cpu',
      'memory',
      'rootfs',
      'logs',
    ]);
    expect(summary.node.memory.availableBytes + summary.node.memory.workingSetBytes).toBe(node.memoryBytes);
    expect(summary.node.fs.usedBytes + summary.node.fs.availableBytes).toBeLessThan(
      summary.node.fs.capacityBytes,
    );
  });

  it('lists pods with a sandbox and only their running containers', () => {
    const { read, node } = setup();
    const summary = read();
    const listed = new Map(summary.pods.map((p) => [p.podRef.uid, p]));
    for (const pod of node.pods()) {
      const stats = listed.get(pod.uid);
      if (pod.phase === 'Succeeded' || pod.phase === 'Failed') {
        expect(stats).toBeUndefined();
        continue;
      }
      expect(stats?.podRef).toEqual({ name: pod.name, namespace: pod.namespace, uid: pod.uid });
      const running = [...pod.initContainers, ...pod.containers]
        .filter((c) => c.state === 'running')
        .map((c) => c.name);
      // A pod whose sandbox is up but nothing runs yet is marshalled by Go as `null`.
      expect(stats?.containers?.map((c) => c.name) ?? null).toEqual(running.length ? running : null);
    }
    expect(summary.pods.some((p) => p.containers === null)).toBe(true);
    expect(summary.pods.some((p) => p.network === undefined)).toBe(true);
  });

  it('gives counters that grow between two reads at later clock times', () => {
    const { read, advance } = setup();
    const before = read();
    advance(30_000);
    const after = read();
    expect(after.node.cpu.usageCoreNanoSeconds).toBeGreaterThan(before.node.cpu.usageCoreNanoSeconds);
    expect(after.node.network.rxBytes).toBeGreaterThan(before.node.network.rxBytes);
    const beforePods = new Map(before.pods.map((p) => [p.podRef.uid, p]));
    let podDelta = 0;
    for (const pod of after.pods) {
      const earlier = beforePods.get(pod.podRef.uid);
      if (!earlier) throw new Error(`${pod.podRef.name} appeared`);
      const delta = pod.cpu.usageCoreNanoSeconds - earlier.cpu.usageCoreNanoSeconds;
      expect(delta).toBeGreaterThan(0);
      podDelta += delta;
      for (const c of pod.containers ?? []) {
        const was = earlier.containers?.find((x) => x.name === c.name);
        expect(c.cpu.usageCoreNanoSeconds).toBeGreaterThan(was?.cpu.usageCoreNanoSeconds ?? Infinity);
        // The rate over the interval is what the kubelet's own averaging reports, give or take the swing.
        const rate = (c.cpu.usageCoreNanoSeconds - (was?.cpu.usageCoreNanoSeconds ?? 0)) / 30;
        expect(c.cpu.usageNanoCores).toBeGreaterThan(rate * 0.2);
        expect(c.cpu.usageNanoCores).toBeLessThan(rate * 5);
      }
    }
    const nodeDelta = after.node.cpu.usageCoreNanoSeconds - before.node.cpu.usageCoreNanoSeconds;
    expect(nodeDelta).toBeGreaterThan(podDelta);
    expect(nodeDelta / 30e9).toBeLessThan(32);
  });

  it('shows a new container without usageNanoCores until the kubelet has two samples', () => {
    const { read, node, advance } = setup(20);
    const pod = node.addPod({
      name: 'fresh',
      containers: [{ name: 'app', resources: { requests: { cpu: '1' } } }],
    });
    const first = read().pods.find((p) => p.podRef.uid === pod.uid)?.containers?.[0];
    expect(first?.cpu.usageNanoCores).toBeUndefined();
    expect(first?.cpu.usageCoreNanoSeconds).toBeGreaterThan(0);
    advance(20_000);
    const later = read().pods.find((p) => p.podRef.uid === pod.uid)?.containers?.[0];
    expect(later?.cpu.usageNanoCores).toBeGreaterThan(0);
  });

  it('restarts a container from zero while its pod keeps counting; recreated and stopped ones show as such', () => {
    const { read, node, advance } = setup(30);
    const pod = node
      .pods()
      .find(
        (p) => p.phase === 'Running' && p.containers.length === 1 && p.containers[0]?.state === 'running',
      );
    const name = pod?.containers[0]?.name ?? '';
    if (!pod) throw new Error('no running pod');
    const before = read().pods.find((p) => p.podRef.uid === pod.uid);
    advance(5000);
    node.restartContainer(pod.uid, name, { reason: 'OOMKilled' });
    advance(5000);
    const after = read().pods.find((p) => p.podRef.uid === pod.uid);
    expect(after?.containers?.[0]?.startTime).toBe('2026-08-01T10:00:05Z');
    expect(after?.containers?.[0]?.cpu.usageCoreNanoSeconds).toBeLessThan(
      before?.containers?.[0]?.cpu.usageCoreNanoSeconds ?? 0,
    );
    expect(after?.cpu.usageCoreNanoSeconds).toBeGreaterThan(before?.cpu.usageCoreNanoSeconds ?? Infinity);

    const again = node.recreatePod(pod.uid);
    let pods = read().pods;
    expect(pods.some((p) => p.podRef.uid === pod.uid)).toBe(false);
    expect(pods.find((p) => p.podRef.uid === again.uid)?.podRef.name).toBe(pod.name);

    node.setWaiting(again.uid, name, 'CrashLoopBackOff');
    pods = read().pods;
    expect(pods.find((p) => p.podRef.uid === again.uid)?.containers).toBeNull();
  });

  it('answers only CPU and memory for ?only_cpu_and_memory=true', () => {
    const { node } = setup(10);
    const lean = JSON.parse(renderStatsSummary(node, { onlyCpuAndMemory: true })) as Summary;
    expect(Object.keys(lean.node)).toEqual(['nodeName', 'systemContainers', 'startTime', 'cpu', 'memory']);
    for (const pod of lean.pods) {
      expect(Object.keys(pod)).toEqual(['podRef', 'startTime', 'containers', 'cpu', 'memory']);
      for (const c of pod.containers ?? [])
        expect(Object.keys(c)).toEqual(['name', 'startTime', 'cpu', 'memory']);
    }
  });
});
