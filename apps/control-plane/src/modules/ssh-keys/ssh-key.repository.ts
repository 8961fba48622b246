import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { duplicateSshKey } from './ssh-key.errors.js';
import type { SshKeyType } from './ssh-public-key.js';

export interface SshKeyRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly publicKey: string;
  readonly keyType: SshKeyType;
  readonly fingerprint: string;
  readonly createdAt: Date;
}

interface SshKeyRow {
  id: string;
  organization_id: string;
  name: string;
  public_key: string;
  key_type: string;
  fingerprint: string;
  created_at: Date;
}

function toRecord(r: SshKeyRow): SshKeyRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    publicKey: r.public_key,
    // Only parseSshPublicKey's types are ever written.
    keyType: r.key_type as SshKeyType,
    fingerprint: r.fingerprint,
    createdAt: r.created_at,
  };
}

/** Every query is scoped to one organisation: another tenant's key is simply not found. */
export class SshKeyRepository {
  constructor(private readonly db: Db) {}

  async list(organizationId: string, page: Page): Promise<PageResult<SshKeyRecord>> {
    const base = this.db.selectFrom('ssh_keys').where('organization_id', '=', organizationId);
    return listPage(base.selectAll().orderBy('created_at').orderBy('id'), page, (rows) => rows.map(toRecord));
  }

  async findById(organizationId: string, id: string): Promise<SshKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('ssh_keys')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async findByFingerprint(organizationId: string, fingerprint: string): Promise<SshKeyRecord | undefined> {
    const row = await this.db
      .selectFrom('ssh_keys')
      .selectAll()
      .where('organization_id', '=', organizationId)
      .where('fingerprint', '=', fingerprint)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(input: {
    organizationId: string;
    name: string;
    publicKey: string;
    keyType: SshKeyType;
    fingerprint: string;
    now: Date;
  }): Promise<SshKeyRecord> {
    const row = await translateViolations(
      this.db
        .insertInto('ssh_keys')
        .values({
          organization_id: input.organizationId,
          name: input.name,
          public_key: input.publicKey,
          key_type: input.keyType,
          fingerprint: input.fingerprint,
          created_at: input.now,
        })
        .returningAll()
        .executeTakeFirstOrThrow(),
      // Another request added the same key since the caller looked.
      { unique: () => duplicateSshKey(input.fingerprint, undefined) },
    );
    return toRecord(row);
  }

  /** False when the key does not exist in this organisation. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('ssh_keys')
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return result.numDeletedRows > 0n;
  }
}
