import { addLeafSample, CgroupSample, type Leaf } from './cgroup-sample.js';
import {
  containerLogBytes,
  containerRootfsInodes,
  imageInodes,
  nodeFsAvailableBytes,
  nodeFsUsage,
  onNodeFs,
  podEphemeralUsage,
  volumeInodes,
  volumeUsedBytes,
} from './disk-usage.js';
import { metav1Time } from './metav1-time.js';
import { allContainers, runningLeaf, type ContainerModel, type PodModel } from './pod-model.js';
import type { SimulatedNode } from './simulated-node.js';

export interface StatsSummaryOptions {
  /** `?only_cpu_and_memory=true`: node, system containers, pods and containers with CPU and memory only. */
  onlyCpuAndMemory?: boolean;
}

/** The span cAdvisor's CPU rate is averaged over (its housekeeping interval). */
const RATE_WINDOW_MS = 10_000;
/** A cgroup younger than this has no second stat yet, so no `usageNanoCores`. */
const NEW_CGROUP_MS = 15_000;
const MAX_PID = 4_194_304;
const KERNEL_THREADS = 260;
/** The hard eviction threshold `memory.available<100Mi` keeps this much out of the pods' reach. */
const EVICTION_RESERVE_BYTES = 100 * 1024 * 1024;

/** Returns what `GET /stats/summary` answers: the kubelet's Summary API (`stats/v1alpha1`) as JSON. */
export function renderStatsSummary(node: SimulatedNode, options: StatsSummaryOptions = {}): string {
  const lean = options.onlyCpuAndMemory === true;
  const now = node.now();
  const t = floorSecond(now);
  const usage = nodeFsUsage(node, t);
  const ctx: SummaryContext = {
    node,
    lean,
    nodeFs: {
      usedBytes: usage.usedBytes,
      inodesUsed: usage.inodesUsed,
      availableBytes: nodeFsAvailableBytes(node, usage),
      capacityBytes: node.fs.capacityBytes,
      inodesFree: node.fs.inodes - usage.inodesUsed,
      inodes: node.fs.inodes,
    },
  };
  const summary = {
    node: lean ? leanNodeStats(node, t) : nodeStats(ctx, t),
    pods: node
      .podModels()
      .filter((pod) => pod.sandbox)
      .map((pod) => podStats(ctx, pod, floorSecond(now - pod.staggerMs))),
  };
  // go-restful writes the kubelet's answers indented by one space.
  return JSON.stringify(summary, null, 1);
}

function floorSecond(ms: number): number {
  return Math.floor(ms / 1000) * 1000;
}

interface SummaryContext {
  node: SimulatedNode;
  lean: boolean;
  /** The node's root filesystem, looked at once per answer. */
  nodeFs: {
    usedBytes: number;
    inodesUsed: number;
    availableBytes: number;
    capacityBytes: number;
    inodesFree: number;
    inodes: number;
  };
}

/** `FsStats`, fields in the kubelet's order. */
function fsStats(
  t: number,
  fs: { availableBytes: number; capacityBytes: number; inodesFree: number; inodes: number },
  usedBytes: number,
  inodesUsed: number,
): Record<string, unknown> {
  return {
    time: metav1Time(t),
    availableBytes: fs.availableBytes,
    capacityBytes: fs.capacityBytes,
    usedBytes,
    inodesFree: fs.inodesFree,
    inodes: fs.inodes,
    inodesUsed,
  };
}

interface Window {
  now: CgroupSample;
  before: CgroupSample;
}

function cpuStats(t: number, w: Window, startedAt: number): Record<string, unknown> {
  const rate = ((w.now.cpuSeconds - w.before.cpuSeconds) / (RATE_WINDOW_MS / 1000)) * 1e9;
  return {
    time: metav1Time(t),
    ...(t - startedAt >= NEW_CGROUP_MS ? { usageNanoCores: Math.max(0, Math.round(rate)) } : {}),
    usageCoreNanoSeconds: Math.round(w.now.cpuSeconds * 1e9),
  };
}

function memoryStats(t: number, s: CgroupSample, limitBytes: number | undefined): Record<string, unknown> {
  return {
    time: metav1Time(t),
    ...(limitBytes !== undefined ? { availableBytes: Math.max(0, limitBytes - s.workingSetBytes) } : {}),
    usageBytes: s.usageBytes,
    workingSetBytes: s.workingSetBytes,
    rssBytes: s.rssBytes,
    pageFaults: s.pageFaults,
    majorPageFaults: s.majorPageFaults,
  };
}

function leafWindow(leaf: Leaf, t: number): Window {
  const now = new CgroupSample();
  const before = new CgroupSample();
  addLeafSample(now, leaf, t);
  addLeafSample(before, leaf, t - RATE_WINDOW_MS);
  return { now, before };
}

function systemContainers(node: SimulatedNode, t: number): Record<string, unknown>[] {
  const kubepods = { now: node.kubepodsSample(t), before: node.kubepodsSample(t - RATE_WINDOW_MS) };
  const entry = (name: string, startedAt: number, w: Window, limit?: number): Record<string, unknown> => ({
    name,
    startTime: metav1Time(startedAt),
    cpu: cpuStats(t, w, startedAt),
    memory: memoryStats(t, w.now, limit),
  });
  const { kubelet, runtime } = node.system;
  return [
    entry('kubelet', kubelet.startedAt, leafWindow(kubelet, t)),
    entry('runtime', runtime.startedAt, leafWindow(runtime, t)),
    entry('pods', kubelet.startedAt + 4000, kubepods, node.memoryBytes - EVICTION_RESERVE_BYTES),
  ];
}

