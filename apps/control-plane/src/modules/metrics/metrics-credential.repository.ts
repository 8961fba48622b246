import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import type { Page, PageResult } from '../../http/pagination.js';

export interface MetricsCredentialRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly agentId: string;
  readonly name: string;
  readonly lastUsedAt: Date | null;
  readonly rotatedAt: Date | null;
  /** Until when the token replaced by the last rotation still works; null when it does not. */
  readonly previousValidUntil: Date | null;
  readonly revokedAt: Date | null;
  readonly createdAt: Date;
}

/** Who a presented token writes for. */
export interface MetricsWriter {
  readonly credentialId: string;
  readonly organizationId: string;
  readonly agentId: string;
  readonly lastUsedAt: Date | null;
}

const COLUMNS = [
  'id',
  'organization_id',
  'agent_id',
  'name',
  'last_used_at',
  'rotated_at',
  'previous_valid_until',
  'revoked_at',
  'created_at',
] as const;

function toRecord(r: {
  id: string;
  organization_id: string;
  agent_id: string;
  name: string;
  last_used_at: Date | null;
  rotated_at: Date | null;
  previous_valid_until: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}): MetricsCredentialRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    agentId: r.agent_id,
    name: r.name,
    lastUsedAt: r.last_used_at,
    rotatedAt: r.rotated_at,
    previousValidUntil: r.previous_valid_until,
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
  };
}

export class MetricsCredentialRepository {
  constructor(private readonly db: Db) {}

  /** Creates the credential if `agentId` is an agent of the organisation; undefined otherwise. */
  async create(input: {
    organizationId: string;
    agentId: string;
    name: string;
    tokenHash: Buffer;
  }): Promise<MetricsCredentialRecord | undefined> {
    const row = await this.db
      .insertInto('metrics_write_credentials')
      .columns(['organization_id', 'agent_id', 'name', 'token_hash'])
      .expression((eb) =>
        eb
          .selectFrom('agents')
          .select([
            'organization_id',
            'id',
            eb.val(input.name).as('name'),
            eb.val<Uint8Array>(input.tokenHash).as('token_hash'),
          ])
          .where('id', '=', input.agentId)
          .where('organization_id', '=', input.organizationId),
      )
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async get(organizationId: string, id: string): Promise<MetricsCredentialRecord | undefined> {
    const row = await this.db
      .selectFrom('metrics_write_credentials')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async list(
    organizationId: string,
    filter: { agentId?: string | undefined; includeRevoked: boolean },
    page: Page,
  ): Promise<PageResult<MetricsCredentialRecord>> {
    let query = this.db
      .selectFrom('metrics_write_credentials')
      .select(COLUMNS)
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id');
    if (filter.agentId !== undefined) query = query.where('agent_id', '=', filter.agentId);
    if (!filter.includeRevoked) query = query.where('revoked_at', 'is', null);
    return listPage(query, page, (rows) => rows.map(toRecord));
  }

  /** Replaces the token of a live credential; the old one works until `previousValidUntil` (or not at all). */
  async rotate(
    organizationId: string,
    id: string,
    tokenHash: Buffer,
    now: Date,
    previousValidUntil: Date | null,
  ): Promise<MetricsCredentialRecord | undefined> {
    const row = await this.db
      .updateTable('metrics_write_credentials')
      .set((eb) => ({
        previous_token_hash: previousValidUntil === null ? null : eb.ref('token_hash'),
        previous_valid_until: previousValidUntil,
        token_hash: tokenHash,
        rotated_at: now,
      }))
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .returning(COLUMNS)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  /** Revokes at once, the previous token of a rotation included. False when there is no live credential. */
  async revoke(organizationId: string, id: string, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('metrics_write_credentials')
      .set({ revoked_at: now, previous_token_hash: null, previous_valid_until: null })
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The live credential a token belongs to: its current token, or its previous one within the grace. */
  async findWriter(tokenHash: Buffer, now: Date): Promise<MetricsWriter | undefined> {
    const row = await this.db
      .selectFrom('metrics_write_credentials')
      .select(['id', 'organization_id', 'agent_id', 'last_used_at'])
      .where('revoked_at', 'is', null)
      .where((eb) =>
        eb.or([
          eb('token_hash', '=', tokenHash),
          eb.and([eb('previous_token_hash', '=', tokenHash), eb('previous_valid_until', '>', now)]),
        ]),
      )
      .executeTakeFirst();
    return (
      row && {
        credentialId: row.id,
        organizationId: row.organization_id,
        agentId: row.agent_id,
        lastUsedAt: row.last_used_at,
      }
    );
  }

  async touch(id: string, now: Date): Promise<void> {
    await this.db
      .updateTable('metrics_write_credentials')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .execute();
  }
}
