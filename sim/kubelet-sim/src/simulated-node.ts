import { addLeafSample, CgroupSample, type Leaf, type UsageProfile } from './cgroup-sample.js';
import { PodFactory, type ContainerInput, type PodInput } from './pod-factory.js';
import { backOffMessage, exitCodeOf, generatePodMix } from './pod-mix.js';
import {
  allContainers,
  latestContainerId,
  qosClass,
  runningLeaf,
  sandboxLeaf,
  type ContainerModel,
  type ContainerResources,
  type PodModel,
  type PodPhase,
  type QosClass,
  type SimulatedWorkload,
  type TerminationReason,
} from './pod-model.js';
import { parseQuantity } from './quantity.js';
import { fnv32a, SeededRandom } from './seeded-random.js';

export interface SimulatedNodeOptions {
  nodeName?: string;
  /** How many pods the kubelet runs; default 110, the kubelet's default `maxPods`. */
  pods?: number;
  seed?: number;
  /** The clock every counter follows, in ms since the epoch; default `Date.now`. */
  now?: () => number;
  /** How cgroups are named: systemd slices (the default since kubeadm 1.22) or cgroupfs directories. */
  cgroupDriver?: 'systemd' | 'cgroupfs';
}

/** A container as a test sees it. */
export interface SimulatedContainer {
  name: string;
  init: boolean;
  /** The runtime id (64 hex) of the current or last run; what cAdvisor's `name` label carries. */
  containerId: string | undefined;
  restartCount: number;
  state: 'running' | 'waiting' | 'terminated';
  /** The waiting or terminated reason. */
  reason: string | undefined;
  lastTerminationReason: string | undefined;
  cpuLimited: boolean;
}

/** A pod as a test sees it; `workload` is what an agent should resolve it to. */
export interface SimulatedPod {
  uid: string;
  name: string;
  namespace: string;
  phase: PodPhase;
  workload: SimulatedWorkload;
  containers: SimulatedContainer[];
  initContainers: SimulatedContainer[];
}

export interface SimulatedContainerSpec {
  name: string;
  image?: string;
  resources?: ContainerResources;
  /** Average use; by default derived from the requests (or a small idle service). */
  usage?: { cpuCores?: number; memoryBytes?: number; throttledRatio?: number; oomEventsPerHour?: number };
  /** For an init container: a native sidecar (`restartPolicy: Always`) that keeps running. */
  sidecar?: boolean;
}

export interface SimulatedPodSpec {
  name: string;
  namespace?: string;
  uid?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  owner?: { apiVersion?: string; kind: string; name: string; uid?: string };
  hostNetwork?: boolean;
  containers: readonly SimulatedContainerSpec[];
  initContainers?: readonly SimulatedContainerSpec[];
  /** Default `Running`: started a few seconds before the node's clock. */
  phase?: PodPhase;
}

export interface NodeFilesystem {
  device: string;
  capacityBytes: number;
  /** Blocks ext4 keeps for root: neither used nor available. */
  reservedBytes: number;
  /** What the OS, kubelet and runtime state use, besides images and containers. */
  baseUsedBytes: number;
  imagesBytes: number;
  inodes: number;
  baseInodesUsed: number;
}

/** The cgroups outside `kubepods`: the kubelet, the runtime (with its shims), other services, and the rest. */
export interface SystemCgroups {
  kubelet: Leaf;
  runtime: Leaf;
  otherServices: Leaf;
  /** Kernel threads, `init.scope`, `user.slice` and the traffic of host-network processes. */
  host: Leaf;
}

type PodSampler = (pod: PodModel) => CgroupSample;

const DEFAULT_PODS = 110;
const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const DAY = 86_400_000;

/**
 * A Kubernetes node as its kubelet reports it: machine identity, pods in a realistic mix, and cgroups
 * whose counters grow with the clock. Every change a test makes through the control methods shows in
 * all three documents, as the kubelet and cAdvisor would show it.
 */
