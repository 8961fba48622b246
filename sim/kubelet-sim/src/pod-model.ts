import type { CgroupSample, Leaf, UsageProfile } from './cgroup-sample.js';

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
export type TerminationReason = 'OOMKilled' | 'Error' | 'Completed';
export type QosClass = 'Guaranteed' | 'Burstable' | 'BestEffort';

/** What a pod belongs to, as an agent resolving workloads should find it. */
export interface SimulatedWorkload {
  kind:
    | 'Deployment'
    | 'Rollout'
    | 'ReplicaSet'
    | 'StatefulSet'
    | 'DaemonSet'
    | 'Job'
    | 'CronJob'
    | 'StaticPod'
    | 'Pod';
  name: string;
}

interface ResourceList {
  cpu?: string;
  memory?: string;
}

export interface ContainerResources {
  requests?: ResourceList;
  limits?: ResourceList;
}

export interface OwnerReference {
  apiVersion: string;
  kind: string;
  name: string;
  uid: string;
}

export interface Termination {
  reason: string;
  exitCode: number;
  startedAt: number;
  finishedAt: number;
  containerId: string;
  message?: string;
}

type ContainerStatus =
  | { state: 'running'; containerId: string; startedAt: number }
  | { state: 'waiting'; reason: string; message: string | undefined }
  | { state: 'terminated'; termination: Termination };

export interface ContainerModel {
  name: string;
  image: string;
  imageId: string;
  /** An init container; with `sidecar`, one with `restartPolicy: Always` that keeps running. */
  init: boolean;
  sidecar: boolean;
  resources: ContainerResources;
  cpuLimitCores: number | undefined;
  memoryLimitBytes: number | undefined;
  profile: UsageProfile;
  rootfsBytes: number;
  logBytesPerS: number;
  restartCount: number;
  status: ContainerStatus;
  lastTermination: Termination | undefined;
}

export interface VolumeModel {
  name: string;
  source: 'projected' | 'configMap' | 'secret' | 'emptyDir' | 'persistentVolumeClaim' | 'hostPath';
  claimName?: string;
  hostPath?: string;
  capacityBytes: number;
  usedBytes: number;
  /** How fast the volume fills, in bytes per second of pod life. */
  growthBps: number;
  inodesUsed: number;
}

interface PodSandbox {
  id: string;
  startedAt: number;
}

export interface PodModel {
  uid: string;
  name: string;
  namespace: string;
  generateName: string | undefined;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  owner: OwnerReference | undefined;
  workload: SimulatedWorkload;
  createdAt: number;
  startedAt: number;
  phase: PodPhase;
  reason: string | undefined;
  message: string | undefined;
  hostNetwork: boolean;
  podIp: string;
  restartPolicy: 'Always' | 'OnFailure' | 'Never';
  serviceAccount: string;
  priorityClassName: string | undefined;
  priority: number;
  containers: ContainerModel[];
  initContainers: ContainerModel[];
  /** The pause container; while it lives the pod has a cgroup (Running, and Pending once admitted). */
  sandbox: PodSandbox | undefined;
  /** The pause container's usage; the pod's network traffic is counted on it. */
  pauseProfile: UsageProfile;
  /** What containers that have since exited used, still counted in the pod's cgroup. */
  retired: CgroupSample;
  volumes: VolumeModel[];
  /** How far behind the node's clock cAdvisor's last look at this pod is (0–999 ms). */
  staggerMs: number;
}

export function allContainers(pod: PodModel): ContainerModel[] {
  return [...pod.initContainers, ...pod.containers];
}

export function sandboxLeaf(pod: PodModel): Leaf | undefined {
  return pod.sandbox
    ? { profile: pod.pauseProfile, startedAt: pod.sandbox.startedAt, cpuLimitCores: undefined }
    : undefined;
}

export function runningLeaf(container: ContainerModel): Leaf | undefined {
  return container.status.state === 'running'
    ? {
        profile: container.profile,
        startedAt: container.status.startedAt,
        cpuLimitCores: container.cpuLimitCores,
      }
    : undefined;
}

export function qosClass(pod: PodModel): QosClass {
  const containers = allContainers(pod);
  const guaranteed = containers.every((c) => {
    const { requests = {}, limits = {} } = c.resources;
    return (
      limits.cpu !== undefined &&
      limits.memory !== undefined &&
      (requests.cpu ?? limits.cpu) === limits.cpu &&
      (requests.memory ?? limits.memory) === limits.memory
    );
  });
  if (guaranteed) return 'Guaranteed';
  const anySet = containers.some(
    (c) => Object.keys(c.resources.requests ?? {}).length + Object.keys(c.resources.limits ?? {}).length > 0,
  );
  return anySet ? 'Burstable' : 'BestEffort';
}

/** The id in `status.containerStatuses[].containerID` form. */
export function runtimeId(id: string): string {
  return `containerd://${id}`;
}

/** The container's current or most recent runtime id, if it ever had one. */
export function latestContainerId(container: ContainerModel): string | undefined {
  switch (container.status.state) {
    case 'running':
      return container.status.containerId;
    case 'terminated':
      return container.status.termination.containerId;
    case 'waiting':
      return container.lastTermination?.containerId;
  }
}
