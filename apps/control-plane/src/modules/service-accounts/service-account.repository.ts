import type { ExpressionBuilder } from 'kysely';

import type { Db } from '../../db/database.js';
import type { Database, MemberRole } from '../../db/schema.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { serviceAccountNameTaken } from './service-account.errors.js';

/** Service accounts act as an admin or a member of their organisation, never as its owner. */
export type ServiceAccountRole = Exclude<MemberRole, 'owner'>;

export interface ServiceAccountRecord {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly description: string;
  readonly role: ServiceAccountRole;
  readonly isActive: boolean;
  readonly allowedIps: readonly string[];
  readonly lastUsedAt: Date | null;
  /** Tokens neither revoked nor expired. */
  readonly activeTokenCount: number;
  readonly createdAt: Date;
}

export interface ServiceAccountTokenRecord {
  readonly id: string;
  readonly name: string;
  readonly expiresAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
  readonly createdAt: Date;
}

export interface ServiceAccountChanges {
  readonly name?: string | undefined;
  readonly description?: string | undefined;
  readonly isActive?: boolean | undefined;
  readonly allowedIps?: readonly string[] | undefined;
  readonly role?: ServiceAccountRole | undefined;
}

interface ServiceAccountRow {
  id: string;
  organization_id: string;
  name: string;
  description: string;
  role: MemberRole;
  is_active: boolean;
  allowed_ips: string[];
  last_used_at: Date | null;
  created_at: Date;
  active_token_count: string | null;
}

function toRecord(r: ServiceAccountRow): ServiceAccountRecord {
  return {
    id: r.id,
    organizationId: r.organization_id,
    name: r.name,
    description: r.description,
    // The table's CHECK admits only 'admin' and 'member'.
    role: r.role as ServiceAccountRole,
    isActive: r.is_active,
    allowedIps: r.allowed_ips,
    lastUsedAt: r.last_used_at,
    activeTokenCount: Number(r.active_token_count ?? 0),
    createdAt: r.created_at,
  };
}

interface TokenRow {
  id: string;
  name: string | null;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

function toTokenRecord(r: TokenRow): ServiceAccountTokenRecord {
  return {
    id: r.id,
    name: r.name ?? '',
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
  };
}

const ACCOUNT_COLUMNS = [
  'id',
  'organization_id',
  'name',
  'description',
  'role',
  'is_active',
  'allowed_ips',
  'last_used_at',
  'created_at',
] as const;

const TOKEN_COLUMNS = ['id', 'name', 'expires_at', 'last_used_at', 'revoked_at', 'created_at'] as const;

/**
 * Every query is scoped to one organisation and ignores deleted accounts: another tenant's account, or a
 * deleted one, is simply not found.
 */
export class ServiceAccountRepository {
  constructor(private readonly db: Db) {}

  async list(
    organizationId: string,
    filter: { includeInactive: boolean },
    page: Page,
    now: Date,
  ): Promise<PageResult<ServiceAccountRecord>> {
    let base = this.#live(organizationId);
    if (!filter.includeInactive) base = base.where('is_active', '=', true);
    return listPage(
      base
        .select(ACCOUNT_COLUMNS)
        .select((eb) => activeTokenCount(eb, now))
        .orderBy('created_at')
        .orderBy('id'),
      page,
      (rows) => rows.map(toRecord),
    );
  }

  async findById(organizationId: string, id: string, now: Date): Promise<ServiceAccountRecord | undefined> {
    const row = await this.#live(organizationId)
      .select(ACCOUNT_COLUMNS)
      .select((eb) => activeTokenCount(eb, now))
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRecord(row);
  }

  async insert(input: {
    organizationId: string;
    name: string;
    description: string;
    role: ServiceAccountRole;
    allowedIps: readonly string[];
    now: Date;
  }): Promise<ServiceAccountRecord> {
    const row = await translateViolations(
      this.db
        .insertInto('service_accounts')
        .values({
          organization_id: input.organizationId,
          name: input.name,
          description: input.description,
          role: input.role,
          allowed_ips: [...input.allowedIps],
          created_at: input.now,
        })
        .returning(ACCOUNT_COLUMNS)
        .executeTakeFirstOrThrow(),
      { unique: () => serviceAccountNameTaken(input.name) },
    );
    return toRecord({ ...row, active_token_count: null });
  }

