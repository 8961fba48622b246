import { encodeWriteRequest, type Label, type TimeSeries } from '@noderings/remote-write';

const GIB = 2 ** 30;
/** Prometheus' default `queue_config.max_samples_per_send`. */
const PROMETHEUS_MAX_SAMPLES_PER_SEND = 2000;
const DEFAULT_VMS = 1000;
const DEFAULT_INTERVAL_MS = 30_000;
/** The forwarded series of one NR guest, as prometheus-pve-exporter names them (DESIGN §3.4). */
const GUEST_FAMILIES = 13;
/** Same seed, same payloads: runs compare. */
const SEED = 0x5eed;
const FIRST_VMID = 100;
const STORAGE = 'local-lvm';
interface VmSize {
  readonly cores: number;
  readonly memoryGib: number;
  readonly diskGib: number;
}
const SMALLEST_VM: VmSize = { cores: 1, memoryGib: 2, diskGib: 20 };
const VM_SIZES: readonly VmSize[] = [
  SMALLEST_VM,
  { cores: 2, memoryGib: 4, diskGib: 40 },
  { cores: 4, memoryGib: 8, diskGib: 80 },
  { cores: 8, memoryGib: 16, diskGib: 160 },
];
const NODE = { cores: 64, memoryGib: 512, rootDiskGib: 100, storageGib: 8000 };

export interface FleetPayloadOptions {
  /** NR VMs on the platform (default 1,000). */
  readonly vms?: number;
  /** Proxmox nodes the VMs are spread over, round-robin. */
  readonly nodesPerPlatform: number;
  /** Scrapes sent, one sample per series each. */
  readonly scrapes: number;
  /** The `instance` label (the exporter's address, as the agent's Alloy sets it). */
  readonly instance: string;
  readonly agentId: string;
  /** The guest name of VM `i` (0-based): NodeRings names them `NR-{uuid}`. */
  readonly vmName: (i: number) => string;
  /** Time between scrapes (default 30 s). */
  readonly intervalMs?: number;
  /** Timestamp of the first scrape. A Prometheus receiver refuses samples much older than its newest. */
  readonly startMs: number;
  /** Samples per request at most (default 2,000, Prometheus' `max_samples_per_send`). */
  readonly maxSamplesPerRequest?: number;
}

export interface FleetPayloads {
  /** Remote-write bodies (snappy), scrape after scrape; no request holds samples of two scrapes. */
  readonly requests: Uint8Array[];
  readonly samples: number;
}

/** One simulated series: its labels and how its value moves from one scrape to the next. */
interface SimulatedSeries {
  readonly labels: readonly Label[];
  value: number;
  readonly advance: (value: number) => number;
}

/** Mulberry32: a small seeded generator, so that payloads are the same from run to run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * What a provider's Alloy sends for a platform of `vms` NR VMs once the forwarding rules have run: per VM
 * the 13 guest families; per node `pve_up`, memory, CPU, disk, uptime, `pve_node_info` and the `non_nr_*`
 * families; per node its `local-lvm` storage; and the cluster's info. Counters grow at a steady rate per
 * series, gauges wander, uptimes advance with the clock. Each request is at most `maxSamplesPerRequest`
 * samples of one scrape, so sending them in order keeps every series in time order.
 */
export function fleetScrapePayloads(options: FleetPayloadOptions): FleetPayloads {
  const vms = options.vms ?? DEFAULT_VMS;
  const intervalMs = options.intervalMs ?? DEFAULT_INTERVAL_MS;
  const maxSamples = options.maxSamplesPerRequest ?? PROMETHEUS_MAX_SAMPLES_PER_SEND;
  if (!(Number.isInteger(options.nodesPerPlatform) && options.nodesPerPlatform > 0))
    throw new RangeError('fleetScrapePayloads: nodesPerPlatform must be a positive integer');
  if (!(Number.isInteger(maxSamples) && maxSamples > 0))
    throw new RangeError('fleetScrapePayloads: maxSamplesPerRequest must be a positive integer');

  const random = seededRandom(SEED);
  const common: Label[] = [
    { name: 'agent_id', value: options.agentId },
    { name: 'instance', value: options.instance },
    { name: 'job', value: 'pve' },
  ];
  const fleet = new FleetSeries(random, common, intervalMs / 1000);
  const nodes = Array.from({ length: options.nodesPerPlatform }, (_, i) => `pve${i + 1}`);
  fleet.cluster(nodes.length);
  for (const node of nodes) {
    fleet.node(node);
    fleet.storage(node);
  }
  for (let i = 0; i < vms; i++)
    fleet.guest(
      FIRST_VMID + i,
      options.vmName(i),
      nodes[i % nodes.length] ?? '',
      VM_SIZES[i % VM_SIZES.length] ?? SMALLEST_VM,
    );

  const requests: Uint8Array[] = [];
  for (let scrape = 0; scrape < options.scrapes; scrape++) {
    const timestampMs = options.startMs + scrape * intervalMs;
    for (let from = 0; from < fleet.series.length; from += maxSamples) {
      const timeseries: TimeSeries[] = fleet.series.slice(from, from + maxSamples).map((series) => ({
        labels: series.labels,
        samples: [{ value: series.value, timestampMs }],
      }));
      requests.push(encodeWriteRequest({ timeseries }));
    }
    for (const series of fleet.series) series.value = series.advance(series.value);
  }
  return { requests, samples: fleet.series.length * options.scrapes };
}