export class SimulatedNode {
  readonly nodeName: string;
  readonly uid: string;
  readonly machineId: string;
  readonly systemUuid: string;
  readonly bootId: string;
  /** Logical CPUs (`machine_cpu_cores`). */
  readonly cores: number;
  /** `MemTotal` (`machine_memory_bytes`). */
  readonly memoryBytes: number;
  readonly bootTime: number;
  readonly hostIp: string;
  readonly kernelVersion = '6.8.0-1024-aws';
  readonly osImage = 'Ubuntu 24.04.2 LTS';
  readonly cgroupDriver: 'systemd' | 'cgroupfs';
  readonly fs: NodeFilesystem;
  readonly system: SystemCgroups;
  readonly now: () => number;
  private podModelList: PodModel[];
  /** Usage of pods that have gone, still counted in their QoS slice (Guaranteed: in kubepods). */
  private readonly retiredByQos: Record<QosClass, CgroupSample>;
  /** Usage of the pods that came and went before this model's clock started. */
  private readonly kubepodsHistory: CgroupSample;
  private readonly random: SeededRandom;
  private readonly factory: PodFactory;

  constructor(options: SimulatedNodeOptions = {}) {
    this.nodeName = options.nodeName ?? 'sim-node-1';
    this.now = options.now ?? Date.now;
    this.cgroupDriver = options.cgroupDriver ?? 'systemd';
    const podCount = options.pods ?? DEFAULT_PODS;
    if (!Number.isInteger(podCount) || podCount < 0)
      throw new Error(`pods must be a whole number, got ${podCount}`);
    const seed = (options.seed ?? 1) ^ fnv32a(this.nodeName);
    const random = new SeededRandom(seed);
    this.random = new SeededRandom(seed ^ 0x5bd1e995);
    const t0 = this.now();
    this.uid = random.uuid();
    this.machineId = random.hex(32);
    this.systemUuid = `ec2${random.uuid().slice(3)}`.toUpperCase();
    this.bootId = random.uuid();
    this.cores = podCount >= 60 ? 32 : podCount >= 20 ? 16 : 8;
    this.memoryBytes = Math.floor((this.cores * 4 * GiB * 0.9806) / 4096) * 4096;
    this.bootTime = t0 - random.int(3 * DAY, 40 * DAY);
    this.hostIp = `10.0.${random.int(0, 255)}.${random.int(2, 254)}`;
    const podSubnet = `10.42.${random.int(0, 255)}.`;
    this.fs = {
      device: '/dev/nvme0n1p1',
      capacityBytes: 210_304_954_368,
      reservedBytes: 10_515_247_104,
      baseUsedBytes: random.int(9, 16) * GiB,
      imagesBytes: 0,
      inodes: 13_107_200,
      baseInodesUsed: random.int(180_000, 260_000),
    };
    this.factory = new PodFactory(random, {
      nodeName: this.nodeName,
      hostIp: this.hostIp,
      memoryBytes: this.memoryBytes,
      podSubnet,
    });
    const systemProfile = (
      hint: Parameters<PodFactory['profile']>[0],
      net = { rx: 0, tx: 0 },
    ): UsageProfile => ({
      ...this.factory.profile(hint),
      netRxBps: net.rx,
      netTxBps: net.tx,
    });
    const boot = this.bootTime;
    this.system = {
      kubelet: {
        profile: systemProfile({
          cpuCores: 0.03 + podCount * 0.0012,
          memoryBytes: 90 * MiB + podCount * 0.6 * MiB,
        }),
        startedAt: boot + 21_000,
        cpuLimitCores: undefined,
      },
      runtime: {
        // containerd's shims live in its service cgroup, about 9 MiB each.
        profile: systemProfile({
          cpuCores: 0.02 + podCount * 0.0006,
          memoryBytes: 70 * MiB + podCount * 9 * MiB,
        }),
        startedAt: boot + 14_000,
        cpuLimitCores: undefined,
      },
      otherServices: {
        profile: systemProfile({ cpuCores: 0.015, memoryBytes: 140 * MiB }),
        startedAt: boot + 3000,
        cpuLimitCores: undefined,
      },
      host: {
        profile: {
          ...systemProfile({ cpuCores: 0.08, memoryBytes: 380 * MiB }, { rx: 350_000, tx: 260_000 }),
          cacheBytes: 0.12 * this.memoryBytes,
        },
        startedAt: boot,
        cpuLimitCores: undefined,
      },
    };
    this.podModelList = generatePodMix(podCount, {
      random,
      factory: this.factory,
      nodeName: this.nodeName,
      nodeUid: this.uid,
      now: t0,
      bootTime: this.bootTime,
      nodeFsCapacityBytes: this.fs.capacityBytes,
    });
    const images = new Set(this.podModelList.flatMap((p) => allContainers(p).map((c) => c.image)));
    this.fs.imagesBytes = [...images].reduce((sum, image) => sum + (20 + (fnv32a(image) % 900)) * MiB, 0);
    this.retiredByQos = {
      Guaranteed: new CgroupSample(),
      Burstable: new CgroupSample(),
      BestEffort: new CgroupSample(),
    };
    this.kubepodsHistory = new CgroupSample();
    addLeafSample(
      this.kubepodsHistory,
      {
        profile: systemProfile({ cpuCores: 0.4, memoryBytes: 0 }, { rx: 200_000, tx: 150_000 }),
        startedAt: boot,
        cpuLimitCores: undefined,
      },
      t0,
    );
  }

