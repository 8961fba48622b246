/**
 * The kubelet's `/stats/summary` and `/pods` answers, reduced to the fields the node agent uses and checked
 * before anything reads them: a document with a wrong type anywhere in those fields is rejected whole, with
 * the path of the first bad field. Every numeric field is optional (the kubelet omits what it does not
 * know); `null` counts as absent, as Go writes it for an empty list; unknown fields are ignored.
 */

export class KubeletDocumentError extends Error {
  override readonly name = 'KubeletDocumentError';

  constructor(
    /** Where the problem is, e.g. `pods[3].containers[0].cpu.usageCoreNanoSeconds`; empty for the whole document. */
    readonly path: string,
    readonly problem: string,
  ) {
    super(path === '' ? problem : `${path}: ${problem}`);
  }
}

// ---- /stats/summary ----

/** `time` fields are RFC 3339 with one-second precision. */
export interface CpuStats {
  time?: string;
  /** Cumulative CPU time of all cores, in nanoseconds. */
  usageCoreNanoSeconds?: number;
}

export interface MemoryStats {
  time?: string;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
  availableBytes?: number;
}

/** The default interface's counters, which the kubelet inlines at the top level. Cumulative. */
export interface NetworkStats {
  time?: string;
  rxBytes?: number;
  txBytes?: number;
}

export interface FsStats {
  time?: string;
  usedBytes?: number;
  availableBytes?: number;
}

export interface NodeStats {
  nodeName?: string;
  cpu?: CpuStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  fs?: FsStats;
}

export interface PodReference {
  name: string;
  namespace: string;
  uid: string;
}

export interface ContainerStats {
  name: string;
  cpu?: CpuStats;
  memory?: MemoryStats;
  /** The container's writable layer. */
  rootfs?: FsStats;
  logs?: FsStats;
}

export interface PodStats {
  podRef: PodReference;
  cpu?: CpuStats;
  memory?: MemoryStats;
  network?: NetworkStats;
  containers: ContainerStats[];
}

export interface StatsSummary {
  node: NodeStats;
  pods: PodStats[];
}

export function parseStatsSummary(text: string): StatsSummary {
  const root = objectAt(parseJson(text), '');
  const node = objectAt(root.node, 'node');
  return {
    node: {
      nodeName: optionalString(node, 'nodeName', 'node'),
      cpu: cpuStats(node, 'node'),
      memory: memoryStats(node, 'node'),
      network: networkStats(node, 'node'),
      fs: fsStats(node, 'fs', 'node'),
    },
    pods: optionalArray(root, 'pods', '').map((item, i) => podStats(item, `pods[${i}]`)),
  };
}

function podStats(value: unknown, path: string): PodStats {
  const pod = objectAt(value, path);
  const refPath = `${path}.podRef`;
  const ref = objectAt(pod.podRef, refPath);
  return {
    podRef: {
      name: requiredString(ref, 'name', refPath),
      namespace: requiredString(ref, 'namespace', refPath),
      uid: requiredString(ref, 'uid', refPath),
    },
    cpu: cpuStats(pod, path),
    memory: memoryStats(pod, path),
    network: networkStats(pod, path),
    containers: optionalArray(pod, 'containers', path).map((item, i) =>
      containerStats(item, `${path}.containers[${i}]`),
    ),
  };
}

function containerStats(value: unknown, path: string): ContainerStats {
  const container = objectAt(value, path);
  return {
    name: requiredString(container, 'name', path),
    cpu: cpuStats(container, path),
    memory: memoryStats(container, path),
    rootfs: fsStats(container, 'rootfs', path),
    logs: fsStats(container, 'logs', path),
  };
}

function cpuStats(parent: JsonObject, parentPath: string): CpuStats | undefined {
  const path = joinPath(parentPath, 'cpu');
  const cpu = optionalObject(parent, 'cpu', parentPath);
  if (cpu === undefined) return undefined;
  return {
    time: optionalTime(cpu, path),
    usageCoreNanoSeconds: optionalNumber(cpu, 'usageCoreNanoSeconds', path),
  };
}

