import { readCadvisor } from './cadvisor-readings.js';
import type { CadvisorReadings } from './cadvisor-readings.js';
import { containerKey } from './container-key.js';
import { CounterRates } from './counter-rates.js';
import { ExpositionError } from '@noderings/prom';
import { KubeletDocumentError, parsePodList, parseStatsSummary } from './kubelet-documents.js';
import type { ContainerStats, PodList, PodStats, StatsSummary } from './kubelet-documents.js';
import { OomCounters } from './oom-counters.js';
import { PodRegistry } from './pod-registry.js';
import { PodStatusSeries } from './pod-status-series.js';
import type { PodsSeriesState } from './pod-status-series.js';
import type { Labels, Sample } from './sample.js';
import { SeriesLabels } from './series-labels.js';
import { ThrottleRatios } from './throttle-ratios.js';

export type KubeletSource = 'summary' | 'cadvisor' | 'pods';

/** One kubelet endpoint's answer as the runtime fetched it. */
export type SourceResult = { ok: true; body: string } | { ok: false; error: string };

export interface KubeletCollectorOptions {
  /** The `node` label on every series. */
  nodeName: string;
  /** The time between ticks; decides how long /pods series are repeated from an old answer. */
  intervalMs: number;
}

export interface TickInput {
  nowMs: number;
  summary: SourceResult;
  cadvisor: SourceResult;
  pods: SourceResult;
}

/** `error` is the fetch error or why the document was rejected. */
export type SourceStatus = 'ok' | { error: string };

export interface TickResult {
  samples: Sample[];
  sources: Record<KubeletSource, SourceStatus>;
  /** Whether the /pods series came from this tick's answer, were repeated from an older one, or were not sent. */
  podsSeries: PodsSeriesState;
}

/**
 * Per-pod and per-container state is forgotten after this many ticks without the pod or container, counted
 * only over ticks in which a source that would have shown it answered.
 */
const IDLE_TICKS_BEFORE_FORGETTING = 3;
/** The /pods series are repeated while the last good answer is at most this many intervals old… */
const PODS_HOLD_INTERVALS = 2;
/** …plus this fraction of one, so that a tick a little late (a slow kubelet answer) does not stop them early. */
const PODS_HOLD_SLACK_INTERVALS = 0.5;
const NANOSECONDS_PER_SECOND = 1e9;
const NODE_CPU_KEY = 'node';

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Turns the kubelet's three documents into the node agent's series, one tick at a time. Pure: the runtime
 * fetches the documents and passes the time in. A source that fails, or whose document is malformed, only
 * loses its own series (and changes no state); the others keep flowing.
 */
export class KubeletCollector {
  private readonly nodeName: string;
  private readonly pods = new PodRegistry(IDLE_TICKS_BEFORE_FORGETTING);
  private readonly cpu = new CounterRates(IDLE_TICKS_BEFORE_FORGETTING);
  private readonly throttling = new ThrottleRatios(IDLE_TICKS_BEFORE_FORGETTING);
  private readonly oom = new OomCounters(IDLE_TICKS_BEFORE_FORGETTING);
  private readonly podStatus: PodStatusSeries;
  /** The last known `machine_cpu_cores`, kept while cAdvisor fails. */
  private machineCpuCores: number | undefined;

  constructor(options: KubeletCollectorOptions) {
    if (options.nodeName === '') throw new RangeError('nodeName must not be empty');
    if (!(options.intervalMs > 0) || !Number.isFinite(options.intervalMs)) {
      throw new RangeError(`intervalMs must be a positive number, not ${options.intervalMs}`);
    }
    this.nodeName = options.nodeName;
    this.podStatus = new PodStatusSeries(
      options.nodeName,
      (PODS_HOLD_INTERVALS + PODS_HOLD_SLACK_INTERVALS) * options.intervalMs,
    );
  }

