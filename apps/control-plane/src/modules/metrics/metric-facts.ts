import { forwardingDecision, NR_GUEST_NAME_PREFIX } from '@noderings/domain';
import type { TimeSeries } from '@noderings/remote-write';
import { isStaleMarker } from '@noderings/remote-write';

/**
 * What one remote-write request says about a provider's fleet, read from the exporter's series after the
 * forwarding rules are applied again (whatever the agent sent, a series the rules drop is never used).
 * Pure: the ingest service resolves platforms and VMs and writes what this returns.
 */

/** The series of a VM that charts, billing and the power state use. */
const VM_METRICS = {
  pve_up: { metric: 'up', kind: 'gauge' },
  pve_cpu_usage_ratio: { metric: 'cpu', kind: 'gauge' },
  pve_memory_usage_bytes: { metric: 'memory', kind: 'gauge' },
  pve_network_receive_bytes_total: { metric: 'netIn', kind: 'counter' },
  pve_network_transmit_bytes_total: { metric: 'netOut', kind: 'counter' },
  pve_disk_read_bytes_total: { metric: 'diskRead', kind: 'counter' },
  pve_disk_written_bytes_total: { metric: 'diskWrite', kind: 'counter' },
} as const satisfies Record<string, { metric: string; kind: 'gauge' | 'counter' }>;

export type VmMetric = (typeof VM_METRICS)[keyof typeof VM_METRICS]['metric'];
type MetricKind = 'gauge' | 'counter';

export interface TimedValue {
  readonly value: number;
  readonly timestampMs: number;
}

/** A host's pve_up: `node/pve1` (node online) or `cluster/prod` (cluster quorate). */
interface HostUp {
  readonly instance: string;
  readonly host: string;
  readonly up: boolean;
  readonly timestampMs: number;
}

/** Node inventory keys as `nodes.inventory` holds them; undefined when the request did not say. */
export interface NodeFacts {
  cpuCores?: number;
  cpuUsageRatio?: number;
  memoryBytes?: number;
  memoryUsedBytes?: number;
  uptimeSeconds?: number;
  nonNrCpuCores?: number;
  nonNrMemoryBytes?: number;
  nonNrDiskBytes?: number;
  nonNrDiskUsedBytes?: number;
  /** By storage id. */
  storagePools: Map<string, { totalBytes?: number; allocatedBytes?: number }>;
}

/** One VM series' samples, oldest first. `vmId` is the uuid of its `NR-{uuid}` name. */
export interface VmSeries {
  readonly instance: string;
  readonly vmId: string;
  readonly vmid: number;
  readonly metric: VmMetric;
  readonly kind: MetricKind;
  readonly samples: readonly TimedValue[];
}

export interface MetricFacts {
  readonly hostUps: HostUp[];
  /** By instance, then Proxmox node name. */
  readonly nodes: Map<string, Map<string, NodeFacts>>;
  readonly vmSeries: VmSeries[];
  /** Series the forwarding rules drop (they are not stored, whatever the agent sent). */
  dropped: number;
  /** Series forwarded but of no use to the control plane (kept only by the optional remote-write forward). */
  unused: number;
  /** The series that passed the rules, for the optional forward to a Prometheus-compatible store. */
  readonly forwarded: TimeSeries[];
}

/** Refused requests: the whole request is refused and nothing is stored. */
export class ScopeViolation extends Error {}

const NODE_GAUGES: Readonly<Record<string, keyof Omit<NodeFacts, 'storagePools'>>> = {
  pve_cpu_usage_limit: 'cpuCores',
  pve_cpu_usage_ratio: 'cpuUsageRatio',
  pve_memory_size_bytes: 'memoryBytes',
  pve_memory_usage_bytes: 'memoryUsedBytes',
  pve_uptime_seconds: 'uptimeSeconds',
};

/** Per-node sums over guests NodeRings did not create (the exporter serves them only when > 0). */
const NON_NR_GAUGES: Readonly<Record<string, keyof Omit<NodeFacts, 'storagePools'>>> = {
  non_nr_pve_cpu_usage_limit: 'nonNrCpuCores',
  non_nr_pve_memory_size_bytes: 'nonNrMemoryBytes',
  non_nr_pve_disk_size_bytes: 'nonNrDiskBytes',
  non_nr_pve_disk_usage_bytes: 'nonNrDiskUsedBytes',
};

const STORAGE_GAUGES: Readonly<Record<string, 'totalBytes' | 'allocatedBytes'>> = {
  pve_disk_size_bytes: 'totalBytes',
  pve_disk_usage_bytes: 'allocatedBytes',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const GUEST_ID = /^(?:qemu|lxc)\/([1-9][0-9]{2,8})$/;

function labelsOf(series: TimeSeries): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const l of series.labels) labels[l.name] = l.value;
  return labels;
}

/** The newest sample that is a value (stale markers and NaN say nothing about the current state). */
function newest(samples: readonly TimedValue[]): TimedValue | undefined {
  let best: TimedValue | undefined;
  for (const s of samples) {
    if (Number.isNaN(s.value) || !Number.isFinite(s.value)) continue;
    if (best === undefined || s.timestampMs >= best.timestampMs) best = s;
  }
  return best;
}

