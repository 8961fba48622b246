import { sql, type Selectable } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';
import {
  cloudInitTemplateStillLinked,
  duplicateCloudInitTemplateName,
} from './cloud-init-template.errors.js';

export interface CloudInitTemplateRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly userData: string;
  readonly vendorData: string;
  readonly networkData: string;
  readonly storage: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type CloudInitTemplateFields = Pick<
  CloudInitTemplateRecord,
  'name' | 'userData' | 'vendorData' | 'networkData' | 'storage'
>;

function toRecord(r: Selectable<Database['cloud_init_templates']>): CloudInitTemplateRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    userData: r.user_data,
    vendorData: r.vendor_data,
    networkData: r.network_data,
    storage: r.storage,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

function toColumns(f: CloudInitTemplateFields) {
  return {
    name: f.name,
    user_data: f.userData,
    vendor_data: f.vendorData,
    network_data: f.networkData,
    storage: f.storage,
  };
}

/** Every query is scoped to one organisation: another tenant's template is simply not found. */
export class CloudInitTemplateRepository {
  constructor(private readonly db: Db) {}

  async count(organizationId: string): Promise<number> {
    const row = await this.db
      .selectFrom('cloud_init_templates')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('organization_id', '=', organizationId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** Rows `offset` to `offset + limit`, by name. */
  async list(organizationId: string, offset: number, limit: number): Promise<CloudInitTemplateRecord[]> {
    if (limit <= 0) return [];
    const rows = await this.db
      .selectFrom('cloud_init_templates')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy(sql`name COLLATE "C"`)
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
    return rows.map(toRecord);
  }

  async findById(organizationId: string, id: string): Promise<CloudInitTemplateRecord | undefined> {
    const row = await this.db
      .selectFrom('cloud_init_templates')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(
    organizationId: string,
    fields: CloudInitTemplateFields,
    now: Date,
  ): Promise<CloudInitTemplateRecord> {
    const row = await translateViolations(
      this.db
        .insertInto('cloud_init_templates')
        .values({ ...toColumns(fields), organization_id: organizationId, created_at: now, updated_at: now })
        .returningAll()
        .executeTakeFirstOrThrow(),
      { unique: () => duplicateCloudInitTemplateName(fields.name) },
    );
    return toRecord(row);
  }

  /**
   * Reads the template under a row lock, asks `decide` for its next fields (it may throw to refuse them),
   * and writes them. Undefined when the template does not exist in this organisation.
   */
  async update(
    organizationId: string,
    id: string,
    decide: (current: CloudInitTemplateRecord) => CloudInitTemplateFields,
    now: Date,
  ): Promise<CloudInitTemplateRecord | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const row = await tx
        .selectFrom('cloud_init_templates')
        .selectAll()
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .forUpdate()
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const fields = decide(toRecord(row));
      const updated = await translateViolations(
        tx
          .updateTable('cloud_init_templates')
          .set({ ...toColumns(fields), updated_at: now })
          .where('id', '=', id)
          .returningAll()
          .executeTakeFirstOrThrow(),
        { unique: () => duplicateCloudInitTemplateName(fields.name) },
      );
      return toRecord(updated);
    });
  }

  /** False when the template does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await translateViolations(
      this.db
        .deleteFrom('cloud_init_templates')
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .executeTakeFirst(),
      {
        // A VM template linked since the caller looked.
        foreignKey: async () => cloudInitTemplateStillLinked(await this.linkedVmTemplateNames(id)),
      },
    );
    return result.numDeletedRows > 0n;
  }

  /** The names of the VM templates that use the template, so a refused delete can say which. */
  async linkedVmTemplateNames(id: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('vm_templates')
      .select('name')
      .where('cloud_init_template_id', '=', id)
      .orderBy('name')
      .execute();
    return rows.map((r) => r.name);
  }
}