/** Builds the fleet's series; `guest` adds `GUEST_FAMILIES` of them. */
class FleetSeries {
  readonly series: SimulatedSeries[] = [];

  constructor(
    private readonly random: () => number,
    private readonly common: readonly Label[],
    private readonly intervalSeconds: number,
  ) {}

  cluster(nodes: number): void {
    this.add('pve_cluster_info', { id: 'cluster/pve', nodes: String(nodes), quorate: '1', version: '42' }, 1);
    this.add('pve_version_info', { release: '8.2', repoid: 'faa83925', version: '8.2.4' }, 1);
  }

  node(node: string): void {
    const id = { id: `node/${node}` };
    const memory = NODE.memoryGib * GIB;
    this.add('pve_up', id, 1);
    this.add('pve_node_info', { ...id, level: 'c', name: node, nodeid: node.slice(3) }, 1);
    this.add('pve_cpu_usage_limit', id, NODE.cores);
    this.gauge('pve_cpu_usage_ratio', id, 0, 1, 0.05);
    this.add('pve_memory_size_bytes', id, memory);
    this.gauge('pve_memory_usage_bytes', id, 0.2 * memory, 0.9 * memory, 0.01 * memory);
    this.add('pve_disk_size_bytes', id, NODE.rootDiskGib * GIB);
    this.gauge('pve_disk_usage_bytes', id, 10 * GIB, 60 * GIB, 0.01 * GIB);
    this.uptime(id, 90 * 86_400);
    this.add('non_nr_pve_cpu_usage_limit', id, 4);
    this.add('non_nr_pve_memory_size_bytes', id, 16 * GIB);
    this.add('non_nr_pve_disk_size_bytes', id, 200 * GIB);
    this.gauge('non_nr_pve_disk_usage_bytes', id, 50 * GIB, 150 * GIB, 0.01 * GIB);
  }

  storage(node: string): void {
    const id = { id: `storage/${node}/${STORAGE}` };
    this.add('pve_up', id, 1);
    this.add('pve_storage_info', { ...id, content: 'images,rootdir', node, storage: STORAGE }, 1);
    this.add('pve_storage_shared', id, 0);
    this.add('pve_disk_size_bytes', id, NODE.storageGib * GIB);
    this.gauge('pve_disk_usage_bytes', id, 1000 * GIB, 6000 * GIB, GIB);
  }

  guest(vmid: number, name: string, node: string, { cores, memoryGib, diskGib }: VmSize): void {
    const labels = { id: `qemu/${vmid}`, name, node, type: 'qemu' };
    const memory = memoryGib * GIB;
    const before = this.series.length;
    this.add('pve_up', labels, 1);
    this.add('pve_guest_info', { ...labels, template: '0' }, 1);
    this.gauge('pve_cpu_usage_ratio', labels, 0, 1, 0.1);
    this.add('pve_cpu_usage_limit', labels, cores);
    this.gauge('pve_memory_usage_bytes', labels, 0.1 * memory, 0.95 * memory, 0.02 * memory);
    this.add('pve_memory_size_bytes', labels, memory);
    this.add('pve_disk_size_bytes', labels, diskGib * GIB);
    this.add('pve_disk_usage_bytes', labels, 0);
    this.uptime(labels, 30 * 86_400);
    // Bytes per second, from a quiet VM to a busy one.
    this.counter('pve_network_transmit_bytes_total', labels, 1e3, 5e6);
    this.counter('pve_network_receive_bytes_total', labels, 1e3, 5e6);
    this.counter('pve_disk_written_bytes_total', labels, 1e3, 2e7);
    this.counter('pve_disk_read_bytes_total', labels, 1e3, 2e7);
    if (this.series.length - before !== GUEST_FAMILIES) throw new Error('a guest family is missing');
  }

  private add(
    name: string,
    labels: Readonly<Record<string, string>>,
    value: number,
    advance: (value: number) => number = (v) => v,
  ): void {
    const all: Label[] = [
      { name: '__name__', value: name },
      ...Object.entries(labels).map(([n, v]) => ({ name: n, value: v })),
      ...this.common,
    ];
    this.series.push({ labels: all, value, advance });
  }

  /** A gauge that wanders by up to `step` a scrape between `min` and `max`. */
  private gauge(
    name: string,
    labels: Readonly<Record<string, string>>,
    min: number,
    max: number,
    step: number,
  ) {
    const start = min + this.random() * (max - min);
    this.add(name, labels, start, (v) => Math.min(max, Math.max(min, v + (this.random() * 2 - 1) * step)));
  }

  /** A counter growing at a rate drawn between `minPerSecond` and `maxPerSecond`, with ±50% jitter. */
  private counter(
    name: string,
    labels: Readonly<Record<string, string>>,
    minPerSecond: number,
    maxPerSecond: number,
  ) {
    const rate = minPerSecond * (maxPerSecond / minPerSecond) ** this.random();
    const start = Math.round(rate * 86_400 * this.random());
    this.add(name, labels, start, (v) => v + Math.round(rate * this.intervalSeconds * (0.5 + this.random())));
  }

  private uptime(labels: Readonly<Record<string, string>>, maxSeconds: number): void {
    this.add(
      'pve_uptime_seconds',
      labels,
      Math.round(this.random() * maxSeconds),
      (v) => v + this.intervalSeconds,
    );
  }
}
