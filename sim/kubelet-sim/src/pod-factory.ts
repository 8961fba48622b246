import { CgroupSample, type UsageProfile } from './cgroup-sample.js';
import { randomSuffix } from './kube-names.js';
import type {
  ContainerModel,
  ContainerResources,
  OwnerReference,
  PodModel,
  SimulatedWorkload,
  VolumeModel,
} from './pod-model.js';
import { parseQuantity } from './quantity.js';
import type { SeededRandom } from './seeded-random.js';

/** Roughly what a container uses; the factory adds per-container variation. */
export interface UsageHint {
  cpuCores: number;
  memoryBytes: number;
  fsReadBps?: number;
  fsWriteBps?: number;
  netRxBps?: number;
  netTxBps?: number;
  throttledRatio?: number;
  oomEventsPerHour?: number;
  processes?: number;
}

export interface ContainerInput {
  name: string;
  image: string;
  resources: ContainerResources;
  sidecar?: boolean;
  usage: UsageHint;
}

export interface PodInput {
  name: string;
  namespace: string;
  uid: string;
  generateName?: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  owner?: OwnerReference;
  workload: SimulatedWorkload;
  hostNetwork?: boolean;
  restartPolicy?: PodModel['restartPolicy'];
  serviceAccount?: string;
  priorityClassName?: string;
  containers: readonly ContainerInput[];
  initContainers?: readonly ContainerInput[];
  /** Volumes besides the service-account token every API pod gets. */
  volumes?: readonly Omit<VolumeModel, 'inodesUsed'>[];
  createdAt: number;
}

export interface NodeFacts {
  nodeName: string;
  hostIp: string;
  memoryBytes: number;
  /** The node's pod CIDR as `a.b.c.`, from which pod IPs are handed out. */
  podSubnet: string;
}

const MiB = 1024 * 1024;
const PRIORITIES: Record<string, number> = {
  'system-node-critical': 2_000_001_000,
  'system-cluster-critical': 2_000_000_000,
};

/** Builds pods the way the kubelet would have started them: sandbox, then init containers, then the rest. */
export class PodFactory {
  private readonly digests = new Map<string, string>();
  private nextIp = 2;

  constructor(
    private readonly random: SeededRandom,
    private readonly node: NodeFacts,
  ) {}

  containerId(): string {
    return this.random.hex(64);
  }

  /** A running pod: sandbox up a second after creation, init containers done, every container running. */
  runningPod(input: PodInput): PodModel {
    const hostNetwork = input.hostNetwork ?? false;
    // Every service talks a little (probes, DNS, metrics scrapes) even without a hint.
    const netRx = input.containers.reduce(
      (sum, c) => sum + (c.usage.netRxBps ?? this.random.between(300, 30_000)),
      0,
    );
    const netTx = input.containers.reduce(
      (sum, c) => sum + (c.usage.netTxBps ?? this.random.between(300, 30_000)),
      0,
    );
    const volumes: VolumeModel[] = [
      ...(input.workload.kind === 'StaticPod' ? [] : [this.serviceAccountVolume()]),
      ...(input.volumes ?? []).map((v) => ({ ...v, inodesUsed: this.random.int(3, 40) })),
    ];
    const pod: PodModel = {
      uid: input.uid,
      name: input.name,
      namespace: input.namespace,
      generateName: input.generateName,
      labels: input.labels,
      annotations: input.annotations,
      owner: input.owner,
      workload: input.workload,
      createdAt: input.createdAt,
      startedAt: input.createdAt,
      phase: 'Running',
      reason: undefined,
      message: undefined,
      hostNetwork,
      podIp: hostNetwork ? this.node.hostIp : this.podIp(),
      restartPolicy: input.restartPolicy ?? 'Always',
      serviceAccount: input.serviceAccount ?? 'default',
      priorityClassName: input.priorityClassName,
      priority: input.priorityClassName ? (PRIORITIES[input.priorityClassName] ?? 0) : 0,
      containers: input.containers.map((c) => this.container(c, false)),
      initContainers: (input.initContainers ?? []).map((c) => this.container(c, true)),
      sandbox: undefined,
      pauseProfile: this.pauseProfile(hostNetwork ? 0 : netRx, hostNetwork ? 0 : netTx),
      retired: new CgroupSample(),
      volumes,
      staggerMs: this.random.int(0, 999),
    };
    this.boot(pod);
    return pod;
  }

  /**
   * The same pod made again by its controller (or `kubectl delete pod` and a StatefulSet): same name,
   * spec and usage, a new uid, new containers that have never restarted.
   */
  recreated(old: PodModel, uid: string, createdAt: number): PodModel {
    const fresh = (c: ContainerModel): ContainerModel => ({
      ...c,
      restartCount: 0,
      lastTermination: undefined,
      status: { state: 'waiting', reason: 'ContainerCreating', message: undefined },
    });
    const pod: PodModel = {
      ...old,
      uid,
      labels: { ...old.labels },
      annotations: { ...old.annotations },
      createdAt,
      startedAt: createdAt,
      phase: 'Running',
      reason: undefined,
      message: undefined,
      podIp: old.hostNetwork ? old.podIp : this.podIp(),
      containers: old.containers.map(fresh),
      initContainers: old.initContainers.map(fresh),
      sandbox: undefined,
      retired: new CgroupSample(),
      volumes: old.volumes.map((v) => (v.source === 'projected' ? this.serviceAccountVolume() : { ...v })),
    };
    this.boot(pod);
    return pod;
  }

