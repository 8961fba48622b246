import { sql, type Transaction } from 'kysely';
import { z } from 'zod';

import type { Db } from '../../db/database.js';
import type { Database, ServiceStatus } from '../../db/schema.js';
import type { NodeFacts } from './metric-facts.js';
import { cursorKey, type Cursor, type VmUsagePlan } from './vm-usage-plan.js';

type Tx = Transaction<Database>;

/** A platform an agent forwards metrics for; `instance` is its endpoint as the series label it. */
export interface AgentPlatform {
  readonly id: string;
  readonly organizationId: string;
  readonly endpointUrl: string;
}

/** What a request's VM series may touch: the agent's own live VMs, with the VMID they were given. */
export interface AgentVm {
  readonly id: string;
  readonly vmid: number;
}

const ONLINE: ServiceStatus = 'SERVICE_STATUS_ONLINE';
const OFFLINE: ServiceStatus = 'SERVICE_STATUS_OFFLINE';
const MAINTENANCE: ServiceStatus = 'SERVICE_STATUS_MAINTENANCE';
/** Rows per statement: well under PostgreSQL's 65,535 parameters for every table written here. */
const CHUNK = 2000;
const GIB = 1024 ** 3;

const storedPool = z.object({
  storageId: z.string(),
  totalBytes: z.number().catch(0),
  allocatedBytes: z.number().catch(0),
});
const storedInventory = z.looseObject({ storagePools: z.array(storedPool).catch([]) }).catch({
  storagePools: [],
});

function chunks<T>(rows: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += CHUNK) out.push(rows.slice(i, i + CHUNK));
  return out;
}

/** The writes of metrics ingest: platform health, node inventory and VM usage. */
export class MetricsIngestRepository {
  constructor(private readonly db: Db) {}

  async platformsOfAgent(agentId: string): Promise<AgentPlatform[]> {
    const rows = await this.db
      .selectFrom('platforms')
      .select(['id', 'organization_id', 'endpoint_url'])
      .where('agent_id', '=', agentId)
      .execute();
    return rows.map((r) => ({ id: r.id, organizationId: r.organization_id, endpointUrl: r.endpoint_url }));
  }

  async vmsOfAgent(agentId: string, vmIds: readonly string[]): Promise<AgentVm[]> {
    if (vmIds.length === 0) return [];
    const rows = await this.db
      .selectFrom('virtual_machines')
      .select(['id', sql<number | null>`(spec->>'vmid')::integer`.as('vmid')])
      .where('agent_id', '=', agentId)
      .where('id', 'in', vmIds)
      .where('deleted_at', 'is', null)
      .execute();
    return rows.flatMap((r) => (r.vmid === null ? [] : [{ id: r.id, vmid: r.vmid }]));
  }

