import {
  billingPeriodAt,
  InvalidArgumentError,
  NotFoundError,
  previousBillingPeriod,
  type BillingPeriod,
  type PeriodBounds,
} from '@noderings/domain';

import { mergeRollups } from './chart-steps.js';
import type { RollupPoint, VmMetricsRepository } from './vm-metrics.repository.js';
import { ROLLUP_RETENTION_SECONDS } from './metrics.worker.js';

/** What a chart draws, as the rollups name their metrics. */
export type ChartSeries = 'cpu' | 'memory' | 'network' | 'disk';

/** One chart point; only the fields of the asked series are set. */
interface ChartPoint {
  readonly time: Date;
  cpuUsageRatio?: number;
  cpuUsageRatioMax?: number;
  memoryUsedBytes?: number;
  memoryUsedBytesMax?: number;
  networkReceiveBytesPerSecond?: number;
  networkTransmitBytesPerSecond?: number;
  diskReadBytesPerSecond?: number;
  diskWriteBytesPerSecond?: number;
}

export interface Chart {
  readonly series: ChartSeries;
  readonly resolutionSeconds: number;
  readonly from: Date;
  readonly to: Date;
  readonly points: ChartPoint[];
}

interface TrafficPeriod extends PeriodBounds {
  readonly egressBytes: number;
  readonly ingressBytes: number;
}

export interface BandwidthUsage {
  readonly period: BillingPeriod;
  /** 0: unlimited. */
  readonly allowanceGb: number;
  /** The current period first. */
  readonly periods: TrafficPeriod[];
}

type Reader = (point: ChartPoint, rollup: RollupPoint, resolutionSeconds: number) => void;

/** How each stored series becomes chart fields: gauges average over the bucket, counters become rates. */
const READERS: Readonly<Record<ChartSeries, Readonly<Record<string, Reader>>>> = {
  cpu: {
    cpu: (p, r) => {
      p.cpuUsageRatio = r.sum / r.count;
      p.cpuUsageRatioMax = r.max;
    },
  },
  memory: {
    memory: (p, r) => {
      p.memoryUsedBytes = Math.round(r.sum / r.count);
      p.memoryUsedBytesMax = r.max;
    },
  },
  network: {
    netIn: (p, r, s) => (p.networkReceiveBytesPerSecond = r.sum / s),
    netOut: (p, r, s) => (p.networkTransmitBytesPerSecond = r.sum / s),
  },
  disk: {
    diskRead: (p, r, s) => (p.diskReadBytesPerSecond = r.sum / s),
    diskWrite: (p, r, s) => (p.diskWriteBytesPerSecond = r.sum / s),
  },
};

const FINE = 60;
const COARSE = 3600;
const DEFAULT_RANGE_MS = 3_600_000;
const MAX_PERIODS = 24;

/** A customer's view of their VM's metrics: usage charts and traffic against the plan's allowance. */
export class VmMetricsService {
  constructor(
    private readonly deps: {
      readonly metrics: VmMetricsRepository;
      readonly now: () => Date;
    },
  ) {}

  /**
   * Points from `from` to `to` (default: the last hour): 1-minute rollups while the range lies within the
   * 48 hours they are kept, else 1-hour rollups (kept 90 days), merged into one point per `stepSeconds`
   * (default: the rollups' own resolution), which must be a multiple of that resolution.
   */
  async chart(
    clientOrganizationId: string,
    vmId: string,
    query: {
      series: ChartSeries;
      from?: Date | undefined;
      to?: Date | undefined;
      stepSeconds?: number | undefined;
    },
  ): Promise<Chart> {
    const vm = await this.deps.metrics.meteredVm(clientOrganizationId, vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    const now = this.deps.now();
    const to = query.to ?? now;
    const from = query.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from.getTime() >= to.getTime()) throw InvalidArgumentError.field('query.from', 'must be before to');
    const fineFrom = now.getTime() - (ROLLUP_RETENTION_SECONDS[FINE] ?? 0) * 1000;
    const rollupSeconds = from.getTime() >= fineFrom ? FINE : COARSE;
    const resolutionSeconds = query.stepSeconds ?? rollupSeconds;
    if (resolutionSeconds % rollupSeconds !== 0)
      throw InvalidArgumentError.field(
        'query.step',
        rollupSeconds === FINE
          ? `must be a multiple of ${String(FINE)} seconds`
          : `must be a multiple of ${String(COARSE)} seconds: points older than 48 hours are kept by the hour`,
      );
    const oldest = now.getTime() - (ROLLUP_RETENTION_SECONDS[COARSE] ?? 0) * 1000;
    if (to.getTime() <= oldest)
      throw InvalidArgumentError.field('query.to', 'is older than the 90 days chart points are kept');
    const readers = READERS[query.series];
    const rollups = await this.deps.metrics.rollups(
      vm.id,
      Object.keys(readers),
      rollupSeconds,
      // The step holding `from` starts before it.
      new Date(Math.floor(from.getTime() / (resolutionSeconds * 1000)) * resolutionSeconds * 1000),
      to,
    );
    const points = new Map<number, ChartPoint>();
    for (const r of mergeRollups(rollups, resolutionSeconds)) {
      const time = r.bucket.getTime();
      let point = points.get(time);
      if (point === undefined) points.set(time, (point = { time: r.bucket }));
      readers[r.metric]?.(point, r, resolutionSeconds);
    }
    return { series: query.series, resolutionSeconds, from, to, points: [...points.values()] };
  }

  /** Traffic in the current billing period of the plan and the `periods - 1` before it. */
  async bandwidth(clientOrganizationId: string, vmId: string, periods: number): Promise<BandwidthUsage> {
    const vm = await this.deps.metrics.meteredVm(clientOrganizationId, vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    let current = billingPeriodAt(vm.bandwidthPeriod, this.deps.now());
    const bounds: PeriodBounds[] = [current];
    while (bounds.length < Math.min(periods, MAX_PERIODS)) {
      current = previousBillingPeriod(vm.bandwidthPeriod, current);
      // Nothing before the VM existed.
      if (current.end.getTime() <= vm.createdAt.getTime()) break;
      bounds.push(current);
    }
    const traffic = await this.deps.metrics.traffic(vm.id, bounds);
    return {
      period: vm.bandwidthPeriod,
      allowanceGb: vm.bandwidthAllowanceGb,
      periods: bounds.map((b, i) => ({ ...b, ...(traffic[i] ?? { egressBytes: 0, ingressBytes: 0 }) })),
    };
  }
}