  tick(input: TickInput): TickResult {
    const { nowMs } = input;
    const summary = parseSource(input.summary, parseStatsSummary);
    const pods = parseSource(input.pods, parsePodList);
    if (summary.ok) for (const pod of summary.value.pods) this.pods.observeSummaryPod(pod.podRef);
    if (pods.ok) for (const pod of pods.value.items) this.pods.observePodListItem(pod);
    const cadvisor = parseSource(input.cadvisor, (body) =>
      readCadvisor(body, nowMs, (namespace, name) => this.pods.uidOf(namespace, name)),
    );

    const labels = new SeriesLabels(this.nodeName, this.pods);
    const samples: Sample[] = [];
    const oomSeries = new Map<string, OomSeries>();
    if (pods.ok) this.observeRestarts(pods.value, labels, nowMs, oomSeries);
    if (cadvisor.ok) this.collectCadvisor(cadvisor.value, labels, samples, oomSeries);
    if (summary.ok) this.collectSummary(summary.value, labels, nowMs, samples);
    for (const [key, series] of oomSeries) {
      const count = this.oom.sample(key, series.timestampMs);
      if (count === undefined) continue;
      push(samples, 'container_oom_events_total', series.labels, count.value, count.timestampMs);
    }

    let podsSeries: PodsSeriesState = 'fresh';
    if (pods.ok) {
      pushAll(samples, this.podStatus.fromAnswer(pods.value, nowMs, labels));
    } else {
      const held = this.podStatus.withoutAnswer(nowMs);
      podsSeries = held.state;
      pushAll(samples, held.samples);
    }

    if (summary.ok) this.cpu.endRound();
    if (cadvisor.ok) this.throttling.endRound();
    if (cadvisor.ok || pods.ok) this.oom.endRound();
    if (summary.ok || pods.ok) this.pods.endRound();
    return {
      samples,
      sources: { summary: statusOf(summary), cadvisor: statusOf(cadvisor), pods: statusOf(pods) },
      podsSeries,
    };
  }

  private observeRestarts(
    list: PodList,
    labels: SeriesLabels,
    nowMs: number,
    oomSeries: Map<string, OomSeries>,
  ): void {
    for (const pod of list.items) {
      const { uid, namespace, name } = pod.metadata;
      for (const status of [...pod.status.containerStatuses, ...pod.status.initContainerStatuses]) {
        const key = containerKey(uid, status.name);
        this.oom.observeRestarts(key, status.restartCount, status.lastTerminationReason);
        oomSeries.set(key, {
          labels: labels.container(uid, namespace, name, status.name),
          timestampMs: nowMs,
        });
      }
    }
  }

  private collectCadvisor(
    readings: CadvisorReadings,
    labels: SeriesLabels,
    samples: Sample[],
    oomSeries: Map<string, OomSeries>,
  ): void {
    if (readings.machineCpuCores !== undefined && readings.machineCpuCores > 0) {
      this.machineCpuCores = readings.machineCpuCores;
    }
    for (const [key, reading] of readings.containers) {
      const containerLabels = labels.container(
        reading.podUid,
        reading.namespace,
        reading.pod,
        reading.container,
      );
      const throttle = this.throttling.observe(key, reading.cfs);
      if (throttle !== undefined) {
        push(samples, 'container_cpu_throttled_ratio', containerLabels, throttle.ratio, throttle.timestampMs);
      }
      const { fsReadBytes, fsWriteBytes, fsTimestampMs } = reading;
      push(samples, 'container_fs_reads_bytes_total', containerLabels, fsReadBytes, fsTimestampMs);
      push(samples, 'container_fs_writes_bytes_total', containerLabels, fsWriteBytes, fsTimestampMs);
      if (reading.oomEvents.size > 0) {
        this.oom.observeCgroups(key, reading.oomEvents);
        oomSeries.set(key, { labels: containerLabels, timestampMs: reading.oomTimestampMs });
      }
    }
  }

  private collectSummary(
    summary: StatsSummary,
    labels: SeriesLabels,
    nowMs: number,
    samples: Sample[],
  ): void {
    const timeMs = documentTime(nowMs);
    const { cpu, memory, fs, network } = summary.node;
    const nodeLabels = labels.node;
    if (cpu?.usageCoreNanoSeconds !== undefined) {
      const time = timeMs(cpu.time);
      const cores = this.cores(NODE_CPU_KEY, cpu.usageCoreNanoSeconds, time);
      if (cores !== undefined && this.machineCpuCores !== undefined) {
        push(samples, 'node_cpu_usage_ratio', nodeLabels, cores / this.machineCpuCores, time);
      }
    }
    if (memory !== undefined) {
      const time = timeMs(memory.time);
      // Working set, not usage (which counts reclaimable page cache), as `kubectl top node` shows it.
      push(samples, 'node_memory_used_bytes', nodeLabels, memory.workingSetBytes, time);
      push(samples, 'node_memory_available_bytes', nodeLabels, memory.availableBytes, time);
      push(samples, 'node_memory_rss_bytes', nodeLabels, memory.rssBytes, time);
    }
    if (fs !== undefined) {
      const time = timeMs(fs.time);
      push(samples, 'node_fs_used_bytes', nodeLabels, fs.usedBytes, time);
      push(samples, 'node_fs_available_bytes', nodeLabels, fs.availableBytes, time);
    }
    if (network !== undefined) {
      const time = timeMs(network.time);
      push(samples, 'node_network_receive_bytes_total', nodeLabels, network.rxBytes, time);
      push(samples, 'node_network_transmit_bytes_total', nodeLabels, network.txBytes, time);
    }
    for (const pod of summary.pods) this.collectPod(pod, labels, timeMs, samples);
  }

