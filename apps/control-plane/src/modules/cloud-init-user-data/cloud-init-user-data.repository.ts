import { sql, type Selectable } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { duplicateCloudInitUserDataName } from './cloud-init-user-data.errors.js';

/** A customer's saved user data, offered when ordering a VM. */
export interface CloudInitUserData {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly userData: string;
  readonly description: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export type CloudInitUserDataFields = Pick<CloudInitUserData, 'name' | 'userData' | 'description'>;

function toRecord(r: Selectable<Database['cloud_init_user_data']>): CloudInitUserData {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    userData: r.user_data,
    description: r.description,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Every query is scoped to one organisation: another tenant's profile is simply not found. */
export class CloudInitUserDataRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, page: Page): Promise<PageResult<CloudInitUserData>> {
    const base = this.db.selectFrom('cloud_init_user_data').where('organization_id', '=', organizationId);
    return listPage(
      base
        .selectAll()
        .orderBy(sql`name COLLATE "C"`)
        .orderBy('id'),
      page,
      (rows) => rows.map(toRecord),
    );
  }

  async findById(organizationId: string, id: string): Promise<CloudInitUserData | undefined> {
    const row = await this.db
      .selectFrom('cloud_init_user_data')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(
    organizationId: string,
    fields: CloudInitUserDataFields,
    now: Date,
  ): Promise<CloudInitUserData> {
    const row = await translateViolations(
      this.db
        .insertInto('cloud_init_user_data')
        .values({
          organization_id: organizationId,
          name: fields.name,
          user_data: fields.userData,
          description: fields.description,
          created_at: now,
          updated_at: now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      { unique: () => duplicateCloudInitUserDataName(fields.name) },
    );
    return toRecord(row);
  }

  /** Writes the fields given; undefined when the profile does not exist in this organisation. */
  async update(
    organizationId: string,
    id: string,
    changes: Partial<CloudInitUserDataFields>,
    now: Date,
  ): Promise<CloudInitUserData | undefined> {
    const { name } = changes;
    const row = await translateViolations(
      this.db
        .updateTable('cloud_init_user_data')
        .set({
          ...(name !== undefined && { name }),
          ...(changes.userData !== undefined && { user_data: changes.userData }),
          ...(changes.description !== undefined && { description: changes.description }),
          updated_at: now,
        })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirst(),
      { unique: name === undefined ? undefined : () => duplicateCloudInitUserDataName(name) },
    );
    return row && toRecord(row);
  }

  /** False when the profile does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('cloud_init_user_data')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