function leanNodeStats(node: SimulatedNode, t: number): Record<string, unknown> {
  const w = { now: node.rootSample(t), before: node.rootSample(t - RATE_WINDOW_MS) };
  return {
    nodeName: node.nodeName,
    systemContainers: systemContainers(node, t),
    startTime: metav1Time(node.bootTime),
    cpu: cpuStats(t, w, node.bootTime),
    memory: memoryStats(t, w.now, node.memoryBytes),
  };
}

function nodeStats(ctx: SummaryContext, t: number): Record<string, unknown> {
  const { node, nodeFs } = ctx;
  const w = { now: node.rootSample(t), before: node.rootSample(t - RATE_WINDOW_MS) };
  const pods = node.kubepodsSample(t);
  const time = metav1Time(t);
  const eth0 = {
    name: 'eth0',
    rxBytes: w.now.netRxBytes,
    rxErrors: 0,
    txBytes: w.now.netTxBytes,
    txErrors: 0,
  };
  // Traffic between pods on different nodes also crosses Calico's VXLAN tunnel.
  const tunnel = {
    name: 'vxlan.calico',
    rxBytes: Math.floor(pods.netRxBytes * 0.35),
    rxErrors: 0,
    txBytes: Math.floor(pods.netTxBytes * 0.35),
    txErrors: 0,
  };
  const imageFs = fsStats(t, nodeFs, node.fs.imagesBytes, imageInodes(node));
  return {
    nodeName: node.nodeName,
    systemContainers: systemContainers(node, t),
    startTime: metav1Time(node.bootTime),
    cpu: cpuStats(t, w, node.bootTime),
    memory: memoryStats(t, w.now, node.memoryBytes),
    network: { time, ...eth0, interfaces: [eth0, tunnel] },
    fs: fsStats(t, nodeFs, nodeFs.usedBytes, nodeFs.inodesUsed),
    runtime: { imageFs, containerFs: imageFs },
    rlimit: { time, maxpid: MAX_PID, curproc: w.now.processes + KERNEL_THREADS },
  };
}

function podStats(ctx: SummaryContext, pod: PodModel, t: number): Record<string, unknown> {
  const { node, nodeFs, lean } = ctx;
  const w = { now: node.podSample(pod, t), before: node.podSample(pod, t - RATE_WINDOW_MS) };
  const running = allContainers(pod).filter((c) => c.status.state === 'running');
  const memoryLimits = allContainers(pod).map((c) => (c.init && !c.sidecar ? 0 : c.memoryLimitBytes));
  const podLimit = memoryLimits.every((l) => l !== undefined)
    ? memoryLimits.reduce((sum, l) => sum + l, 0)
    : undefined;
  const time = metav1Time(t);
  const stats: Record<string, unknown> = {
    podRef: { name: pod.name, namespace: pod.namespace, uid: pod.uid },
    startTime: metav1Time(pod.startedAt),
    // Go marshals a pod with no running container yet as `null`, not `[]`.
    containers: running.length ? running.map((c) => containerStats(ctx, pod, c, t)) : null,
    cpu: cpuStats(t, w, pod.sandbox?.startedAt ?? pod.startedAt),
    memory: memoryStats(t, w.now, podLimit),
  };
  if (lean) return stats;
  if (!pod.hostNetwork) {
    const eth0 = {
      name: 'eth0',
      rxBytes: w.now.netRxBytes,
      rxErrors: 0,
      txBytes: w.now.netTxBytes,
      txErrors: 0,
    };
    stats.network = { time, ...eth0, interfaces: [eth0] };
  }
  const volumes = pod.volumes
    .filter((v) => v.source !== 'hostPath')
    .map((v) => {
      const usedBytes = volumeUsedBytes(pod, v, t);
      const own = onNodeFs(v)
        ? nodeFs
        : {
            availableBytes: v.capacityBytes - usedBytes,
            capacityBytes: v.capacityBytes,
            inodesFree: volumeInodes(v) - v.inodesUsed,
            inodes: volumeInodes(v),
          };
      return {
        ...fsStats(t, own, usedBytes, v.inodesUsed),
        name: v.name,
        ...(v.claimName ? { pvcRef: { name: v.claimName, namespace: pod.namespace } } : {}),
      };
    });
  if (volumes.length) stats.volume = volumes;
  const ephemeral = podEphemeralUsage(pod, t);
  stats['ephemeral-storage'] = fsStats(t, nodeFs, ephemeral.usedBytes, ephemeral.inodesUsed);
  stats.process_stats = { process_count: w.now.processes };
  return stats;
}

function containerStats(
  ctx: SummaryContext,
  pod: PodModel,
  c: ContainerModel,
  t: number,
): Record<string, unknown> {
  const leaf = runningLeaf(c);
  const startedAt = leaf?.startedAt ?? t;
  const w = leaf ? leafWindow(leaf, t) : { now: new CgroupSample(), before: new CgroupSample() };
  const stats: Record<string, unknown> = {
    name: c.name,
    startTime: metav1Time(startedAt),
    cpu: cpuStats(t, w, startedAt),
    memory: memoryStats(t, w.now, c.memoryLimitBytes),
  };
  if (ctx.lean) return stats;
  stats.rootfs = fsStats(t, ctx.nodeFs, c.rootfsBytes, containerRootfsInodes(c));
  stats.logs = fsStats(t, ctx.nodeFs, containerLogBytes(pod, c, t), 2);
  return stats;
}