  private collectPod(pod: PodStats, labels: SeriesLabels, timeMs: DocumentTime, samples: Sample[]): void {
    const { uid, namespace, name } = pod.podRef;
    const podLabels = labels.pod(uid, namespace, name);
    const { cpu, memory, network } = pod;
    if (cpu?.usageCoreNanoSeconds !== undefined) {
      const time = timeMs(cpu.time);
      const cores = this.cores(`pod:${uid}`, cpu.usageCoreNanoSeconds, time);
      push(samples, 'pod_cpu_usage_ratio', podLabels, cores, time);
    }
    if (memory !== undefined) {
      const time = timeMs(memory.time);
      push(samples, 'pod_memory_used_bytes', podLabels, memory.usageBytes, time);
      push(samples, 'pod_memory_rss_bytes', podLabels, memory.rssBytes, time);
      push(samples, 'pod_memory_working_set_bytes', podLabels, memory.workingSetBytes, time);
    }
    if (network !== undefined) {
      const time = timeMs(network.time);
      push(samples, 'pod_network_receive_bytes_total', podLabels, network.rxBytes, time);
      push(samples, 'pod_network_transmit_bytes_total', podLabels, network.txBytes, time);
    }
    for (const container of pod.containers) {
      const containerLabels = labels.container(uid, namespace, name, container.name);
      this.collectContainer(containerKey(uid, container.name), container, containerLabels, timeMs, samples);
    }
  }

  private collectContainer(
    key: string,
    container: ContainerStats,
    containerLabels: Labels,
    timeMs: DocumentTime,
    samples: Sample[],
  ): void {
    const { cpu, memory, rootfs, logs } = container;
    if (cpu?.usageCoreNanoSeconds !== undefined) {
      const time = timeMs(cpu.time);
      const cores = this.cores(key, cpu.usageCoreNanoSeconds, time);
      push(samples, 'container_cpu_usage_ratio', containerLabels, cores, time);
    }
    if (memory !== undefined) {
      const time = timeMs(memory.time);
      push(samples, 'container_memory_used_bytes', containerLabels, memory.usageBytes, time);
      push(samples, 'container_memory_working_set_bytes', containerLabels, memory.workingSetBytes, time);
      push(samples, 'container_memory_rss_bytes', containerLabels, memory.rssBytes, time);
    }
    if (rootfs !== undefined) {
      push(samples, 'container_rootfs_used_bytes', containerLabels, rootfs.usedBytes, timeMs(rootfs.time));
    }
    if (logs !== undefined) {
      push(samples, 'container_logs_used_bytes', containerLabels, logs.usedBytes, timeMs(logs.time));
    }
  }

  /** CPU cores used between this reading of a cumulative CPU-time counter and the previous one. */
  private cores(key: string, usageCoreNanoSeconds: number, timeMs: number): number | undefined {
    const nanosecondsPerSecond = this.cpu.rate(key, usageCoreNanoSeconds, timeMs);
    return nanosecondsPerSecond === undefined ? undefined : nanosecondsPerSecond / NANOSECONDS_PER_SECOND;
  }
}

interface OomSeries {
  labels: Labels;
  timestampMs: number;
}

type DocumentTime = (time: string | undefined) => number;

/** A document's `time` field in milliseconds, `nowMs` without one; consecutive fields mostly repeat a time. */
function documentTime(nowMs: number): DocumentTime {
  let lastText = '';
  let lastMs = nowMs;
  return (time) => {
    if (time === undefined) return nowMs;
    if (time !== lastText) {
      lastText = time;
      lastMs = Date.parse(time);
    }
    return lastMs;
  };
}

function parseSource<T>(result: SourceResult, parse: (body: string) => T): Parsed<T> {
  if (!result.ok) return result;
  try {
    return { ok: true, value: parse(result.body) };
  } catch (e: unknown) {
    if (e instanceof KubeletDocumentError || e instanceof ExpositionError)
      return { ok: false, error: e.message };
    throw e;
  }
}

function statusOf(parsed: Parsed<unknown>): SourceStatus {
  return parsed.ok ? 'ok' : { error: parsed.error };
}

function push(
  samples: Sample[],
  name: string,
  labels: Labels,
  value: number | undefined,
  timestampMs: number,
): void {
  if (value !== undefined) samples.push({ name, labels, value, timestampMs });
}

function pushAll(samples: Sample[], more: readonly Sample[]): void {
  for (const sample of more) samples.push(sample);
}
