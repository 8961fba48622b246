import { allContainers, type ContainerModel, type PodModel, type VolumeModel } from './pod-model.js';
import type { SimulatedNode } from './simulated-node.js';

const PAGE = 4096;
const MiB = 1024 * 1024;
/** The kubelet's defaults: files rotate at `containerLogMaxSize` 10Mi, `containerLogMaxFiles` 5 are kept. */
const LOG_FILE_BYTES = 10 * MiB;
const LOG_FILES = 5;
/** Rotated files but the newest are gzipped. */
const GZIPPED_LOG_BYTES = 1.1 * MiB;
/** ext4's default: one inode per 16 KiB. */
const BYTES_PER_INODE = 16_384;

export interface DiskUsage {
  usedBytes: number;
  inodesUsed: number;
}

function pages(bytes: number): number {
  return Math.ceil(bytes / PAGE) * PAGE;
}

/**
 * The container's log files under /var/log/pods at `t`: the live file grows with the pod's age and
 * rotates at 10 MiB into one plain and up to three gzipped files, so the total saws up and down.
 */
export function containerLogBytes(pod: PodModel, c: ContainerModel, t: number): number {
  const written = PAGE + c.logBytesPerS * Math.max(0, (t - pod.createdAt) / 1000);
  const rotations = Math.floor(written / LOG_FILE_BYTES);
  if (rotations === 0) return pages(written);
  const gzipped = Math.min(LOG_FILES - 2, rotations - 1);
  return pages(LOG_FILE_BYTES + gzipped * GZIPPED_LOG_BYTES + (written % LOG_FILE_BYTES));
}

export function containerRootfsInodes(c: ContainerModel): number {
  return 7 + Math.floor(c.rootfsBytes / 40_960);
}

export function volumeUsedBytes(pod: PodModel, v: VolumeModel, t: number): number {
  const age = Math.max(0, (t - pod.createdAt) / 1000);
  return Math.min(pages(v.usedBytes + v.growthBps * age), Math.floor(v.capacityBytes * 0.95));
}

/** Inodes of a volume with its own filesystem (a PVC) or tmpfs (projected, secret). */
export function volumeInodes(v: VolumeModel): number {
  return v.source === 'projected' || v.source === 'secret'
    ? Math.floor(v.capacityBytes / PAGE)
    : Math.floor(v.capacityBytes / BYTES_PER_INODE);
}

/** Volumes that live on the node's root filesystem, and so count as the pod's ephemeral storage. */
export function onNodeFs(v: VolumeModel): boolean {
  return v.source === 'emptyDir' || v.source === 'configMap';
}

/** A live pod's ephemeral storage: writable layers, logs and node-backed volumes. */
export function podEphemeralUsage(pod: PodModel, t: number): DiskUsage {
  let usedBytes = 0;
  let inodesUsed = 0;
  for (const c of allContainers(pod)) {
    if (c.status.state !== 'running') continue;
    usedBytes += c.rootfsBytes + containerLogBytes(pod, c, t);
    inodesUsed += containerRootfsInodes(c) + 2;
  }
  for (const v of pod.volumes) {
    if (!onNodeFs(v)) continue;
    usedBytes += volumeUsedBytes(pod, v, t);
    inodesUsed += v.inodesUsed;
  }
  return { usedBytes, inodesUsed };
}

/** The node's root filesystem: the OS and kubelet state, images, and what live pods keep on it. */
export function nodeFsUsage(node: SimulatedNode, t: number): DiskUsage {
  let usedBytes = node.fs.baseUsedBytes + node.fs.imagesBytes;
  let inodesUsed = node.fs.baseInodesUsed + imageInodes(node);
  for (const pod of node.podModels()) {
    if (!pod.sandbox) continue;
    const ephemeral = podEphemeralUsage(pod, t);
    usedBytes += ephemeral.usedBytes;
    inodesUsed += ephemeral.inodesUsed;
  }
  return { usedBytes, inodesUsed };
}

export function imageInodes(node: SimulatedNode): number {
  return Math.floor(node.fs.imagesBytes / 61_440);
}

/** What `df` calls available: capacity less what is used and what ext4 keeps for root. */
export function nodeFsAvailableBytes(node: SimulatedNode, usage: DiskUsage): number {
  return Math.max(0, node.fs.capacityBytes - node.fs.reservedBytes - usage.usedBytes);
}
