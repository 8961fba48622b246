import { FailedPreconditionError } from '@noderings/domain';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { regionExists } from './region.errors.js';

export interface RegionRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly cityId: string;
  readonly datacenterId: string;
  readonly createdAt: Date;
}

export interface RegionFilter {
  /** Regions in one of these cities or datacenters (a search resolved against the catalogue). */
  readonly matching?: { readonly cityIds: readonly string[]; readonly datacenterIds: readonly string[] };
  readonly platformId?: string;
}

interface RegionRow {
  id: string;
  organization_id: string;
  city_id: string;
  datacenter_id: string;
  created_at: Date;
}

function toRecord(r: RegionRow): RegionRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    cityId: r.city_id,
    datacenterId: r.datacenter_id,
    createdAt: r.created_at,
  };
}

/** Every query is scoped to one organisation: another tenant's region is simply not found. */
export class RegionRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, filter: RegionFilter, page: Page): Promise<PageResult<RegionRecord>> {
    let base = this.db.selectFrom('regions').where('organization_id', '=', organizationId);
    const { matching, platformId } = filter;
    if (matching !== undefined) {
      base = base.where((eb) =>
        eb.or([
          ...(matching.cityIds.length > 0 ? [eb('city_id', 'in', matching.cityIds)] : []),
          ...(matching.datacenterIds.length > 0 ? [eb('datacenter_id', 'in', matching.datacenterIds)] : []),
          eb.lit(false),
        ]),
      );
    }
    if (platformId !== undefined) {
      base = base.where((eb) =>
        eb.exists(
          eb
            .selectFrom('nodes')
            .select('nodes.id')
            .whereRef('nodes.region_id', '=', 'regions.id')
            .where('nodes.platform_id', '=', platformId),
        ),
      );
    }
    return listPage(base.selectAll().orderBy('created_at').orderBy('id'), page, (rows) => rows.map(toRecord));
  }

  async findById(organizationId: string, id: string): Promise<RegionRecord | undefined> {
    const row = await this.db
      .selectFrom('regions')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(input: {
    organizationId: string;
    cityId: string;
    datacenterId: string;
  }): Promise<RegionRecord> {
    const row = await translateViolations(
      this.db
        .insertInto('regions')
        .values({
          organization_id: input.organizationId,
          city_id: input.cityId,
          datacenter_id: input.datacenterId,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      { unique: () => regionExists(input.cityId, input.datacenterId) },
    );
    return toRecord(row);
  }

  /** False when the region does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .deleteFrom('regions')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      { foreignKey: () => new FailedPreconditionError('The region is still in use.') },
    );
    return result.numDeletedRows > 0n;
  }

  async isInUse(id: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('nodes')
      .select('id')
      .where('region_id', '=', id)
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }
}
