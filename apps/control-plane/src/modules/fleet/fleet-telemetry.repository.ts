import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Page, PageResult } from '../../http/pagination.js';

export interface SeriesRecord {
  readonly id: string;
  readonly agentId: string;
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly latestValue: number | null;
  readonly latestAt: Date | null;
}

export interface SeriesPoint {
  readonly seriesId: string;
  readonly time: Date;
  readonly value: number;
}

export interface LogRecord {
  readonly time: Date;
  readonly agentId: string;
  readonly stream: 'stdout' | 'stderr';
  readonly line: string;
  readonly fields: Readonly<Record<string, string>>;
}

/** Log fields a query may filter on; a value ending in `*` matches by prefix. */
export const LOG_FILTER_FIELDS = ['k8s_namespace', 'k8s_pod', 'k8s_container', 'k8s_pod_uid'] as const;
export type LogFilterField = (typeof LOG_FILTER_FIELDS)[number];

export interface LogQuery {
  readonly environmentId: string | undefined;
  readonly agentId: string | undefined;
  readonly fields: Partial<Record<LogFilterField, string>>;
  readonly from: Date | undefined;
  readonly to: Date | undefined;
  readonly limit: number;
}

export interface AssetRecord {
  readonly id: string;
  readonly environmentId: string;
  readonly agentId: string | null;
  readonly hostName: string;
  readonly assetType: string;
  readonly integration: string;
  readonly target: string;
  readonly status: string;
  readonly details: Readonly<Record<string, string>>;
  readonly firstSeenAt: Date;
  readonly lastSeenAt: Date;
}

const SERIES_COLUMNS = ['id', 'agent_id', 'name', 'labels', 'last_value', 'last_sample_at'] as const;

function toSeries(r: {
  id: string | number;
  agent_id: string;
  name: string;
  labels: Record<string, string>;
  last_value: number | null;
  last_sample_at: Date | null;
}): SeriesRecord {
  return {
    id: String(r.id),
    agentId: r.agent_id,
    name: r.name,
    labels: r.labels,
    latestValue: r.last_value,
    latestAt: r.last_sample_at,
  };
}

/** `nginx*` → `nginx%` for LIKE, with LIKE's own wildcards in the prefix taken literally. */
function likePrefix(value: string): string {
  return `${value.slice(0, -1).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The reads of fleet telemetry: series and their points, logs and assets, always within one organisation. */
export class FleetTelemetryRepository {
  constructor(private readonly db: Db) {}

  agentSeries(
    organizationId: string,
    agentId: string,
    name: string | undefined,
    page: Page,
  ): Promise<PageResult<SeriesRecord>> {
    let query = this.db
      .selectFrom('fleet_series')
      .select(SERIES_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('agent_id', '=', agentId)
      .orderBy('name')
      .orderBy('id');
    if (name !== undefined) query = query.where('name', '=', name);
    return listPage(query, page, (rows) => rows.map(toSeries));
  }

  /** Series of the environment with this name whose labels include `labels`; at most `limit`. */
  async matchingSeries(
    organizationId: string,
    environmentId: string,
    name: string,
    labels: Readonly<Record<string, string>>,
    limit: number,
  ): Promise<SeriesRecord[]> {
    const rows = await this.db
      .selectFrom('fleet_series')
      .select(SERIES_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('environment_id', '=', environmentId)
      .where('name', '=', name)
      .where(sql<boolean>`labels @> ${JSON.stringify(labels)}::jsonb`)
      .orderBy('id')
      .limit(limit)
      .execute();
    return rows.map(toSeries);
  }

  /** Points of these series in [from, to], oldest first; at most `limit`. */
  async points(seriesIds: readonly string[], from: Date, to: Date, limit: number): Promise<SeriesPoint[]> {
    if (seriesIds.length === 0) return [];
    const rows = await sql<{ series_id: string | number; ts: Date; value: number }>`
      SELECT series_id, ts, value FROM fleet_samples
      WHERE series_id = ANY(${seriesIds}::bigint[]) AND ts >= ${from} AND ts <= ${to}
      ORDER BY series_id, ts
      LIMIT ${limit}`.execute(this.db);
    return rows.rows.map((r) => ({ seriesId: String(r.series_id), time: new Date(r.ts), value: r.value }));
  }

  /** Newest first. */
  async logs(organizationId: string, query: LogQuery): Promise<LogRecord[]> {
    let select = this.db
      .selectFrom('fleet_logs')
      .select(['ts', 'agent_id', 'stream', 'line', 'fields'])
      .where('organization_id', '=', organizationId);
    if (query.environmentId !== undefined) select = select.where('environment_id', '=', query.environmentId);
    if (query.agentId !== undefined) select = select.where('agent_id', '=', query.agentId);
    if (query.from !== undefined) select = select.where('ts', '>=', query.from);
    if (query.to !== undefined) select = select.where('ts', '<=', query.to);
    for (const field of LOG_FILTER_FIELDS) {
      const value = query.fields[field];
      if (value === undefined) continue;
      select = value.endsWith('*')
        ? select.where(sql<boolean>`${sql.ref(field)} LIKE ${likePrefix(value)} ESCAPE '\\'`)
        : select.where(field, '=', value);
    }
    const rows = await select.orderBy('ts', 'desc').orderBy('id', 'desc').limit(query.limit).execute();
    return rows.map((r) => ({
      time: r.ts,
      agentId: r.agent_id,
      stream: r.stream,
      line: r.line,
      fields: r.fields,
    }));
  }

  assets(
    organizationId: string,
    environmentId: string | undefined,
    page: Page,
  ): Promise<PageResult<AssetRecord>> {
    let query = this.db
      .selectFrom('fleet_assets')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy('environment_id')
      .orderBy('host_name')
      .orderBy('integration')
      .orderBy('target');
    if (environmentId !== undefined) query = query.where('environment_id', '=', environmentId);
    return listPage(query, page, (rows) =>
      rows.map((r) => ({
        id: r.id,
        environmentId: r.environment_id,
        agentId: r.agent_id,
        hostName: r.host_name,
        assetType: r.asset_type,
        integration: r.integration,
        target: r.target,
        status: r.status,
        details: r.details,
        firstSeenAt: r.first_seen_at,
        lastSeenAt: r.last_seen_at,
      })),
    );
  }
}