/** The newest sample including a stale marker: a series that went away reads as its marker. */
function newestOrStale(samples: readonly TimedValue[]): TimedValue | undefined {
  let best: TimedValue | undefined;
  for (const s of samples) {
    if (Number.isNaN(s.value) && !isStaleMarker(s.value)) continue;
    if (best === undefined || s.timestampMs >= best.timestampMs) best = s;
  }
  return best;
}

function nodeFacts(facts: MetricFacts, instance: string, node: string): NodeFacts {
  let byNode = facts.nodes.get(instance);
  if (byNode === undefined) facts.nodes.set(instance, (byNode = new Map<string, NodeFacts>()));
  let found = byNode.get(node);
  if (found === undefined) byNode.set(node, (found = { storagePools: new Map() }));
  return found;
}

/**
 * Reads a decoded request for the agent `agentId`. Every series must carry that agent's `agent_id`
 * (a credential writes for one agent only) and an `instance`; a series of another agent refuses the
 * whole request (ScopeViolation), so nothing of it is stored.
 */
export function readMetricFacts(timeseries: readonly TimeSeries[], agentId: string): MetricFacts {
  const facts: MetricFacts = {
    hostUps: [],
    nodes: new Map(),
    vmSeries: [],
    dropped: 0,
    unused: 0,
    forwarded: [],
  };
  timeseries.forEach((series, index) => {
    const labels = labelsOf(series);
    if (labels.agent_id !== agentId) {
      throw new ScopeViolation(
        labels.agent_id === undefined
          ? `timeseries[${index}] has no agent_id label.`
          : `timeseries[${index}] is labelled agent_id="${labels.agent_id}": this credential writes only for agent ${agentId}.`,
      );
    }
    const name = labels.__name__ ?? '';
    if (!forwardingDecision(name, labels).forward) {
      facts.dropped++;
      return;
    }
    facts.forwarded.push(series);
    const instance = labels.instance;
    if (instance === undefined || instance === '' || !readSeries(facts, instance, name, labels, series)) {
      facts.unused++;
    }
  });
  return facts;
}

/** Files one forwarded series under what it describes; false when the control plane has no use for it. */
function readSeries(
  facts: MetricFacts,
  instance: string,
  name: string,
  labels: Readonly<Record<string, string>>,
  series: TimeSeries,
): boolean {
  const id = labels.id ?? '';
  const guest = GUEST_ID.exec(id);
  if (guest !== null) return readGuestSeries(facts, instance, name, labels, guest[1] ?? '', series);
  if (name === 'pve_up' && (id.startsWith('node/') || id.startsWith('cluster/'))) {
    const latest = newest(series.samples);
    if (latest === undefined) return false;
    facts.hostUps.push({ instance, host: id, up: latest.value === 1, timestampMs: latest.timestampMs });
    if (id.startsWith('node/')) nodeFacts(facts, instance, id.slice('node/'.length));
    return true;
  }
  const nodeKey = NODE_GAUGES[name];
  if (nodeKey !== undefined && id.startsWith('node/')) {
    const latest = newest(series.samples);
    if (latest === undefined) return false;
    nodeFacts(facts, instance, id.slice('node/'.length))[nodeKey] = latest.value;
    return true;
  }
  const nonNrKey = NON_NR_GAUGES[name];
  if (nonNrKey !== undefined && labels.node !== undefined) {
    const latest = newestOrStale(series.samples);
    if (latest === undefined) return false;
    // A stale marker: the sum went back to 0 and the exporter stopped serving it.
    nodeFacts(facts, instance, labels.node)[nonNrKey] = isStaleMarker(latest.value) ? 0 : latest.value;
    return true;
  }
  const storageKey = STORAGE_GAUGES[name];
  const storage = /^storage\/([^/]+)\/(.+)$/.exec(id);
  if (storageKey !== undefined && storage !== null) {
    const latest = newest(series.samples);
    if (latest === undefined) return false;
    const pools = nodeFacts(facts, instance, storage[1] ?? '').storagePools;
    const storageId = storage[2] ?? '';
    pools.set(storageId, { ...pools.get(storageId), [storageKey]: latest.value });
    return true;
  }
  return false;
}

function readGuestSeries(
  facts: MetricFacts,
  instance: string,
  name: string,
  labels: Readonly<Record<string, string>>,
  vmid: string,
  series: TimeSeries,
): boolean {
  const known = (VM_METRICS as Readonly<Record<string, { metric: VmMetric; kind: MetricKind }>>)[name];
  const vmId = (labels.name ?? '').slice(NR_GUEST_NAME_PREFIX.length);
  if (known === undefined || !UUID.test(vmId)) return false;
  const samples = series.samples
    .filter((s) => !Number.isNaN(s.value) && Number.isFinite(s.value) && s.value >= 0)
    .sort((a, b) => a.timestampMs - b.timestampMs);
  if (samples.length === 0) return false;
  facts.vmSeries.push({ instance, vmId, vmid: Number(vmid), ...known, samples });
  return true;
}
