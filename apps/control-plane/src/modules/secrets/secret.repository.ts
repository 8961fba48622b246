import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { claimTemplateVariableKey, keyTakenError, type TemplateVariableKind } from './template-variable.js';

/** A secret without its value: the ciphertext is read only by `listSealed`, for the service to open. */
export interface SecretRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly key: string;
  readonly createdBy: string | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

export interface SealedSecret {
  readonly key: string;
  readonly ciphertext: string;
}

const RECORD_COLUMNS = ['id', 'organization_id', 'key', 'created_by', 'created_at', 'updated_at'] as const;

interface SecretRow {
  id: string;
  organization_id: string;
  key: string;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

function toRecord(r: SecretRow): SecretRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    key: r.key,
    createdBy: r.created_by,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** Byte order, the same whatever the database's locale (which may sort '_' as if it were absent). */
const KEY_ORDER = sql`key COLLATE "C"`;

/** Every query is scoped to one organisation: another tenant's secret is simply not found. */
export class SecretRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, page: Page): Promise<PageResult<SecretRecord>> {
    const base = this.db.selectFrom('secrets').where('organization_id', '=', organizationId);
    return listPage(base.select(RECORD_COLUMNS).orderBy(KEY_ORDER), page, (rows) => rows.map(toRecord));
  }

  async findById(organizationId: string, id: string): Promise<SecretRecord | undefined> {
    const row = await this.db
      .selectFrom('secrets')
      .select(RECORD_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Inserts the secret unless its key is already a secret or an environment variable of the organisation. */
  async insert(input: {
    organizationId: string;
    key: string;
    ciphertext: string;
    createdBy: string | null;
    now: Date;
  }): Promise<{ inserted: SecretRecord } | { takenBy: TemplateVariableKind }> {
    return translateViolations(
      this.db.transaction().execute(async (tx) => {
        const takenBy = await claimTemplateVariableKey(tx, input.organizationId, input.key);
        if (takenBy !== undefined) return { takenBy };
        const row = await tx
          .insertInto('secrets')
          .values({
            organization_id: input.organizationId,
            key: input.key,
            ciphertext: input.ciphertext,
            created_by: input.createdBy,
            created_at: input.now,
            updated_at: input.now,
          })
          .returning(RECORD_COLUMNS)
          .executeTakeFirstOrThrow();
        return { inserted: toRecord(row) };
      }),
      { unique: () => keyTakenError(input.key, 'secret', 'secret') },
    );
  }

  async updateCiphertext(input: {
    organizationId: string;
    id: string;
    ciphertext: string;
    now: Date;
  }): Promise<SecretRecord | undefined> {
    const row = await this.db
      .updateTable('secrets')
      .set({ ciphertext: input.ciphertext, updated_at: input.now })
      .where('organization_id', '=', input.organizationId)
      .where('id', '=', input.id)
      .returning(RECORD_COLUMNS)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** False when the secret does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('secrets')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }

  async listSealed(organizationId: string): Promise<SealedSecret[]> {
    return this.db
      .selectFrom('secrets')
      .select(['key', 'ciphertext'])
      .where('organization_id', '=', organizationId)
      .orderBy(KEY_ORDER)
      .execute();
  }
}
