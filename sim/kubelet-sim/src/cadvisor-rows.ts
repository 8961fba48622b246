import { addLeafSample, CgroupSample, type Leaf } from './cgroup-sample.js';
import { nodeFsUsage } from './disk-usage.js';
import { parseQuantity } from './quantity.js';
import {
  qosClass,
  runningLeaf,
  sandboxLeaf,
  type ContainerModel,
  type PodModel,
  type QosClass,
} from './pod-model.js';
import type { SimulatedNode } from './simulated-node.js';

const PAUSE_IMAGE = 'registry.k8s.io/pause:3.10';
const CFS_PERIOD_US = 100_000;
const MIN_SHARES = 2;

type RowKind = 'root' | 'slice' | 'service' | 'pod' | 'pause' | 'container';

interface RowFilesystem {
  device: string;
  usageBytes: number;
  limitBytes: number;
  inodesFree: number;
  inodes: number;
}

interface RowInterface {
  name: string;
  sample: CgroupSample;
}

/** One cgroup as cAdvisor exports it: its labels (pre-rendered) and what was sampled. */
export interface CadvisorRow {
  kind: RowKind;
  /** `container="…"`, `id="…",image="…"` and `name="…",namespace="…"` and `pod="…"`: the fixed label set in
   * Prometheus' sorted order, split where the extra labels of some families slot in. */
  container: string;
  idImage: string;
  nameNamespace: string;
  pod: string;
  /** All six, for the families that have no other label. */
  base: string;
  /** The label value of `container`, for sorting. */
  containerName: string;
  id: string;
  /** ` <ms>`: when cAdvisor last looked at this cgroup. */
  timestamp: string;
  timeMs: number;
  sample: CgroupSample;
  startTimeS: number;
  cpuQuotaUs: number | undefined;
  cpuShares: number;
  memoryLimitBytes: number;
  /** The container's own OOM events; 0 for pods, slices and the root. */
  oomEvents: number;
  filesystem: RowFilesystem | undefined;
  interfaces: RowInterface[];
  process: boolean;
}