  // ---- what tests use ----

  pods(): SimulatedPod[] {
    return this.podModelList.map(podView);
  }

  /** Admits a pod (by default Running, its containers started a moment before the clock). */
  addPod(spec: SimulatedPodSpec): SimulatedPod {
    const pod = this.factory.runningPod(this.podInput(spec));
    this.podModelList.push(pod);
    if (spec.phase && spec.phase !== 'Running') this.setPhase(pod.uid, spec.phase);
    return podView(pod);
  }

  deletePod(uid: string): void {
    const pod = this.pod(uid);
    this.endSandbox(pod);
    this.podModelList = this.podModelList.filter((p) => p !== pod);
  }

  /** Deletes the pod and admits it again as its controller would: same name, a new uid, no restarts. */
  recreatePod(uid: string): SimulatedPod {
    const old = this.pod(uid);
    this.deletePod(uid);
    const isStatic = old.workload.kind === 'StaticPod';
    const newUid = isStatic ? this.random.hex(32) : this.random.uuid();
    const pod = this.factory.recreated(old, newUid, this.now() - 3000);
    if (isStatic) {
      pod.annotations['kubernetes.io/config.hash'] = newUid;
      pod.annotations['kubernetes.io/config.mirror'] = newUid;
    }
    this.podModelList.push(pod);
    return podView(pod);
  }

  /** The container exits with `reason` (default `Error`) and the kubelet starts it again at once. */
  restartContainer(uid: string, container: string, options: { reason?: TerminationReason } = {}): void {
    const pod = this.livePod(uid);
    const c = containerOf(pod, container);
    const now = this.now();
    const reason = options.reason ?? 'Error';
    const previousStart =
      c.status.state === 'running' ? c.status.startedAt : (c.lastTermination?.startedAt ?? now);
    const previousId = latestContainerId(c) ?? this.factory.containerId();
    this.stop(pod, c, now);
    c.lastTermination = {
      reason,
      exitCode: exitCodeOf(reason),
      startedAt: previousStart,
      finishedAt: now,
      containerId: previousId,
    };
    c.restartCount++;
    this.start(c, now);
  }

  /**
   * Puts the container in Waiting with `reason` (CrashLoopBackOff, ImagePullBackOff, …), or with
   * `undefined` starts it again. An init container waiting holds the pod in Pending (Init:…) and its
   * app containers in PodInitializing; when the last init container finishes, they start.
   */
  setWaiting(uid: string, container: string, reason: string | undefined): void {
    const pod = this.livePod(uid);
    const c = containerOf(pod, container);
    const now = this.now();
    if (reason === undefined) {
      if (c.status.state !== 'waiting') return;
      if (latestContainerId(c) !== undefined) c.restartCount++;
      this.start(c, now);
      this.startAppsWhenInitialized(pod, now);
      return;
    }
    if (c.status.state === 'running') {
      c.lastTermination = {
        reason: 'Error',
        exitCode: 1,
        startedAt: c.status.startedAt,
        finishedAt: now,
        containerId: c.status.containerId,
      };
      this.stop(pod, c, now);
    } else if (c.status.state === 'terminated') {
      // A crash loop means the last run failed, even of an init container that had completed.
      const t = c.status.termination;
      c.lastTermination =
        reason === 'CrashLoopBackOff' && t.exitCode === 0
          ? { ...t, reason: 'Error', exitCode: 1, finishedAt: now }
          : t;
    }
    c.status = { state: 'waiting', reason, message: waitingMessage(pod, c, reason) };
    if (c.init && !c.sidecar) {
      const later = pod.initContainers.slice(pod.initContainers.indexOf(c) + 1);
      for (const other of [...later, ...pod.containers]) {
        this.stop(pod, other, now);
        other.status = { state: 'waiting', reason: 'PodInitializing', message: undefined };
      }
      pod.phase = 'Pending';
    }
  }

