import type { TimedValue, VmMetric, VmSeries } from './metric-facts.js';

/**
 * How a batch of VM samples changes what the control plane keeps: chart rollups, billed traffic and the
 * reported power state. Pure, so that counter resets, replays and bucket edges are tested without a
 * database. A sample at or before the series' cursor has been applied already (a replayed request, a
 * retry) and changes nothing.
 */

/** Chart resolutions: 1-minute points (kept 48 hours) and 1-hour points (kept 90 days). */
const ROLLUP_RESOLUTIONS = [60, 3600] as const;
type RollupResolution = (typeof ROLLUP_RESOLUTIONS)[number];

const HOUR_MS = 3_600_000;

export interface Cursor {
  readonly sampledAtMs: number;
  readonly value: number;
}

interface RollupAdd {
  readonly vmId: string;
  readonly metric: VmMetric;
  readonly resolutionSeconds: RollupResolution;
  readonly bucketMs: number;
  sum: number;
  count: number;
  max: number;
}

interface BandwidthAdd {
  readonly vmId: string;
  readonly hourMs: number;
  readonly direction: 'egress' | 'ingress';
  bytes: number;
}

export interface VmUsagePlan {
  readonly cursors: { vmId: string; metric: VmMetric; sampledAtMs: number; value: number }[];
  readonly rollups: RollupAdd[];
  readonly bandwidth: BandwidthAdd[];
  /** The newest reported power state per VM. */
  readonly powerStates: Map<string, { running: boolean; atMs: number }>;
  /** Samples applied (not replays). */
  applied: number;
}

export function cursorKey(vmId: string, metric: string): string {
  return `${vmId}/${metric}`;
}

/**
 * The increase of a counter from one sample to the next. A value below the previous one means the
 * counter started again from zero (PVE's counters restart with the guest's QEMU process), so the whole
 * value is new traffic. Without a previous sample, the value is everything since the guest started.
 */
export function counterIncrease(previous: number | undefined, value: number): number {
  if (previous === undefined || value < previous) return value;
  return value - previous;
}

const BANDWIDTH_DIRECTION: Partial<Record<VmMetric, 'egress' | 'ingress'>> = {
  netOut: 'egress',
  netIn: 'ingress',
};

export function planVmUsage(series: readonly VmSeries[], cursors: ReadonlyMap<string, Cursor>): VmUsagePlan {
  const rollups = new Map<string, RollupAdd>();
  const bandwidth = new Map<string, BandwidthAdd>();
  const plan: VmUsagePlan = {
    cursors: [],
    rollups: [],
    bandwidth: [],
    powerStates: new Map(),
    applied: 0,
  };
  for (const s of mergeSameSeries(series)) {
    let cursor = cursors.get(cursorKey(s.vmId, s.metric));
    for (const sample of s.samples) {
      if (cursor !== undefined && sample.timestampMs <= cursor.sampledAtMs) continue;
      const amount = s.kind === 'counter' ? counterIncrease(cursor?.value, sample.value) : sample.value;
      addToRollups(rollups, s.vmId, s.metric, sample.timestampMs, amount);
      const direction = BANDWIDTH_DIRECTION[s.metric];
      if (direction !== undefined && amount > 0) addBandwidth(bandwidth, s.vmId, direction, sample, amount);
      if (s.metric === 'up') {
        const known = plan.powerStates.get(s.vmId);
        if (known === undefined || known.atMs <= sample.timestampMs)
          plan.powerStates.set(s.vmId, { running: sample.value === 1, atMs: sample.timestampMs });
      }
      cursor = { sampledAtMs: sample.timestampMs, value: sample.value };
      plan.applied++;
    }
    if (cursor !== undefined && cursor !== cursors.get(cursorKey(s.vmId, s.metric)))
      plan.cursors.push({ vmId: s.vmId, metric: s.metric, ...cursor });
  }
  plan.rollups.push(...rollups.values());
  plan.bandwidth.push(...bandwidth.values());
  return plan;
}

/** One request may carry the same series twice (two instances or a resend in one batch): one timeline. */
function mergeSameSeries(series: readonly VmSeries[]): VmSeries[] {
  const byKey = new Map<string, VmSeries>();
  for (const s of series) {
    const key = cursorKey(s.vmId, s.metric);
    const known = byKey.get(key);
    if (known === undefined) {
      byKey.set(key, s);
      continue;
    }
    const samples = new Map<number, TimedValue>();
    for (const sample of [...known.samples, ...s.samples]) samples.set(sample.timestampMs, sample);
    byKey.set(key, {
      ...known,
      samples: [...samples.values()].sort((a, b) => a.timestampMs - b.timestampMs),
    });
  }
  return [...byKey.values()];
}

function addToRollups(
  rollups: Map<string, RollupAdd>,
  vmId: string,
  metric: VmMetric,
  timestampMs: number,
  amount: number,
): void {
  for (const resolutionSeconds of ROLLUP_RESOLUTIONS) {
    const width = resolutionSeconds * 1000;
    const bucketMs = Math.floor(timestampMs / width) * width;
    const key = `${vmId}/${metric}/${resolutionSeconds}/${bucketMs}`;
    const known = rollups.get(key);
    if (known === undefined) {
      rollups.set(key, { vmId, metric, resolutionSeconds, bucketMs, sum: amount, count: 1, max: amount });
    } else {
      known.sum += amount;
      known.count++;
      known.max = Math.max(known.max, amount);
    }
  }
}

function addBandwidth(
  bandwidth: Map<string, BandwidthAdd>,
  vmId: string,
  direction: 'egress' | 'ingress',
  sample: TimedValue,
  bytes: number,
): void {
  const hourMs = Math.floor(sample.timestampMs / HOUR_MS) * HOUR_MS;
  const key = `${vmId}/${direction}/${hourMs}`;
  const known = bandwidth.get(key);
  if (known === undefined) bandwidth.set(key, { vmId, hourMs, direction, bytes });
  else known.bytes += bytes;
}
