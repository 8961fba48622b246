import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { claimTemplateVariableKey, keyTakenError, type TemplateVariableKind } from '../secrets/index.js';

export interface EnvironmentVariableRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly key: string;
  readonly value: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

interface EnvironmentVariableRow {
  id: string;
  organization_id: string;
  key: string;
  value: string;
  created_at: Date;
  updated_at: Date;
}

function toRecord(r: EnvironmentVariableRow): EnvironmentVariableRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    key: r.key,
    value: r.value,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Byte order, the same whatever the database's locale (which may sort '_' as if it were absent). */
const KEY_ORDER = sql`key COLLATE "C"`;

/** Every query is scoped to one organisation: another tenant's variable is simply not found. */
export class EnvironmentVariableRepository {
  constructor(private readonly db: Db) {}

  async list(
    organizationId: string,
    filter: { keyContains?: string | undefined },
    page: Page,
  ): Promise<PageResult<EnvironmentVariableRecord>> {
    let base = this.db.selectFrom('environment_variables').where('organization_id', '=', organizationId);
    const { keyContains } = filter;
    // strpos rather than LIKE: keys are full of '_', which LIKE would read as a wildcard.
    if (keyContains !== undefined) base = base.where(sql<boolean>`strpos(key, ${keyContains}) > 0`);
    return listPage(base.selectAll().orderBy(KEY_ORDER), page, (rows) => rows.map(toRecord));
  }

  async listAll(organizationId: string): Promise<EnvironmentVariableRecord[]> {
    const rows = await this.db
      .selectFrom('environment_variables')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .orderBy(KEY_ORDER)
      .execute();
    return rows.map(toRecord);
  }

  async findById(organizationId: string, id: string): Promise<EnvironmentVariableRecord | undefined> {
    const row = await this.db
      .selectFrom('environment_variables')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Inserts the variable unless its key is already a secret or an environment variable of the organisation. */
  async insert(input: {
    organizationId: string;
    key: string;
    value: string;
    now: Date;
  }): Promise<{ inserted: EnvironmentVariableRecord } | { takenBy: TemplateVariableKind }> {
    return translateViolations(
      this.db.transaction().execute(async (tx) => {
        const takenBy = await claimTemplateVariableKey(tx, input.organizationId, input.key);
        if (takenBy !== undefined) return { takenBy };
        const row = await tx
          .insertInto('environment_variables')
          .values({
            organization_id: input.organizationId,
            key: input.key,
            value: input.value,
            created_at: input.now,
            updated_at: input.now,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        return { inserted: toRecord(row) };
      }),
      { unique: () => keyTakenError(input.key, 'environmentVariable', 'environmentVariable') },
    );
  }

  async updateValue(input: {
    organizationId: string;
    id: string;
    value: string;
    now: Date;
  }): Promise<EnvironmentVariableRecord | undefined> {
    const row = await this.db
      .updateTable('environment_variables')
      .set({ value: input.value, updated_at: input.now })
      .where('organization_id', '=', input.organizationId)
      .where('id', '=', input.id)
      .returningAll()
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** False when the variable does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('environment_variables')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