  /** Moves the pod to `phase` with container states to match (Succeeded/Failed end its cgroup). */
  setPhase(uid: string, phase: PodPhase): void {
    const pod = this.pod(uid);
    const now = this.now();
    pod.reason = undefined;
    pod.message = undefined;
    switch (phase) {
      case 'Running':
        if (!pod.sandbox) this.newSandbox(pod, now);
        for (const c of allContainers(pod)) {
          if (c.status.state === 'running' || (c.init && !c.sidecar && c.status.state === 'terminated'))
            continue;
          if (latestContainerId(c) !== undefined) c.restartCount++;
          this.start(c, now);
        }
        break;
      case 'Pending':
        if (!pod.sandbox) this.newSandbox(pod, now);
        for (const c of pod.containers) {
          this.stop(pod, c, now);
          c.status = { state: 'waiting', reason: 'ContainerCreating', message: undefined };
        }
        break;
      case 'Succeeded':
      case 'Failed':
        for (const c of allContainers(pod)) {
          if (c.status.state !== 'running') continue;
          const { containerId, startedAt } = c.status;
          this.stop(pod, c, now);
          const reason = phase === 'Succeeded' ? 'Completed' : 'Error';
          c.status = {
            state: 'terminated',
            termination: { reason, exitCode: exitCodeOf(reason), startedAt, finishedAt: now, containerId },
          };
        }
        this.endSandbox(pod);
        break;
      case 'Unknown':
        break;
    }
    pod.phase = phase;
  }

  // ---- what the renderers read ----

  podModels(): readonly PodModel[] {
    return this.podModelList;
  }

  /** The pod's cgroup at `t`: what exited containers used, plus the pause container and running ones. */
  podSample(pod: PodModel, t: number): CgroupSample {
    const out = new CgroupSample().addCounters(pod.retired);
    const pause = sandboxLeaf(pod);
    if (pause) addLeafSample(out, pause, t);
    for (const c of allContainers(pod)) {
      const leaf = runningLeaf(c);
      if (leaf) addLeafSample(out, leaf, t);
    }
    return out;
  }

  /** A QoS slice: the pods of that class, and what the ones gone used. `podSampleOf` may serve cached samples. */
  qosSample(
    qos: QosClass,
    t: number,
    podSampleOf: PodSampler = (pod) => this.podSample(pod, t),
  ): CgroupSample {
    const out = new CgroupSample().addCounters(this.retiredByQos[qos]);
    for (const pod of this.podModelList) {
      if (pod.sandbox && qosClass(pod) === qos) out.add(podSampleOf(pod));
    }
    return out;
  }

  kubepodsSample(t: number, podSampleOf: PodSampler = (pod) => this.podSample(pod, t)): CgroupSample {
    return new CgroupSample()
      .addCounters(this.kubepodsHistory)
      .add(this.qosSample('Guaranteed', t, podSampleOf))
      .add(this.qosSample('Burstable', t, podSampleOf))
      .add(this.qosSample('BestEffort', t, podSampleOf));
  }

  systemSliceSample(t: number): CgroupSample {
    const out = new CgroupSample();
    for (const leaf of [this.system.kubelet, this.system.runtime, this.system.otherServices])
      addLeafSample(out, leaf, t);
    return out;
  }

  rootSample(t: number, podSampleOf: PodSampler = (pod) => this.podSample(pod, t)): CgroupSample {
    const out = this.kubepodsSample(t, podSampleOf).add(this.systemSliceSample(t));
    addLeafSample(out, this.system.host, t);
    return out;
  }

