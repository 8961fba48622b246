import type { CollectorStatus, LogEntry } from '@noderings/fleet';
import { sql, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { LogFilterField } from './fleet-telemetry.repository.js';
import type { IntegrationAsset } from './integration-assets.js';
import type { SeriesPlan } from './series-plan.js';

type Tx = Transaction<Database>;

/** The live agent record whose current key published a message. */
export interface Publisher {
  readonly agentId: string;
  readonly organizationId: string;
  readonly environmentId: string;
  readonly hostname: string;
}

interface HeartbeatWrite {
  readonly version: string;
  readonly hostname: string;
  readonly intervalSeconds: number;
  readonly collectors: readonly CollectorStatus[];
  readonly assets: readonly IntegrationAsset[];
}

/** The writes of one message, inside its transaction. */
export interface MessageWriter {
  readonly publisher: Publisher;
  /** The cluster the publisher's host is linked to, if any. */
  clusterOfHost(): Promise<string | undefined>;
  heartbeat(write: HeartbeatWrite): Promise<void>;
  metrics(plan: SeriesPlan): Promise<void>;
  logs(entries: readonly LogEntry[]): Promise<void>;
}

export type StoreOutcome = 'stored' | 'duplicate' | 'unknown-publisher';

/** Timestamps as ISO text: both drivers pass text arrays through unchanged. */
function isoTimes(ms: readonly number[]): string[] {
  return ms.map((t) => new Date(t).toISOString());
}

/**
 * The writes of the fleet transport. Each message is stored in one transaction that first takes the
 * publisher's record (so messages of one agent are applied one at a time) and claims the message id: a
 * message stored before (redelivered, or republished by the agent) changes nothing.
 */
export class FleetIngestRepository {
  constructor(private readonly db: Db) {}

  /** The live record whose current key this is; undefined for released, re-bound or unknown keys. */
  async publisher(publicKey: string): Promise<Publisher | undefined> {
    const row = await this.db
      .selectFrom('fleet_agents')
      .select(['id', 'organization_id', 'environment_id', 'hostname'])
      .where('public_key', '=', publicKey)
      .where('released_at', 'is', null)
      .executeTakeFirst();
    return (
      row && {
        agentId: row.id,
        organizationId: row.organization_id,
        environmentId: row.environment_id,
        hostname: row.hostname,
      }
    );
  }

  /**
   * Stores a message of the agent whose current key is `publicKey`, heard at `heardAt`: marks the agent
   * seen, claims the message id, and lets `write` add what the message says. All or nothing.
   */
  async store(
    publicKey: string,
    messageId: string,
    heardAt: Date,
    write: (writer: MessageWriter) => Promise<void>,
  ): Promise<StoreOutcome> {
    return this.db.transaction().execute(async (tx) => {
      const agent = await tx
        .updateTable('fleet_agents')
        .set({ last_seen_at: sql<Date>`greatest(last_seen_at, ${heardAt})` })
        .where('public_key', '=', publicKey)
        .where('released_at', 'is', null)
        .returning(['id', 'organization_id', 'environment_id', 'hostname'])
        .executeTakeFirst();
      if (agent === undefined) return 'unknown-publisher';
      const claimed = await tx
        .insertInto('fleet_message_ids')
        .values({ agent_id: agent.id, message_id: messageId, received_at: heardAt })
        .onConflict((oc) => oc.columns(['agent_id', 'message_id']).doNothing())
        .returning('message_id')
        .executeTakeFirst();
      if (claimed === undefined) return 'duplicate';
      await write(
        new TransactionWriter(
          tx,
          {
            agentId: agent.id,
            organizationId: agent.organization_id,
            environmentId: agent.environment_id,
            hostname: agent.hostname,
          },
          heardAt,
        ),
      );
      return 'stored';
    });
  }

  /** Drops samples, log entries and message ids past their retention (and series left without samples). */
  async prune(cutoffs: { samples: Date; logs: Date; messageIds: Date }): Promise<void> {
    await this.db.deleteFrom('fleet_samples').where('ts', '<', cutoffs.samples).execute();
    await this.db
      .deleteFrom('fleet_series')
      .where((eb) => eb.or([eb('last_sample_at', 'is', null), eb('last_sample_at', '<', cutoffs.samples)]))
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('fleet_samples').whereRef('series_id', '=', 'fleet_series.id'))),
      )
      .execute();
    await this.db.deleteFrom('fleet_logs').where('ts', '<', cutoffs.logs).execute();
    await this.db.deleteFrom('fleet_message_ids').where('received_at', '<', cutoffs.messageIds).execute();
  }
}

class TransactionWriter implements MessageWriter {
  constructor(
    private readonly tx: Tx,
    readonly publisher: Publisher,
    private readonly heardAt: Date,
  ) {}

  async clusterOfHost(): Promise<string | undefined> {
    const row = await this.tx
      .selectFrom('fleet_cluster_hosts')
      .select('cluster_id')
      .where('environment_id', '=', this.publisher.environmentId)
      .where('hostname', '=', this.publisher.hostname)
      .executeTakeFirst();
    return row?.cluster_id;
  }