function memoryStats(parent: JsonObject, parentPath: string): MemoryStats | undefined {
  const path = joinPath(parentPath, 'memory');
  const memory = optionalObject(parent, 'memory', parentPath);
  if (memory === undefined) return undefined;
  return {
    time: optionalTime(memory, path),
    usageBytes: optionalNumber(memory, 'usageBytes', path),
    workingSetBytes: optionalNumber(memory, 'workingSetBytes', path),
    rssBytes: optionalNumber(memory, 'rssBytes', path),
    availableBytes: optionalNumber(memory, 'availableBytes', path),
  };
}

function networkStats(parent: JsonObject, parentPath: string): NetworkStats | undefined {
  const path = joinPath(parentPath, 'network');
  const network = optionalObject(parent, 'network', parentPath);
  if (network === undefined) return undefined;
  return {
    time: optionalTime(network, path),
    rxBytes: optionalNumber(network, 'rxBytes', path),
    txBytes: optionalNumber(network, 'txBytes', path),
  };
}

function fsStats(parent: JsonObject, key: string, parentPath: string): FsStats | undefined {
  const path = joinPath(parentPath, key);
  const fs = optionalObject(parent, key, parentPath);
  if (fs === undefined) return undefined;
  return {
    time: optionalTime(fs, path),
    usedBytes: optionalNumber(fs, 'usedBytes', path),
    availableBytes: optionalNumber(fs, 'availableBytes', path),
  };
}

// ---- /pods ----

export interface PodList {
  items: Pod[];
}

export interface Pod {
  metadata: PodMetadata;
  status: PodStatus;
}

export interface PodMetadata {
  name: string;
  namespace: string;
  uid: string;
  labels: Record<string, string>;
  annotations: Record<string, string>;
  ownerReferences: OwnerReference[];
}

export interface OwnerReference {
  kind: string;
  name: string;
  /** True on the one owner that manages the pod. */
  controller?: boolean;
}

export interface PodStatus {
  phase?: string;
  containerStatuses: ContainerStatus[];
  initContainerStatuses: ContainerStatus[];
}

export interface ContainerStatus {
  name: string;
  /** 0 when the kubelet leaves it out. */
  restartCount: number;
  /** The reason while the container is waiting, `''` when the kubelet gives none; undefined when not waiting. */
  waitingReason: string | undefined;
  /** Why the previous run of the container ended (`OOMKilled`, `Error`, …), if it did. */
  lastTerminationReason: string | undefined;
}

export function parsePodList(text: string): PodList {
  const root = objectAt(parseJson(text), '');
  return { items: optionalArray(root, 'items', '').map((item, i) => pod(item, `items[${i}]`)) };
}

function pod(value: unknown, path: string): Pod {
  const item = objectAt(value, path);
  const metadataPath = `${path}.metadata`;
  const metadata = objectAt(item.metadata, metadataPath);
  const statusPath = `${path}.status`;
  const status = optionalObject(item, 'status', path) ?? {};
  return {
    metadata: {
      name: requiredString(metadata, 'name', metadataPath),
      namespace: requiredString(metadata, 'namespace', metadataPath),
      uid: requiredString(metadata, 'uid', metadataPath),
      labels: stringMap(metadata, 'labels', metadataPath),
      annotations: stringMap(metadata, 'annotations', metadataPath),
      ownerReferences: optionalArray(metadata, 'ownerReferences', metadataPath).map((owner, i) =>
        ownerReference(owner, `${metadataPath}.ownerReferences[${i}]`),
      ),
    },
    status: {
      phase: optionalString(status, 'phase', statusPath),
      containerStatuses: containerStatuses(status, 'containerStatuses', statusPath),
      initContainerStatuses: containerStatuses(status, 'initContainerStatuses', statusPath),
    },
  };
}