  // ---- internals ----

  private pod(uid: string): PodModel {
    const pod = this.podModelList.find((p) => p.uid === uid);
    if (!pod) throw new Error(`no pod with uid ${uid} on ${this.nodeName}`);
    return pod;
  }

  private livePod(uid: string): PodModel {
    const pod = this.pod(uid);
    if (!pod.sandbox)
      throw new Error(`pod ${pod.namespace}/${pod.name} is ${pod.phase}; its containers cannot start`);
    return pod;
  }

  /** Ends the container's run, keeping what it used in the pod's cgroup. */
  private stop(pod: PodModel, c: ContainerModel, now: number): void {
    const leaf = runningLeaf(c);
    if (leaf) addLeafSample(pod.retired, leaf, now);
  }

  private start(c: ContainerModel, now: number): void {
    const containerId = this.factory.containerId();
    c.status =
      c.init && !c.sidecar
        ? {
            state: 'terminated',
            termination: { reason: 'Completed', exitCode: 0, startedAt: now, finishedAt: now, containerId },
          }
        : { state: 'running', containerId, startedAt: now };
  }

  /** After an init container finished: the next ones run in turn, then the app containers start. */
  private startAppsWhenInitialized(pod: PodModel, now: number): void {
    for (const c of pod.initContainers) {
      if (c.status.state !== 'waiting') continue;
      if (c.status.reason !== 'PodInitializing') return;
      this.start(c, now);
    }
    for (const c of pod.containers) {
      if (c.status.state !== 'waiting' || c.status.reason !== 'PodInitializing') continue;
      if (latestContainerId(c) !== undefined) c.restartCount++;
      this.start(c, now);
    }
    if (pod.phase === 'Pending' && pod.containers.every((c) => c.status.state === 'running'))
      pod.phase = 'Running';
  }

  private newSandbox(pod: PodModel, now: number): void {
    pod.sandbox = { id: this.factory.containerId(), startedAt: now };
    pod.retired = new CgroupSample();
  }

  /** The pod's cgroup goes away; its QoS slice keeps what it used. */
  private endSandbox(pod: PodModel): void {
    if (!pod.sandbox) return;
    this.retiredByQos[qosClass(pod)].addCounters(this.podSample(pod, this.now()));
    pod.sandbox = undefined;
  }

  private podInput(spec: SimulatedPodSpec): PodInput {
    if (spec.name === '') throw new Error('a pod needs a name');
    if (spec.containers.length === 0) throw new Error(`pod ${spec.name} needs at least one container`);
    const names = [...spec.containers, ...(spec.initContainers ?? [])].map((c) => c.name);
    if (new Set(names).size !== names.length)
      throw new Error(`pod ${spec.name} has two containers with one name`);
    const uid = spec.uid ?? this.random.uuid();
    if (this.podModelList.some((p) => p.uid === uid)) throw new Error(`a pod with uid ${uid} already exists`);
    const labels = spec.labels ?? {};
    const owner = spec.owner && {
      apiVersion: spec.owner.apiVersion ?? defaultApiVersion(spec.owner.kind),
      kind: spec.owner.kind,
      name: spec.owner.name,
      uid: spec.owner.uid ?? this.random.uuid(),
    };
    return {
      name: spec.name,
      namespace: spec.namespace ?? 'default',
      uid,
      labels,
      annotations: spec.annotations ?? {},
      ...(owner ? { owner } : {}),
      workload: workloadOf(spec.name, labels, spec.annotations ?? {}, owner),
      hostNetwork: spec.hostNetwork ?? false,
      containers: spec.containers.map(containerInput),
      initContainers: (spec.initContainers ?? []).map(containerInput),
      createdAt: this.now() - 3000,
    };
  }
}