  /** A heartbeat older than the one applied (a late redelivery) only counts as being heard from. */
  async heartbeat(write: HeartbeatWrite): Promise<void> {
    const { agentId, organizationId, environmentId } = this.publisher;
    const applied = await this.tx
      .updateTable('fleet_agents')
      .set({
        version: write.version,
        hostname: write.hostname,
        heartbeat_interval_seconds: write.intervalSeconds,
        collectors: JSON.stringify(write.collectors),
        last_heartbeat_at: this.heardAt,
      })
      .where('id', '=', agentId)
      .where((eb) =>
        eb.or([eb('last_heartbeat_at', 'is', null), eb('last_heartbeat_at', '<=', this.heardAt)]),
      )
      .executeTakeFirst();
    if (applied.numUpdatedRows === 0n || write.assets.length === 0) return;
    const assets = [...write.assets].sort(
      (a, b) => a.integration.localeCompare(b.integration) || a.target.localeCompare(b.target),
    );
    await sql`
      INSERT INTO fleet_assets AS a (organization_id, environment_id, agent_id, host_name, asset_type,
        integration, target, status, details, first_seen_at, last_seen_at)
      SELECT ${organizationId}::uuid, ${environmentId}::uuid, ${agentId}::uuid, ${write.hostname}, x.asset_type,
        x.integration, x.target, x.status, x.details::jsonb, ${this.heardAt}, ${this.heardAt}
      FROM unnest(${assets.map((x) => x.assetType)}::text[], ${assets.map((x) => x.integration)}::text[],
        ${assets.map((x) => x.target)}::text[], ${assets.map((x) => x.status)}::text[],
        ${assets.map((x) => JSON.stringify(x.details))}::text[]) AS x (asset_type, integration, target, status, details)
      ON CONFLICT (environment_id, host_name, integration, target) DO UPDATE SET
        agent_id = excluded.agent_id, asset_type = excluded.asset_type, status = excluded.status,
        details = excluded.details, last_seen_at = greatest(a.last_seen_at, excluded.last_seen_at)`.execute(
      this.tx,
    );
  }

  /**
   * New series first (sorted by key, so concurrent messages lock alike), then every sample with ON
   * CONFLICT DO NOTHING (a sample stored before stays as it was), then each series' newest sample.
   */
  async metrics(plan: SeriesPlan): Promise<void> {
    const { agentId, organizationId, environmentId } = this.publisher;
    const series = [...plan.series].sort((a, b) => (a.keyHash < b.keyHash ? -1 : 1));
    const hashes = series.map((s) => s.keyHash);
    await sql`
      INSERT INTO fleet_series (organization_id, environment_id, agent_id, cluster_id, name, labels, key_hash)
      SELECT ${organizationId}::uuid, ${environmentId}::uuid, ${agentId}::uuid, x.cluster_id, x.name,
        x.labels::jsonb, x.key_hash
      FROM unnest(${series.map((s) => s.clusterId)}::uuid[], ${series.map((s) => s.name)}::text[],
        ${series.map((s) => JSON.stringify(s.labels))}::text[], ${hashes}::text[])
        AS x (cluster_id, name, labels, key_hash)
      ON CONFLICT (key_hash) DO NOTHING`.execute(this.tx);
    const ids = await sql<{ id: string | number; key_hash: string }>`
      SELECT id, key_hash FROM fleet_series WHERE key_hash = ANY(${hashes}::text[])`.execute(this.tx);
    const idOf = new Map(ids.rows.map((r) => [r.key_hash, String(r.id)]));
    const samples = plan.samples
      .flatMap((s) => {
        const seriesId = idOf.get(s.keyHash);
        return seriesId === undefined ? [] : [{ seriesId, timestampMs: s.timestampMs, value: s.value }];
      })
      .sort((a, b) => Number(a.seriesId) - Number(b.seriesId) || a.timestampMs - b.timestampMs);
    await sql`
      INSERT INTO fleet_samples (series_id, ts, value)
      SELECT x.series_id, x.ts, x.value::double precision
      FROM unnest(${samples.map((s) => s.seriesId)}::bigint[], ${isoTimes(samples.map((s) => s.timestampMs))}::timestamptz[],
        ${samples.map((s) => String(s.value))}::text[]) AS x (series_id, ts, value)
      ON CONFLICT DO NOTHING`.execute(this.tx);
    const newest = new Map<string, (typeof samples)[number]>();
    for (const s of samples) newest.set(s.seriesId, s);
    const latest = [...newest.values()];
    await sql`
      UPDATE fleet_series s SET last_sample_at = x.ts, last_value = x.value::double precision
      FROM unnest(${latest.map((s) => s.seriesId)}::bigint[], ${isoTimes(latest.map((s) => s.timestampMs))}::timestamptz[],
        ${latest.map((s) => String(s.value))}::text[]) AS x (id, ts, value)
      WHERE s.id = x.id AND (s.last_sample_at IS NULL OR s.last_sample_at <= x.ts)`.execute(this.tx);
  }

  async logs(entries: readonly LogEntry[]): Promise<void> {
    const { agentId, organizationId, environmentId } = this.publisher;
    const field = (name: LogFilterField) => entries.map((e) => e.fields[name] ?? null);
    await sql`
      INSERT INTO fleet_logs (organization_id, environment_id, agent_id, ts, stream, line, fields,
        k8s_namespace, k8s_pod, k8s_container, k8s_pod_uid)
      SELECT ${organizationId}::uuid, ${environmentId}::uuid, ${agentId}::uuid, x.ts, x.stream, x.line,
        x.fields::jsonb, x.k8s_namespace, x.k8s_pod, x.k8s_container, x.k8s_pod_uid
      FROM unnest(${isoTimes(entries.map((e) => e.t))}::timestamptz[], ${entries.map((e) => e.stream)}::text[],
        ${entries.map((e) => e.line)}::text[], ${entries.map((e) => JSON.stringify(e.fields))}::text[],
        ${field('k8s_namespace')}::text[], ${field('k8s_pod')}::text[], ${field('k8s_container')}::text[],
        ${field('k8s_pod_uid')}::text[])
        AS x (ts, stream, line, fields, k8s_namespace, k8s_pod, k8s_container, k8s_pod_uid)`.execute(this.tx);
  }
}
