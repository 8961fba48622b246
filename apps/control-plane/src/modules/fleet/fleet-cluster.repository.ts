import { AlreadyExistsError } from '@noderings/domain';
import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';

export interface FleetCluster {
  readonly id: string;
  readonly environmentId: string;
  readonly name: string;
  readonly createdAt: Date;
}

export interface ClusterHost {
  readonly hostname: string;
  readonly linkedAt: Date;
}

export type LinkOutcome =
  | { readonly kind: 'linked'; readonly host: ClusterHost }
  | { readonly kind: 'cluster-not-found' }
  /** The host is linked to another cluster of the environment. */
  | { readonly kind: 'linked-elsewhere'; readonly clusterId: string };

/** The newest sample of a restarts series in one bucket of the query's grid. */
export interface RestartSampleRow {
  readonly seriesId: string;
  readonly workloadKind: string | null;
  readonly workload: string | null;
  readonly timestampMs: number;
  readonly value: number;
}

const COLUMNS = ['id', 'environment_id', 'name', 'created_at'] as const;
const RESTARTS_METRIC = 'container_restarts_total';

function toCluster(r: { id: string; environment_id: string; name: string; created_at: Date }): FleetCluster {
  return { id: r.id, environmentId: r.environment_id, name: r.name, createdAt: r.created_at };
}

/** Kubernetes clusters of a fleet environment and the hosts (nodes) linked to them. */
export class FleetClusterRepository {
  constructor(private readonly db: Db) {}

  /** Undefined when the environment is not the organisation's. */
  async create(
    organizationId: string,
    environmentId: string,
    name: string,
    now: Date,
  ): Promise<FleetCluster | undefined> {
    const row = await translateViolations(
      this.db
        .insertInto('fleet_clusters')
        .columns(['organization_id', 'environment_id', 'name', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('fleet_environments')
            .select(['organization_id', 'id', eb.val(name).as('name'), eb.val(now).as('created_at')])
            .where('id', '=', environmentId)
            .where('organization_id', '=', organizationId),
        )
        .returning(COLUMNS)
        .executeTakeFirst(),
      { unique: () => new AlreadyExistsError(`The environment already has a cluster named "${name}".`) },
    );
    return row && toCluster(row);
  }

  async get(organizationId: string, id: string): Promise<FleetCluster | undefined> {
    const row = await this.db
      .selectFrom('fleet_clusters')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toCluster(row);
  }

  list(
    organizationId: string,
    environmentId: string | undefined,
    page: Page,
  ): Promise<PageResult<FleetCluster>> {
    let query = this.db
      .selectFrom('fleet_clusters')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id');
    if (environmentId !== undefined) query = query.where('environment_id', '=', environmentId);
    return listPage(query, page, (rows) => rows.map(toCluster));
  }

  async hosts(clusterId: string): Promise<ClusterHost[]> {
    const rows = await this.db
      .selectFrom('fleet_cluster_hosts')
      .select(['hostname', 'linked_at'])
      .where('cluster_id', '=', clusterId)
      .orderBy('hostname')
      .execute();
    return rows.map((r) => ({ hostname: r.hostname, linkedAt: r.linked_at }));
  }

  /** Links a host name to the cluster; linking it again answers the existing link. */
  async linkHost(
    organizationId: string,
    clusterId: string,
    hostname: string,
    now: Date,
  ): Promise<LinkOutcome> {
    return this.db.transaction().execute(async (tx) => {
      const cluster = await tx
        .selectFrom('fleet_clusters')
        .select('environment_id')
        .where('organization_id', '=', organizationId)
        .where('id', '=', clusterId)
        .executeTakeFirst();
      if (cluster === undefined) return { kind: 'cluster-not-found' };
      const linked = await tx
        .selectFrom('fleet_cluster_hosts')
        .select(['cluster_id', 'linked_at'])
        .where('environment_id', '=', cluster.environment_id)
        .where('hostname', '=', hostname)
        .executeTakeFirst();
      if (linked !== undefined && linked.cluster_id !== clusterId)
        return { kind: 'linked-elsewhere', clusterId: linked.cluster_id };
      if (linked !== undefined) return { kind: 'linked', host: { hostname, linkedAt: linked.linked_at } };
      await tx
        .insertInto('fleet_cluster_hosts')
        .values({ cluster_id: clusterId, environment_id: cluster.environment_id, hostname, linked_at: now })
        .execute();
      return { kind: 'linked', host: { hostname, linkedAt: now } };
    });
  }

  /** False when the host is not linked to the organisation's cluster. */
  async unlinkHost(organizationId: string, clusterId: string, hostname: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('fleet_cluster_hosts')
      .where('cluster_id', '=', clusterId)
      .where('hostname', '=', hostname)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('fleet_clusters')
            .whereRef('fleet_clusters.id', '=', 'fleet_cluster_hosts.cluster_id')
            .where('fleet_clusters.organization_id', '=', organizationId),
        ),
      )
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  /**
   * The cluster's `container_restarts_total` samples in (lowerMs, upperMs], reduced to the newest one of
   * each series per bucket (originMs + (k − 1)·bucketMs, originMs + k·bucketMs]: every window the query
   * evaluates is a union of whole buckets, so the newest sample of a window is among these. At most
   * `limit` rows, oldest first per series.
   */
  async restartSamples(
    organizationId: string,
    clusterId: string,
    grid: { lowerMs: number; upperMs: number; originMs: number; bucketMs: number },
    limit: number,
  ): Promise<RestartSampleRow[]> {
    const rows = await sql<{
      series_id: string | number;
      workload_kind: string | null;
      workload: string | null;
      ts: Date;
      value: number;
    }>`
      SELECT s.id AS series_id, s.labels->>'workload_kind' AS workload_kind, s.labels->>'workload' AS workload,
        x.ts, x.value
      FROM fleet_series s
      CROSS JOIN LATERAL (
        SELECT DISTINCT ON (bucket)
          ceil((extract(epoch FROM f.ts) * 1000 - ${grid.originMs}::numeric) / ${grid.bucketMs}::numeric) AS bucket,
          f.ts, f.value
        FROM fleet_samples f
        WHERE f.series_id = s.id AND f.ts > ${new Date(grid.lowerMs)} AND f.ts <= ${new Date(grid.upperMs)}
        ORDER BY bucket, f.ts DESC
      ) x
      WHERE s.organization_id = ${organizationId} AND s.cluster_id = ${clusterId} AND s.name = ${RESTARTS_METRIC}
      ORDER BY s.id, x.ts
      LIMIT ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({
      seriesId: String(r.series_id),
      workloadKind: r.workload_kind,
      workload: r.workload,
      timestampMs: new Date(r.ts).getTime(),
      value: r.value,
    }));
  }
}