  /**
   * Records each host's pve_up as of `now` and re-derives the status of the platforms behind them: online
   * while every host heard from within `silenceSeconds` is up. Returns the organisations whose platforms
   * changed status or reported for the first time.
   */
  async recordHostUps(
    ups: readonly { platformId: string; host: string; up: boolean }[],
    now: Date,
    silenceSeconds: number,
  ): Promise<string[]> {
    if (ups.length === 0) return [];
    const rows = [...ups]
      .sort((a, b) => a.platformId.localeCompare(b.platformId) || a.host.localeCompare(b.host))
      .map((u) => ({ platform_id: u.platformId, host: u.host, up: u.up, sampled_at: now }));
    return this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('platform_metric_hosts')
        .values(rows)
        .onConflict((oc) =>
          oc
            .columns(['platform_id', 'host'])
            .doUpdateSet((eb) => ({ up: eb.ref('excluded.up'), sampled_at: eb.ref('excluded.sampled_at') })),
        )
        .execute();
      return this.#rederivePlatforms(tx, [...new Set(rows.map((r) => r.platform_id))], now, silenceSeconds);
    });
  }

  /**
   * Platforms and nodes not heard from within `silenceSeconds` go offline. Returns the organisations whose
   * platforms or nodes changed.
   */
  async markSilent(now: Date, silenceSeconds: number): Promise<string[]> {
    const cutoff = new Date(now.getTime() - silenceSeconds * 1000);
    return this.db.transaction().execute(async (tx) => {
      const nodes = await tx
        .updateTable('nodes')
        .set({ service_status: OFFLINE, updated_at: now })
        .from('platform_metric_hosts as h')
        .whereRef('h.platform_id', '=', 'nodes.platform_id')
        .where(sql<boolean>`h.host = 'node/' || nodes.name`)
        .where('h.sampled_at', '<', cutoff)
        .where('nodes.service_status', '=', ONLINE)
        .returning('nodes.organization_id')
        .execute();
      const stale = await tx
        .selectFrom('platforms')
        .select('id')
        .where('service_status', '=', ONLINE)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('platform_metric_hosts as h')
              .whereRef('h.platform_id', '=', 'platforms.id')
              .where('h.sampled_at', '<', cutoff),
          ),
        )
        .execute();
      const platforms = await this.#rederivePlatforms(
        tx,
        stale.map((p) => p.id),
        now,
        silenceSeconds,
      );
      return [...new Set([...nodes.map((n) => n.organization_id), ...platforms])];
    });
  }

  async #rederivePlatforms(
    tx: Tx,
    platformIds: readonly string[],
    now: Date,
    silenceSeconds: number,
  ): Promise<string[]> {
    if (platformIds.length === 0) return [];
    const cutoff = new Date(now.getTime() - silenceSeconds * 1000);
    const rows = await sql<{ organization_id: string }>`
      UPDATE platforms p
      SET service_status = s.status, metrics_reported_at = coalesce(p.metrics_reported_at, ${now}),
        updated_at = ${now}
      FROM (
        SELECT platform_id,
          CASE WHEN count(*) FILTER (WHERE sampled_at >= ${cutoff}) > 0
                AND bool_and(up) FILTER (WHERE sampled_at >= ${cutoff})
            THEN ${ONLINE} ELSE ${OFFLINE} END AS status
        FROM platform_metric_hosts
        WHERE platform_id IN (${sql.join(platformIds)})
        GROUP BY platform_id
      ) s
      WHERE p.id = s.platform_id AND p.service_status <> ${MAINTENANCE}
        AND (p.service_status <> s.status OR p.metrics_reported_at IS NULL)
      RETURNING p.organization_id`.execute(tx);
    return rows.rows.map((r) => r.organization_id);
  }

  /**
   * Merges what a request reported about the nodes of a platform into their inventory and status (a node
   * is matched by its Proxmox name). Keys the request did not report keep their value. Returns whether a
   * node changed in a way placement or preflight reads.
   */
  async updateNodes(
    platformId: string,
    facts: ReadonlyMap<string, NodeFacts>,
    hostUps: ReadonlyMap<string, boolean>,
    now: Date,
  ): Promise<boolean> {
    if (facts.size === 0) return false;
    return this.db.transaction().execute(async (tx) => {
      const nodes = await tx
        .selectFrom('nodes')
        .select(['id', 'name', 'inventory', 'service_status'])
        .where('platform_id', '=', platformId)
        .where('name', 'in', [...facts.keys()])
        .orderBy('id')
        .forUpdate()
        .execute();
      let changed = false;
      for (const node of nodes) {
        const reported = facts.get(node.name);
        if (reported === undefined) continue;
        const inventory = mergeInventory(node.inventory, reported, now);
        const up = hostUps.get(node.name);
        const status =
          up === undefined || node.service_status === MAINTENANCE
            ? node.service_status
            : up
              ? ONLINE
              : OFFLINE;
        changed ||= status !== node.service_status || capacityChanged(node.inventory, inventory);
        await tx
          .updateTable('nodes')
          .set({ inventory: JSON.stringify(inventory), service_status: status, updated_at: now })
          .where('id', '=', node.id)
          .execute();
      }
      return changed;
    });
  }

  /**
   * Applies VM samples once: the series' cursors are locked (created first when new, so that two requests
   * never both see "no previous sample"), `plan` decides from them, and rollups, traffic, power state and
   * cursors are written in the same transaction. Rows are locked in one order, so concurrent requests
   * wait for each other instead of deadlocking.
   */
  async applyVmUsage(
    series: readonly { vmId: string; metric: string }[],
    plan: (cursors: ReadonlyMap<string, Cursor>) => VmUsagePlan,
  ): Promise<VmUsagePlan> {
    const keys = [...new Map(series.map((s) => [cursorKey(s.vmId, s.metric), s])).values()].sort(
      (a, b) => a.vmId.localeCompare(b.vmId) || a.metric.localeCompare(b.metric),
    );
    return this.db.transaction().execute(async (tx) => {
      const cursors = new Map<string, Cursor>();
      for (const part of chunks(keys)) {
        const vmIds = part.map((k) => k.vmId);
        const metrics = part.map((k) => k.metric);
        await sql`
          INSERT INTO vm_metric_cursors (vm_id, metric)
          SELECT * FROM unnest(${vmIds}::uuid[], ${metrics}::text[])
          ON CONFLICT DO NOTHING`.execute(tx);
        const rows = await sql<{
          vm_id: string;
          metric: string;
          sampled_at: Date | null;
          value: number | null;
        }>`
          SELECT c.vm_id, c.metric, c.sampled_at, c.value
          FROM vm_metric_cursors c
          JOIN unnest(${vmIds}::uuid[], ${metrics}::text[]) AS k (vm_id, metric)
            ON c.vm_id = k.vm_id AND c.metric = k.metric
          ORDER BY c.vm_id, c.metric
          FOR UPDATE OF c`.execute(tx);
        for (const r of rows.rows) {
          if (r.sampled_at !== null && r.value !== null)
            cursors.set(cursorKey(r.vm_id, r.metric), {
              sampledAtMs: new Date(r.sampled_at).getTime(),
              value: r.value,
            });
        }
      }
      const result = plan(cursors);
      await writeUsage(tx, result);
      return result;
    });
  }

  /** Drops chart points past their retention. */
  async pruneRollups(now: Date, retentionSeconds: Readonly<Record<number, number>>): Promise<void> {
    for (const [resolution, keep] of Object.entries(retentionSeconds)) {
      await this.db
        .deleteFrom('vm_metric_rollups')
        .where('resolution_seconds', '=', Number(resolution))
        .where('bucket', '<', new Date(now.getTime() - keep * 1000))
        .execute();
    }
  }
}