function ownerReference(value: unknown, path: string): OwnerReference {
  const owner = objectAt(value, path);
  const controller = owner.controller;
  if (controller !== undefined && controller !== null && typeof controller !== 'boolean') {
    throw new KubeletDocumentError(joinPath(path, 'controller'), 'expected a boolean');
  }
  return {
    kind: requiredString(owner, 'kind', path),
    name: requiredString(owner, 'name', path),
    controller: controller ?? undefined,
  };
}

function containerStatuses(status: JsonObject, key: string, statusPath: string): ContainerStatus[] {
  return optionalArray(status, key, statusPath).map((value, i) => {
    const path = `${joinPath(statusPath, key)}[${i}]`;
    const container = objectAt(value, path);
    const statePath = joinPath(path, 'state');
    const waiting = optionalObject(optionalObject(container, 'state', path) ?? {}, 'waiting', statePath);
    const lastStatePath = joinPath(path, 'lastState');
    const terminated = optionalObject(
      optionalObject(container, 'lastState', path) ?? {},
      'terminated',
      lastStatePath,
    );
    return {
      name: requiredString(container, 'name', path),
      restartCount: optionalNumber(container, 'restartCount', path) ?? 0,
      waitingReason:
        waiting === undefined
          ? undefined
          : (optionalString(waiting, 'reason', joinPath(statePath, 'waiting')) ?? ''),
      lastTerminationReason:
        terminated === undefined
          ? undefined
          : optionalString(terminated, 'reason', joinPath(lastStatePath, 'terminated')),
    };
  });
}

// ---- checks ----

type JsonObject = Record<string, unknown>;

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (e: unknown) {
    throw new KubeletDocumentError('', `not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
}

function objectAt(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new KubeletDocumentError(path, 'expected an object');
  }
  return value as JsonObject;
}

function optionalObject(parent: JsonObject, key: string, parentPath: string): JsonObject | undefined {
  const value = parent[key];
  return value === undefined || value === null ? undefined : objectAt(value, joinPath(parentPath, key));
}

function optionalArray(parent: JsonObject, key: string, parentPath: string): unknown[] {
  const value = parent[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new KubeletDocumentError(joinPath(parentPath, key), 'expected an array');
  return value;
}

function optionalNumber(parent: JsonObject, key: string, parentPath: string): number | undefined {
  const value = parent[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number')
    throw new KubeletDocumentError(joinPath(parentPath, key), 'expected a number');
  if (value < 0) throw new KubeletDocumentError(joinPath(parentPath, key), 'expected a non-negative number');
  return value;
}

function optionalString(parent: JsonObject, key: string, parentPath: string): string | undefined {
  const value = parent[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string')
    throw new KubeletDocumentError(joinPath(parentPath, key), 'expected a string');
  return value;
}

function requiredString(parent: JsonObject, key: string, parentPath: string): string {
  const value = optionalString(parent, key, parentPath);
  if (value === undefined || value === '') {
    throw new KubeletDocumentError(joinPath(parentPath, key), 'expected a non-empty string');
  }
  return value;
}

function optionalTime(parent: JsonObject, parentPath: string): string | undefined {
  const time = optionalString(parent, 'time', parentPath);
  if (time !== undefined && Number.isNaN(Date.parse(time))) {
    throw new KubeletDocumentError(joinPath(parentPath, 'time'), 'expected an RFC 3339 time');
  }
  return time;
}

function stringMap(parent: JsonObject, key: string, parentPath: string): Record<string, string> {
  const map = optionalObject(parent, key, parentPath);
  if (map === undefined) return {};
  const path = joinPath(parentPath, key);
  for (const [name, value] of Object.entries(map)) {
    if (typeof value !== 'string') throw new KubeletDocumentError(joinPath(path, name), 'expected a string');
  }
  return map as Record<string, string>;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$]*$/;

/** `a.b`, or `a["kubernetes.io/config.source"]` for keys that are not identifiers. */
function joinPath(parentPath: string, key: string): string {
  if (!PLAIN_KEY.test(key)) return `${parentPath}[${JSON.stringify(key)}]`;
  return parentPath === '' ? key : `${parentPath}.${key}`;
}
