import { AlreadyExistsError, InvalidArgumentError, NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import {
  countRestarts,
  MAX_RESTART_STEPS,
  restartsWindowMs,
  stepCount,
  type RestartSeries,
} from './cluster-restarts.js';
import type {
  ClusterHost,
  FleetCluster,
  FleetClusterRepository,
  RestartSampleRow,
} from './fleet-cluster.repository.js';

export interface FleetClusterDetail extends FleetCluster {
  readonly hosts: ClusterHost[];
}

interface TimedCount {
  readonly time: Date;
  readonly restarts: number;
}

export interface ClusterRestarts {
  readonly from: Date;
  readonly to: Date;
  readonly stepSeconds: number;
  readonly windowSeconds: number;
  readonly points: TimedCount[];
  /** With by=workload: the workloads that restarted in the range. */
  readonly workloads:
    { workloadKind: string | null; workload: string | null; points: TimedCount[] }[] | undefined;
}

const DEFAULT_RANGE_MS = 3_600_000;
const DEFAULT_STEP_SECONDS = 60;
/** Rows one restarts query may read; a range holding more needs a larger step or a shorter range. */
const MAX_RESTART_ROWS = 500_000;

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

/** Kubernetes clusters, their node-host linkage (which puts `cluster_id` on metrics) and restarts. */
export class FleetClusterService {
  constructor(
    private readonly deps: {
      readonly clusters: FleetClusterRepository;
      readonly now: () => Date;
    },
  ) {}

  async create(organizationId: string, environmentId: string, name: string): Promise<FleetCluster> {
    const cluster = await this.deps.clusters.create(organizationId, environmentId, name, this.deps.now());
    if (cluster === undefined) throw NotFoundError.of('Environment', environmentId);
    return cluster;
  }

  list(
    organizationId: string,
    environmentId: string | undefined,
    page: Page,
  ): Promise<PageResult<FleetCluster>> {
    return this.deps.clusters.list(organizationId, environmentId, page);
  }

  async get(organizationId: string, id: string): Promise<FleetClusterDetail> {
    const cluster = await this.#cluster(organizationId, id);
    return { ...cluster, hosts: await this.deps.clusters.hosts(id) };
  }

  async linkHost(organizationId: string, clusterId: string, hostname: string): Promise<ClusterHost> {
    const outcome = await this.deps.clusters.linkHost(organizationId, clusterId, hostname, this.deps.now());
    switch (outcome.kind) {
      case 'cluster-not-found':
        throw NotFoundError.of('Cluster', clusterId);
      case 'linked-elsewhere':
        throw new AlreadyExistsError(
          `Host ${hostname} is linked to cluster ${outcome.clusterId}; unlink it there first.`,
        );
      case 'linked':
        return outcome.host;
    }
  }

  async unlinkHost(organizationId: string, clusterId: string, hostname: string): Promise<void> {
    if (!(await this.deps.clusters.unlinkHost(organizationId, clusterId, hostname)))
      throw new NotFoundError(`Host ${hostname} is not linked to cluster ${clusterId}.`);
  }

  /** Container restarts per step (seed 004's query; see cluster-restarts.ts). */
  async restarts(
    organizationId: string,
    clusterId: string,
    query: {
      from: Date | undefined;
      to: Date | undefined;
      stepSeconds: number | undefined;
      byWorkload: boolean;
    },
  ): Promise<ClusterRestarts> {
    const to = query.to ?? this.deps.now();
    const from = query.from ?? new Date(to.getTime() - DEFAULT_RANGE_MS);
    const stepSeconds = query.stepSeconds ?? DEFAULT_STEP_SECONDS;
    const range = { fromMs: from.getTime(), toMs: to.getTime(), stepMs: stepSeconds * 1000 };
    if (range.toMs < range.fromMs) throw InvalidArgumentError.field('query.to', 'must not be before from');
    const steps = stepCount(range);
    if (steps > MAX_RESTART_STEPS)
      throw InvalidArgumentError.field(
        'query.step',
        `gives ${steps} steps from from to to; at most ${MAX_RESTART_STEPS} are answered (take a larger step)`,
      );
    await this.#cluster(organizationId, clusterId);
    const windowMs = restartsWindowMs(range.stepMs);
    const rows = await this.deps.clusters.restartSamples(
      organizationId,
      clusterId,
      {
        lowerMs: range.fromMs - range.stepMs - windowMs,
        upperMs: range.fromMs + (steps - 1) * range.stepMs,
        originMs: range.fromMs,
        bucketMs: gcd(range.stepMs, windowMs),
      },
      MAX_RESTART_ROWS + 1,
    );
    if (rows.length > MAX_RESTART_ROWS)
      throw InvalidArgumentError.field(
        'query.step',
        'the range holds too many samples for this step; take a larger step or a shorter range',
      );
    const counts = countRestarts(seriesOf(rows, query.byWorkload), range);
    const points = (values: readonly number[]) =>
      counts.times.map((t, i) => ({ time: new Date(t), restarts: values[i] ?? 0 }));
    return {
      from,
      to,
      stepSeconds,
      windowSeconds: counts.windowMs / 1000,
      points: points(counts.totals),
      workloads: query.byWorkload
        ? [...counts.byGroup]
            .filter(([, values]) => values.some((v) => v > 0))
            .map(([group, values]) => {
              const [workloadKind = null, workload = null] = JSON.parse(group) as (string | null)[];
              return { workloadKind, workload, points: points(values) };
            })
            .sort((a, b) => byName(a.workloadKind, b.workloadKind) || byName(a.workload, b.workload))
        : undefined,
    };
  }

  async #cluster(organizationId: string, id: string): Promise<FleetCluster> {
    const cluster = await this.deps.clusters.get(organizationId, id);
    if (cluster === undefined) throw NotFoundError.of('Cluster', id);
    return cluster;
  }
}

/** Named first, alphabetically; pods without workload labels (older agents, unseen pods) last. */
function byName(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}

function seriesOf(rows: readonly RestartSampleRow[], byWorkload: boolean): RestartSeries[] {
  const series = new Map<string, { group: string; samples: { timestampMs: number; value: number }[] }>();
  for (const r of rows) {
    let s = series.get(r.seriesId);
    if (s === undefined) {
      const group = byWorkload ? JSON.stringify([r.workloadKind, r.workload]) : '';
      series.set(r.seriesId, (s = { group, samples: [] }));
    }
    s.samples.push({ timestampMs: r.timestampMs, value: r.value });
  }
  return [...series.values()];
}