/** Timestamps as ISO text: both drivers pass text arrays through unchanged. */
function isoTimes(ms: readonly number[]): string[] {
  return ms.map((t) => new Date(t).toISOString());
}

/**
 * The writes of one batch, each one statement over arrays (unnest) whatever the batch's size, rows in
 * one sorted order so that concurrent batches lock alike.
 */
async function writeUsage(tx: Tx, plan: VmUsagePlan): Promise<void> {
  const rollups = [...plan.rollups].sort(
    (a, b) =>
      a.vmId.localeCompare(b.vmId) ||
      a.metric.localeCompare(b.metric) ||
      a.resolutionSeconds - b.resolutionSeconds ||
      a.bucketMs - b.bucketMs,
  );
  for (const part of chunks(rollups)) {
    await sql`
      INSERT INTO vm_metric_rollups AS r (vm_id, metric, resolution_seconds, bucket, sum, count, max)
      SELECT * FROM unnest(${part.map((r) => r.vmId)}::uuid[], ${part.map((r) => r.metric)}::text[],
        ${part.map((r) => r.resolutionSeconds)}::integer[], ${isoTimes(part.map((r) => r.bucketMs))}::timestamptz[],
        ${part.map((r) => r.sum)}::double precision[], ${part.map((r) => r.count)}::integer[],
        ${part.map((r) => r.max)}::double precision[])
      ON CONFLICT (vm_id, metric, resolution_seconds, bucket) DO UPDATE SET
        sum = r.sum + excluded.sum, count = r.count + excluded.count, max = greatest(r.max, excluded.max)`.execute(
      tx,
    );
  }
  const traffic = [...plan.bandwidth].sort(
    (a, b) => a.vmId.localeCompare(b.vmId) || a.hourMs - b.hourMs || a.direction.localeCompare(b.direction),
  );
  for (const part of chunks(traffic)) {
    await sql`
      INSERT INTO vm_bandwidth_usage AS u (vm_id, hour, direction, bytes)
      SELECT * FROM unnest(${part.map((b) => b.vmId)}::uuid[], ${isoTimes(part.map((b) => b.hourMs))}::timestamptz[],
        ${part.map((b) => b.direction)}::text[], ${part.map((b) => Math.round(b.bytes))}::bigint[])
      ON CONFLICT (vm_id, hour, direction) DO UPDATE SET bytes = u.bytes + excluded.bytes`.execute(tx);
  }
  const powers = [...plan.powerStates].sort(([a], [b]) => a.localeCompare(b));
  for (const part of chunks(powers)) {
    // A report older than the one stored changes nothing.
    await sql`
      UPDATE virtual_machines v
      SET reported_power_state = p.state, reported_power_state_at = p.at
      FROM unnest(${part.map(([id]) => id)}::uuid[], ${part.map(([, p]) => (p.running ? 'Running' : 'Stopped'))}::text[],
        ${isoTimes(part.map(([, p]) => p.atMs))}::timestamptz[]) AS p (id, state, at)
      WHERE v.id = p.id AND (v.reported_power_state_at IS NULL OR v.reported_power_state_at < p.at)`.execute(
      tx,
    );
  }
  const cursors = [...plan.cursors].sort(
    (a, b) => a.vmId.localeCompare(b.vmId) || a.metric.localeCompare(b.metric),
  );
  for (const part of chunks(cursors)) {
    await sql`
      INSERT INTO vm_metric_cursors AS c (vm_id, metric, sampled_at, value)
      SELECT * FROM unnest(${part.map((c) => c.vmId)}::uuid[], ${part.map((c) => c.metric)}::text[],
        ${isoTimes(part.map((c) => c.sampledAtMs))}::timestamptz[], ${part.map((c) => c.value)}::double precision[])
      ON CONFLICT (vm_id, metric) DO UPDATE SET sampled_at = excluded.sampled_at, value = excluded.value`.execute(
      tx,
    );
  }
}

