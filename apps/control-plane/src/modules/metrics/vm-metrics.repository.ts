import type { BillingPeriod } from '@noderings/domain';
import { sql } from 'kysely';

import type { Db } from '../../db/database.js';

/** A VM as its customer's charts and traffic view need it. */
export interface MeteredVm {
  readonly id: string;
  readonly createdAt: Date;
  readonly bandwidthAllowanceGb: number;
  readonly bandwidthPeriod: BillingPeriod;
}

export interface RollupPoint {
  readonly metric: string;
  readonly bucket: Date;
  readonly sum: number;
  readonly count: number;
  readonly max: number;
}

/** Reads of what metrics ingest keeps per VM: chart rollups and traffic. */
export class VmMetricsRepository {
  constructor(private readonly db: Db) {}

  /** The customer's VM (deleted ones included: their traffic is still billed), or undefined. */
  async meteredVm(clientOrganizationId: string, id: string): Promise<MeteredVm | undefined> {
    const row = await this.db
      .selectFrom('virtual_machines as v')
      .innerJoin('plans as p', 'p.id', 'v.plan_id')
      .select(['v.id', 'v.created_at', 'p.bandwidth_allowance_gb', 'p.bandwidth_period'])
      .where('v.id', '=', id)
      .where('v.client_organization_id', '=', clientOrganizationId)
      .executeTakeFirst();
    return (
      row && {
        id: row.id,
        createdAt: row.created_at,
        bandwidthAllowanceGb: row.bandwidth_allowance_gb,
        // The plans table's CHECK admits only the catalogue's periods.
        bandwidthPeriod: row.bandwidth_period as BillingPeriod,
      }
    );
  }

  async rollups(
    vmId: string,
    metrics: readonly string[],
    resolutionSeconds: number,
    from: Date,
    to: Date,
  ): Promise<RollupPoint[]> {
    const rows = await this.db
      .selectFrom('vm_metric_rollups')
      .select(['metric', 'bucket', 'sum', 'count', 'max'])
      .where('vm_id', '=', vmId)
      .where('metric', 'in', metrics)
      .where('resolution_seconds', '=', resolutionSeconds)
      .where('bucket', '>=', from)
      .where('bucket', '<', to)
      .orderBy('bucket')
      .execute();
    return rows;
  }

  /** Bytes per direction from `start` (included) to `end` (excluded), for each of `periods`. */
  async traffic(
    vmId: string,
    periods: readonly { start: Date; end: Date }[],
  ): Promise<{ egressBytes: number; ingressBytes: number }[]> {
    if (periods.length === 0) return [];
    const rows = await sql<{ i: number; direction: string; bytes: string | number }>`
      SELECT p.i, u.direction, sum(u.bytes) AS bytes
      FROM (VALUES ${sql.join(periods.map((p, i) => sql`(${i}::integer, ${p.start}::timestamptz, ${p.end}::timestamptz)`))})
        AS p (i, start_at, end_at)
      JOIN vm_bandwidth_usage u ON u.vm_id = ${vmId} AND u.hour >= p.start_at AND u.hour < p.end_at
      GROUP BY p.i, u.direction`.execute(this.db);
    const out = periods.map(() => ({ egressBytes: 0, ingressBytes: 0 }));
    for (const r of rows.rows) {
      const period = out[r.i];
      if (period === undefined) continue;
      if (r.direction === 'egress') period.egressBytes = Number(r.bytes);
      else period.ingressBytes = Number(r.bytes);
    }
    return out;
  }
}