  /** Starts what the kubelet starts for a new pod, in its order, from `pod.createdAt` on. */
  private boot(pod: PodModel): void {
    const sandboxAt = pod.createdAt + 1000 + this.random.int(0, 900);
    pod.startedAt = pod.createdAt + this.random.int(50, 900);
    pod.sandbox = { id: this.containerId(), startedAt: sandboxAt };
    let t = sandboxAt + this.random.int(200, 900);
    for (const c of pod.initContainers) {
      const id = this.containerId();
      if (c.sidecar) {
        c.status = { state: 'running', containerId: id, startedAt: t };
        t += this.random.int(300, 1500);
      } else {
        const finishedAt = t + this.random.int(800, 6000);
        c.status = {
          state: 'terminated',
          termination: { reason: 'Completed', exitCode: 0, startedAt: t, finishedAt, containerId: id },
        };
        t = finishedAt + this.random.int(200, 900);
      }
    }
    for (const c of pod.containers) {
      c.status = { state: 'running', containerId: this.containerId(), startedAt: t };
      t += this.random.int(20, 400);
    }
  }

  podIp(): string {
    const ip = this.nextIp++;
    return `${this.node.podSubnet}${String(ip % 254 || 254)}`;
  }

  container(input: ContainerInput, init: boolean): ContainerModel {
    const limits = input.resources.limits ?? {};
    const memoryLimitBytes = limits.memory === undefined ? undefined : parseQuantity(limits.memory);
    return {
      name: input.name,
      image: input.image,
      imageId: this.imageId(input.image),
      init,
      sidecar: init && input.sidecar === true,
      resources: input.resources,
      cpuLimitCores: limits.cpu === undefined ? undefined : parseQuantity(limits.cpu),
      memoryLimitBytes,
      profile: this.profile(input.usage, memoryLimitBytes),
      rootfsBytes: this.random.int(1, 12_000) * 4096,
      logBytesPerS: this.random.between(2, 400),
      restartCount: 0,
      status: { state: 'waiting', reason: 'ContainerCreating', message: undefined },
      lastTermination: undefined,
    };
  }

  /** Varies a hint by up to a quarter either way, so replicas of one workload differ like real ones. */
  profile(hint: UsageHint, memoryLimitBytes?: number): UsageProfile {
    const r = this.random;
    const vary = (v: number): number => v * r.between(0.75, 1.25);
    const rss = Math.min(vary(hint.memoryBytes) * 0.85, (memoryLimitBytes ?? Infinity) * 0.86);
    const processes = hint.processes ?? r.int(1, 4);
    return {
      cpuCores: vary(hint.cpuCores),
      cpuSwing: r.between(0.05, 0.6),
      cpuPeriodS: r.between(45, 900),
      phase: r.between(0, 2 * Math.PI),
      rssBytes: rss,
      cacheBytes: Math.min(
        vary(hint.memoryBytes) * r.between(0.05, 0.4),
        (memoryLimitBytes ?? Infinity) * 0.1,
      ),
      pageFaultsPerS: vary(20 + hint.cpuCores * 400),
      majorPageFaultsPerS: r.between(0, 0.002),
      fsReadBps: vary(hint.fsReadBps ?? r.between(0, 2048)),
      fsWriteBps: vary(hint.fsWriteBps ?? r.between(100, 8192)),
      netRxBps: 0,
      netTxBps: 0,
      oomEventsPerHour: hint.oomEventsPerHour ?? 0,
      throttledRatio: hint.throttledRatio ?? r.between(0, 0.04),
      processes,
      threads: processes * r.int(4, 40),
      fileDescriptors: processes * r.int(8, 120),
      sockets: r.int(0, 60),
    };
  }

  /** The pause container: next to nothing, except that the pod's traffic is counted on its netns. */
  private pauseProfile(netRxBps: number, netTxBps: number): UsageProfile {
    return {
      ...this.profile({
        cpuCores: 0.00002,
        memoryBytes: 0.45 * MiB,
        fsReadBps: 0,
        fsWriteBps: 0,
        processes: 1,
      }),
      netRxBps: netRxBps * this.random.between(0.9, 1.1),
      netTxBps: netTxBps * this.random.between(0.9, 1.1),
      threads: 1,
      fileDescriptors: 4,
      sockets: 0,
      throttledRatio: 0,
    };
  }

  private serviceAccountVolume(): VolumeModel {
    // The token, CA and namespace are on a tmpfs sized like the kubelet's default (half the memory).
    return {
      name: `kube-api-access-${randomSuffix(this.random)}`,
      source: 'projected',
      capacityBytes: Math.floor(this.node.memoryBytes / 2 / 4096) * 4096,
      usedBytes: 12_288,
      growthBps: 0,
      inodesUsed: 9,
    };
  }

  imageId(image: string): string {
    let digest = this.digests.get(image);
    if (digest === undefined) {
      digest = this.random.hex(64);
      this.digests.set(image, digest);
    }
    return `${image.replace(/:[^:/]+$/, '')}@sha256:${digest}`;
  }
}