/** The reported keys over what was stored; storage pools merge by id. */
function mergeInventory(
  stored: Record<string, unknown>,
  reported: NodeFacts,
  now: Date,
): Record<string, unknown> {
  const { storagePools, ...gauges } = reported;
  const pools = new Map(storedInventory.parse(stored).storagePools.map((p) => [p.storageId, p]));
  for (const [storageId, pool] of storagePools) {
    const known = pools.get(storageId) ?? { storageId, totalBytes: 0, allocatedBytes: 0 };
    pools.set(storageId, {
      storageId,
      totalBytes: pool.totalBytes ?? known.totalBytes,
      allocatedBytes: pool.allocatedBytes ?? known.allocatedBytes,
    });
  }
  return {
    ...stored,
    // Only the keys the request reported are present.
    ...gauges,
    storagePools: [...pools.values()].sort((a, b) => a.storageId.localeCompare(b.storageId)),
    syncedAt: now.toISOString(),
  };
}

const CAPACITY_KEYS = ['cpuCores', 'memoryBytes', 'nonNrCpuCores', 'nonNrMemoryBytes', 'nonNrDiskBytes'];

/** Whether placement or preflight would read the node differently (usage gauges alone do not count). */
function capacityChanged(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  if (CAPACITY_KEYS.some((k) => before[k] !== after[k])) return true;
  // A pool's use moves with every scrape; a change of a whole GiB is what headroom checks could notice.
  const pools = (v: Record<string, unknown>) =>
    JSON.stringify(
      storedInventory
        .parse(v)
        .storagePools.map((p) => [p.storageId, p.totalBytes, Math.round(p.allocatedBytes / GIB)]),
    );
  return pools(before) !== pools(after);
}