function containerInput(spec: SimulatedContainerSpec): ContainerInput {
  const resources = spec.resources ?? {};
  const requestedCpu = resources.requests?.cpu ?? resources.limits?.cpu;
  const requestedMemory = resources.requests?.memory ?? resources.limits?.memory;
  return {
    name: spec.name,
    image: spec.image ?? 'docker.io/library/nginx:1.27.4',
    resources,
    ...(spec.sidecar ? { sidecar: true } : {}),
    usage: {
      cpuCores: spec.usage?.cpuCores ?? (requestedCpu ? parseQuantity(requestedCpu) * 0.6 : 0.01),
      memoryBytes:
        spec.usage?.memoryBytes ?? (requestedMemory ? parseQuantity(requestedMemory) * 0.7 : 48 * MiB),
      ...(spec.usage?.throttledRatio !== undefined ? { throttledRatio: spec.usage.throttledRatio } : {}),
      ...(spec.usage?.oomEventsPerHour !== undefined
        ? { oomEventsPerHour: spec.usage.oomEventsPerHour }
        : {}),
    },
  };
}

function defaultApiVersion(kind: string): string {
  if (['ReplicaSet', 'StatefulSet', 'DaemonSet', 'Deployment'].includes(kind)) return 'apps/v1';
  if (['Job', 'CronJob'].includes(kind)) return 'batch/v1';
  if (kind === 'Rollout') return 'argoproj.io/v1alpha1';
  return 'v1';
}

/** The workload an added pod belongs to, by the rules the reference gives for real ones. */
function workloadOf(
  name: string,
  labels: Record<string, string>,
  annotations: Record<string, string>,
  owner: { kind: string; name: string } | undefined,
): SimulatedWorkload {
  if (annotations['kubernetes.io/config.source'] === 'file' || owner?.kind === 'Node') {
    return { kind: 'StaticPod', name: owner ? name.slice(0, -(owner.name.length + 1)) || name : name };
  }
  if (!owner) return { kind: 'Pod', name };
  if (owner.kind === 'ReplicaSet') {
    for (const [label, kind] of [
      ['pod-template-hash', 'Deployment'],
      ['rollouts-pod-template-hash', 'Rollout'],
    ] as const) {
      const hash = labels[label];
      if (hash && owner.name.endsWith(`-${hash}`))
        return { kind, name: owner.name.slice(0, -(hash.length + 1)) };
    }
    return { kind: 'ReplicaSet', name: owner.name };
  }
  if (owner.kind === 'Job' && /-\d+$/.test(owner.name)) {
    return { kind: 'CronJob', name: owner.name.replace(/-\d+$/, '') };
  }
  const kinds: readonly string[] = ['StatefulSet', 'DaemonSet', 'Job', 'Deployment', 'Rollout'];
  return kinds.includes(owner.kind)
    ? { kind: owner.kind as SimulatedWorkload['kind'], name: owner.name }
    : { kind: 'Pod', name };
}

function waitingMessage(pod: PodModel, c: ContainerModel, reason: string): string | undefined {
  if (reason === 'CrashLoopBackOff') return backOffMessage(pod, c);
  if (reason === 'ImagePullBackOff') return `Back-off pulling image "${c.image}"`;
  if (reason === 'ErrImagePull') {
    return `failed to pull and unpack image "${c.image}": failed to resolve reference "${c.image}": not found`;
  }
  return undefined;
}

function containerOf(pod: PodModel, name: string): ContainerModel {
  const c = allContainers(pod).find((x) => x.name === name);
  if (!c) throw new Error(`pod ${pod.namespace}/${pod.name} has no container ${name}`);
  return c;
}

function containerView(c: ContainerModel): SimulatedContainer {
  return {
    name: c.name,
    init: c.init,
    containerId: latestContainerId(c),
    restartCount: c.restartCount,
    state: c.status.state,
    reason:
      c.status.state === 'waiting'
        ? c.status.reason
        : c.status.state === 'terminated'
          ? c.status.termination.reason
          : undefined,
    lastTerminationReason: c.lastTermination?.reason,
    cpuLimited: c.cpuLimitCores !== undefined,
  };
}

function podView(pod: PodModel): SimulatedPod {
  return {
    uid: pod.uid,
    name: pod.name,
    namespace: pod.namespace,
    phase: pod.phase,
    workload: { ...pod.workload },
    containers: pod.containers.map(containerView),
    initContainers: pod.initContainers.map(containerView),
  };
}

export function createSimulatedNode(options: SimulatedNodeOptions = {}): SimulatedNode {
  return new SimulatedNode(options);
}