  /** False when the account does not exist (or is deleted) in this organisation. */
  async update(organizationId: string, id: string, changes: ServiceAccountChanges): Promise<boolean> {
    const { name } = changes;
    const set = {
      ...(name !== undefined && { name }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.isActive !== undefined && { is_active: changes.isActive }),
      ...(changes.allowedIps !== undefined && { allowed_ips: [...changes.allowedIps] }),
      ...(changes.role !== undefined && { role: changes.role }),
    };
    if (Object.keys(set).length === 0)
      return (
        (await this.#live(organizationId).select('id').where('id', '=', id).executeTakeFirst()) !== undefined
      );
    const result = await translateViolations(
      this.db
        .updateTable('service_accounts')
        .set(set)
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst(),
      { unique: name === undefined ? undefined : () => serviceAccountNameTaken(name) },
    );
    return result.numUpdatedRows > 0n;
  }

  /** Marks the account deleted and revokes its tokens, together; false when there was no such account. */
  async softDelete(organizationId: string, id: string, now: Date): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const result = await tx
        .updateTable('service_accounts')
        .set({ deleted_at: now })
        .where('organization_id', '=', organizationId)
        .where('id', '=', id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (result.numUpdatedRows === 0n) return false;
      await tx
        .updateTable('access_tokens')
        .set({ revoked_at: now })
        .where('service_account_id', '=', id)
        .where('revoked_at', 'is', null)
        .execute();
      return true;
    });
  }

  async listTokens(
    organizationId: string,
    serviceAccountId: string,
    page: Page,
  ): Promise<PageResult<ServiceAccountTokenRecord>> {
    const base = this.db
      .selectFrom('access_tokens')
      .where('kind', '=', 'service_account')
      .where('organization_id', '=', organizationId)
      .where('service_account_id', '=', serviceAccountId);
    return listPage(base.select(TOKEN_COLUMNS).orderBy('created_at', 'desc').orderBy('id'), page, (rows) =>
      rows.map(toTokenRecord),
    );
  }

  async insertToken(input: {
    organizationId: string;
    serviceAccountId: string;
    name: string;
    tokenHash: Buffer;
    expiresAt: Date;
    now: Date;
  }): Promise<ServiceAccountTokenRecord> {
    const row = await this.db
      .insertInto('access_tokens')
      .values({
        kind: 'service_account',
        organization_id: input.organizationId,
        service_account_id: input.serviceAccountId,
        name: input.name,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
        created_at: input.now,
      })
      .returning(TOKEN_COLUMNS)
      .executeTakeFirstOrThrow();
    return toTokenRecord(row);
  }

  /**
   * Revokes a token of a live account of the organisation; revoking it again changes nothing. False when
   * there is no such token.
   */
  async revokeToken(organizationId: string, tokenId: string, now: Date): Promise<boolean> {
    const token = await this.db
      .selectFrom('access_tokens as t')
      .innerJoin('service_accounts as sa', 'sa.id', 't.service_account_id')
      .select('t.id')
      .where('t.kind', '=', 'service_account')
      .where('t.organization_id', '=', organizationId)
      .where('sa.organization_id', '=', organizationId)
      .where('sa.deleted_at', 'is', null)
      .where('t.id', '=', tokenId)
      .executeTakeFirst();
    if (token === undefined) return false;
    await this.db
      .updateTable('access_tokens')
      .set({ revoked_at: now })
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .execute();
    return true;
  }

  #live(organizationId: string) {
    return this.db
      .selectFrom('service_accounts')
      .where('organization_id', '=', organizationId)
      .where('deleted_at', 'is', null);
  }
}

function activeTokenCount(eb: ExpressionBuilder<Database, 'service_accounts'>, now: Date) {
  return eb
    .selectFrom('access_tokens as t')
    .select((sub) => sub.fn.countAll<string>().as('n'))
    .whereRef('t.service_account_id', '=', 'service_accounts.id')
    .where('t.revoked_at', 'is', null)
    .where('t.expires_at', '>', now)
    .as('active_token_count');
}