export function escapeLabel(value: string): string {
  return /[\\"\n]/.test(value)
    ? value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')
    : value;
}

interface RowLabels {
  container: string;
  id: string;
  image: string;
  name: string;
  namespace: string;
  pod: string;
}

function labelParts(
  l: RowLabels,
): Pick<CadvisorRow, 'container' | 'idImage' | 'nameNamespace' | 'pod' | 'base' | 'containerName' | 'id'> {
  const container = `container="${escapeLabel(l.container)}"`;
  const idImage = `id="${escapeLabel(l.id)}",image="${escapeLabel(l.image)}"`;
  const nameNamespace = `name="${escapeLabel(l.name)}",namespace="${escapeLabel(l.namespace)}"`;
  const pod = `pod="${escapeLabel(l.pod)}"`;
  return {
    container,
    idImage,
    nameNamespace,
    pod,
    base: `${container},${idImage},${nameNamespace},${pod}`,
    containerName: l.container,
    id: l.id,
  };
}

/** The cgroup paths of one node, for its cgroup driver. */
class CgroupPaths {
  constructor(private readonly driver: 'systemd' | 'cgroupfs') {}

  get kubepods(): string {
    return this.driver === 'systemd' ? '/kubepods.slice' : '/kubepods';
  }

  qos(qos: Exclude<QosClass, 'Guaranteed'>): string {
    const name = qos.toLowerCase();
    return this.driver === 'systemd' ? `/kubepods.slice/kubepods-${name}.slice` : `/kubepods/${name}`;
  }

  pod(pod: PodModel): string {
    const qos = qosClass(pod);
    if (this.driver === 'cgroupfs') {
      return qos === 'Guaranteed'
        ? `/kubepods/pod${pod.uid}`
        : `/kubepods/${qos.toLowerCase()}/pod${pod.uid}`;
    }
    // systemd escapes "-" in a unit name as "_".
    const uid = pod.uid.replace(/-/g, '_');
    return qos === 'Guaranteed'
      ? `/kubepods.slice/kubepods-pod${uid}.slice`
      : `${this.qos(qos)}/kubepods-${qos.toLowerCase()}-pod${uid}.slice`;
  }

  container(pod: PodModel, id: string): string {
    return this.driver === 'systemd'
      ? `${this.pod(pod)}/cri-containerd-${id}.scope`
      : `${this.pod(pod)}/${id}`;
  }
}

function sharesOf(cpuCores: number): number {
  return Math.max(MIN_SHARES, Math.round(cpuCores * 1024));
}

function requestCores(c: ContainerModel): number {
  const cpu = c.resources.requests?.cpu ?? c.resources.limits?.cpu;
  return cpu === undefined ? 0 : parseQuantity(cpu);
}

function leafSample(leaf: Leaf, t: number): CgroupSample {
  const out = new CgroupSample();
  addLeafSample(out, leaf, t);
  return out;
}

/** Every cgroup the kubelet's cAdvisor exports at `now`, sorted as the Prometheus registry sorts them. */
export function cadvisorRows(node: SimulatedNode, now: number): CadvisorRow[] {
  const paths = new CgroupPaths(node.cgroupDriver);
  const usage = nodeFsUsage(node, now);
  const rootFs: RowFilesystem = {
    device: node.fs.device,
    usageBytes: usage.usedBytes,
    limitBytes: node.fs.capacityBytes,
    inodesFree: node.fs.inodes - usage.inodesUsed,
    inodes: node.fs.inodes,
  };
  const rows: CadvisorRow[] = [];
  const podSamples = new Map<PodModel, CgroupSample>();
  for (const pod of node.podModels()) {
    const sample = podRows(pod, paths, rootFs, now, rows);
    if (sample) podSamples.set(pod, sample);
  }
  // Slices add up their pods as last sampled, as cAdvisor's parents reflect their children.
  const cached = (pod: PodModel): CgroupSample => podSamples.get(pod) ?? new CgroupSample();
  const nodeTimestamp = ` ${now}`;
  const system = (id: string, sample: CgroupSample, startedAt: number, kind: RowKind): CadvisorRow => ({
    kind,
    ...labelParts({ container: '', id, image: '', name: '', namespace: '', pod: '' }),
    timestamp: nodeTimestamp,
    timeMs: now,
    sample,
    startTimeS: startedAt / 1000,
    cpuQuotaUs: undefined,
    cpuShares: 1024,
    memoryLimitBytes: 0,
    oomEvents: 0,
    filesystem: undefined,
    interfaces: [],
    process: kind !== 'slice',
  });
  const kubepods = node.kubepodsSample(now, cached);
  const root = system('/', node.rootSample(now, cached), node.bootTime, 'root');
  root.filesystem = rootFs;
  const tunnel = new CgroupSample();
  tunnel.netRxBytes = Math.floor(kubepods.netRxBytes * 0.35);
  tunnel.netTxBytes = Math.floor(kubepods.netTxBytes * 0.35);
  tunnel.netRxPackets = Math.floor(kubepods.netRxPackets * 0.35);
  tunnel.netTxPackets = Math.floor(kubepods.netTxPackets * 0.35);
  root.interfaces = [
    { name: 'eth0', sample: root.sample },
    { name: 'vxlan.calico', sample: tunnel },
  ];
  const kubeletStart = node.system.kubelet.startedAt;
  rows.push(root, {
    ...system(paths.kubepods, kubepods, kubeletStart + 4000, 'slice'),
    cpuShares: node.cores * 1024,
  });
  for (const qos of ['Burstable', 'BestEffort'] as const) {
    rows.push({
      ...system(paths.qos(qos), node.qosSample(qos, now, cached), kubeletStart + 4100, 'slice'),
      cpuShares: 2,
    });
  }
  const { runtime, kubelet } = node.system;
  rows.push(
    system('/system.slice', node.systemSliceSample(now), node.bootTime + 1000, 'slice'),
    system('/system.slice/containerd.service', leafSample(runtime, now), runtime.startedAt, 'service'),
    system('/system.slice/kubelet.service', leafSample(kubelet, now), kubeletStart, 'service'),
  );
  return rows.sort((a, b) => compare(a.containerName, b.containerName) || compare(a.id, b.id));
}

/** Adds the rows of a pod with a sandbox (its cgroup, the pause container, running containers); returns the pod's sample. */
function podRows(
  pod: PodModel,
  paths: CgroupPaths,
  rootFs: RowFilesystem,
  now: number,
  rows: CadvisorRow[],
): CgroupSample | undefined {
  const pause = sandboxLeaf(pod);
  if (!pod.sandbox || !pause) return undefined;
  const t = now - pod.staggerMs;
  const podPath = paths.pod(pod);
  const running = [...pod.initContainers, ...pod.containers].filter((c) => c.status.state === 'running');
  const common = {
    timestamp: ` ${t}`,
    timeMs: t,
    process: true,
    oomEvents: 0,
    filesystem: undefined,
    interfaces: [],
  };
  const podSample = new CgroupSample().addCounters(pod.retired);
  const pauseSample = leafSample(pause, t);
  podSample.add(pauseSample);
  rows.push({
    ...common,
    kind: 'pause',
    ...labelParts({
      container: 'POD',
      id: paths.container(pod, pod.sandbox.id),
      image: PAUSE_IMAGE,
      name: pod.sandbox.id,
      namespace: pod.namespace,
      pod: pod.name,
    }),
    sample: pauseSample,
    startTimeS: pod.sandbox.startedAt / 1000,
    cpuQuotaUs: undefined,
    cpuShares: MIN_SHARES,
    memoryLimitBytes: 0,
    interfaces: pod.hostNetwork ? [] : [{ name: 'eth0', sample: pauseSample }],
  });
  for (const c of running) {
    const leaf = runningLeaf(c);
    if (c.status.state !== 'running' || !leaf) continue;
    const sample = leafSample(leaf, t);
    podSample.add(sample);
    rows.push({
      ...common,
      kind: 'container',
      ...labelParts({
        container: c.name,
        id: paths.container(pod, c.status.containerId),
        image: c.image,
        name: c.status.containerId,
        namespace: pod.namespace,
        pod: pod.name,
      }),
      sample,
      startTimeS: c.status.startedAt / 1000,
      cpuQuotaUs: c.cpuLimitCores === undefined ? undefined : c.cpuLimitCores * CFS_PERIOD_US,
      cpuShares: sharesOf(requestCores(c)),
      memoryLimitBytes: c.memoryLimitBytes ?? 0,
      oomEvents: sample.oomEvents,
      filesystem: { ...rootFs, usageBytes: c.rootfsBytes },
    });
  }
  const limited = running.length > 0 && running.every((c) => c.cpuLimitCores !== undefined);
  const memoryLimits = running.map((c) => c.memoryLimitBytes);
  rows.push({
    ...common,
    kind: 'pod',
    ...labelParts({
      container: '',
      id: podPath,
      image: '',
      name: '',
      namespace: pod.namespace,
      pod: pod.name,
    }),
    sample: podSample,
    startTimeS: (pod.sandbox.startedAt - 300) / 1000,
    cpuQuotaUs: limited
      ? running.reduce((sum, c) => sum + (c.cpuLimitCores ?? 0), 0) * CFS_PERIOD_US
      : undefined,
    cpuShares: sharesOf(running.reduce((sum, c) => sum + requestCores(c), 0)),
    memoryLimitBytes: memoryLimits.every((l) => l !== undefined)
      ? memoryLimits.reduce((sum, l) => sum + l, 0)
      : 0,
  });
  return podSample;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
