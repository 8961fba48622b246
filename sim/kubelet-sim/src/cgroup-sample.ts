/** How a process group uses the machine, on average: the rates every counter of its cgroup grows at. */
export interface UsageProfile {
  cpuCores: number;
  /** How far usage swings around `cpuCores` (0–0.6), over `cpuPeriodS` seconds, starting at `phase`. */
  cpuSwing: number;
  cpuPeriodS: number;
  phase: number;
  rssBytes: number;
  cacheBytes: number;
  pageFaultsPerS: number;
  majorPageFaultsPerS: number;
  fsReadBps: number;
  fsWriteBps: number;
  netRxBps: number;
  netTxBps: number;
  /** OOM kills of child processes the cgroup survives (a PID 1 kill ends the cgroup instead). */
  oomEventsPerHour: number;
  /** Share of the CFS periods in which a container with a CPU limit is throttled. */
  throttledRatio: number;
  processes: number;
  threads: number;
  fileDescriptors: number;
  sockets: number;
}

/** One running cgroup: a container instance, a pod sandbox or a system service. */
export interface Leaf {
  profile: UsageProfile;
  startedAt: number;
  cpuLimitCores: number | undefined;
}

const PAGE = 4096;
const CFS_PERIODS_PER_S = 10;
const THROTTLED_SHARE_OF_PERIOD = 0.035;

/** Cumulative counters and gauges of one cgroup at one instant; a parent is the sum of its children. */
export class CgroupSample {
  cpuSeconds = 0;
  cfsPeriods = 0;
  cfsThrottledPeriods = 0;
  cfsThrottledSeconds = 0;
  pageFaults = 0;
  majorPageFaults = 0;
  oomEvents = 0;
  fsReadBytes = 0;
  fsWriteBytes = 0;
  fsReads = 0;
  fsWrites = 0;
  netRxBytes = 0;
  netTxBytes = 0;
  netRxPackets = 0;
  netTxPackets = 0;
  netRxDropped = 0;
  rssBytes = 0;
  cacheBytes = 0;
  kernelBytes = 0;
  mappedFileBytes = 0;
  inactiveFileBytes = 0;
  processes = 0;
  threads = 0;
  fileDescriptors = 0;
  sockets = 0;

  get usageBytes(): number {
    return this.rssBytes + this.cacheBytes + this.kernelBytes;
  }

  /** What the kubelet and `kubectl top` call memory: usage minus inactive page cache. */
  get workingSetBytes(): number {
    return this.usageBytes - this.inactiveFileBytes;
  }

  /**
   * Adds the other's counters only: what a parent keeps of a child that has gone. OOM events stay with
   * the cgroup that saw them, as cAdvisor counts them.
   */
  addCounters(o: CgroupSample): this {
    this.cpuSeconds += o.cpuSeconds;
    this.cfsPeriods += o.cfsPeriods;
    this.cfsThrottledPeriods += o.cfsThrottledPeriods;
    this.cfsThrottledSeconds += o.cfsThrottledSeconds;
    this.pageFaults += o.pageFaults;
    this.majorPageFaults += o.majorPageFaults;
    this.fsReadBytes += o.fsReadBytes;
    this.fsWriteBytes += o.fsWriteBytes;
    this.fsReads += o.fsReads;
    this.fsWrites += o.fsWrites;
    this.netRxBytes += o.netRxBytes;
    this.netTxBytes += o.netTxBytes;
    this.netRxPackets += o.netRxPackets;
    this.netTxPackets += o.netTxPackets;
    this.netRxDropped += o.netRxDropped;
    return this;
  }

  add(o: CgroupSample): this {
    this.addCounters(o);
    this.rssBytes += o.rssBytes;
    this.cacheBytes += o.cacheBytes;
    this.kernelBytes += o.kernelBytes;
    this.mappedFileBytes += o.mappedFileBytes;
    this.inactiveFileBytes += o.inactiveFileBytes;
    this.processes += o.processes;
    this.threads += o.threads;
    this.fileDescriptors += o.fileDescriptors;
    this.sockets += o.sockets;
    return this;
  }
}

/**
 * Adds what `leaf` has used from its start until `t` (ms) to `out`. Every counter is a non-decreasing
 * function of `t`, so two reads at later times always give non-negative deltas; gauges settle over the
 * first minutes after a start and then drift slowly.
 */
export function addLeafSample(out: CgroupSample, leaf: Leaf, t: number): void {
  const e = (t - leaf.startedAt) / 1000;
  if (e <= 0) return;
  const p = leaf.profile;
  const w = (2 * Math.PI) / p.cpuPeriodS;
  out.cpuSeconds += p.cpuCores * (e + (p.cpuSwing * (Math.cos(p.phase) - Math.cos(w * e + p.phase))) / w);
  if (leaf.cpuLimitCores !== undefined) {
    const active = Math.min(1, 0.25 + p.cpuCores / leaf.cpuLimitCores);
    const periods = Math.floor(e * CFS_PERIODS_PER_S * active);
    const throttled = Math.floor(periods * p.throttledRatio);
    out.cfsPeriods += periods;
    out.cfsThrottledPeriods += throttled;
    out.cfsThrottledSeconds += (throttled * THROTTLED_SHARE_OF_PERIOD) / CFS_PERIODS_PER_S;
  }
  const warm = Math.min(1, 0.3 + e / 90);
  out.pageFaults += Math.floor(p.pageFaultsPerS * e + (p.rssBytes / PAGE) * Math.min(1, e / 60));
  out.majorPageFaults += Math.floor(p.majorPageFaultsPerS * e);
  out.oomEvents += Math.floor((p.oomEventsPerHour * e) / 3600);
  const read = Math.floor((p.fsReadBps * e) / PAGE) * PAGE;
  const written = Math.floor((p.fsWriteBps * e) / PAGE) * PAGE;
  out.fsReadBytes += read;
  out.fsWriteBytes += written;
  out.fsReads += Math.floor(read / 16_384);
  out.fsWrites += Math.floor(written / 8192);
  const rx = Math.floor(p.netRxBps * e);
  const tx = Math.floor(p.netTxBps * e);
  const rxPackets = Math.floor(rx / 900);
  out.netRxBytes += rx;
  out.netTxBytes += tx;
  out.netRxPackets += rxPackets;
  out.netTxPackets += Math.floor(tx / 600);
  out.netRxDropped += Math.floor(rxPackets / 2_000_000);
  const drift = 1 + 0.04 * Math.sin((2 * Math.PI * e) / 1800 + p.phase);
  const rss = pages(p.rssBytes * warm * drift);
  const cache = pages(p.cacheBytes * warm);
  out.rssBytes += rss;
  out.cacheBytes += cache;
  out.kernelBytes += pages(rss * 0.035);
  out.mappedFileBytes += pages(cache * 0.25);
  out.inactiveFileBytes += pages(cache * 0.55);
  out.processes += p.processes;
  out.threads += p.threads;
  out.fileDescriptors += p.fileDescriptors;
  out.sockets += p.sockets;
}

function pages(bytes: number): number {
  return Math.round(bytes / PAGE) * PAGE;
}
