import { AlreadyExistsError } from '@noderings/domain';

import type { Db } from '../../db/database.js';
import { listPage } from '../../db/list-page.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Page, PageResult } from '../../http/pagination.js';

export interface FleetEnvironment {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
}

/** An install token's metadata; the token itself exists only in the create call's answer. */
export interface FleetInstallToken {
  readonly id: string;
  readonly environmentId: string;
  readonly description: string;
  readonly expiresAt: Date;
  readonly lastUsedAt: Date | null;
  readonly revokedAt: Date | null;
  readonly createdAt: Date;
}

/** Where a live install token enrolls agents. */
export interface InstallTokenGrant {
  readonly tokenId: string;
  readonly organizationId: string;
  readonly environmentId: string;
  readonly lastUsedAt: Date | null;
}

const ENVIRONMENT_COLUMNS = ['id', 'name', 'created_at'] as const;
const TOKEN_COLUMNS = [
  'id',
  'environment_id',
  'description',
  'expires_at',
  'last_used_at',
  'revoked_at',
  'created_at',
] as const;

function toEnvironment(r: { id: string; name: string; created_at: Date }): FleetEnvironment {
  return { id: r.id, name: r.name, createdAt: r.created_at };
}

function toToken(r: {
  id: string;
  environment_id: string;
  description: string;
  expires_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}): FleetInstallToken {
  return {
    id: r.id,
    environmentId: r.environment_id,
    description: r.description,
    expiresAt: r.expires_at,
    lastUsedAt: r.last_used_at,
    revokedAt: r.revoked_at,
    createdAt: r.created_at,
  };
}

/** Fleet environments and their install tokens, always within one organisation. */
export class FleetEnvironmentRepository {
  constructor(private readonly db: Db) {}

  async create(organizationId: string, name: string, now: Date): Promise<FleetEnvironment> {
    const row = await translateViolations(
      this.db
        .insertInto('fleet_environments')
        .values({ organization_id: organizationId, name, created_at: now })
        .returning(ENVIRONMENT_COLUMNS)
        .executeTakeFirstOrThrow(),
      { unique: () => new AlreadyExistsError(`An environment named "${name}" already exists.`) },
    );
    return toEnvironment(row);
  }

  async get(organizationId: string, id: string): Promise<FleetEnvironment | undefined> {
    const row = await this.db
      .selectFrom('fleet_environments')
      .select(ENVIRONMENT_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toEnvironment(row);
  }

  list(organizationId: string, page: Page): Promise<PageResult<FleetEnvironment>> {
    const query = this.db
      .selectFrom('fleet_environments')
      .select(ENVIRONMENT_COLUMNS)
      .where('organization_id', '=', organizationId)
      .orderBy('created_at')
      .orderBy('id');
    return listPage(query, page, (rows) => rows.map(toEnvironment));
  }

  /** Undefined when the environment is not the organisation's. */
  async createInstallToken(input: {
    organizationId: string;
    environmentId: string;
    description: string;
    tokenHash: Buffer;
    expiresAt: Date;
    now: Date;
  }): Promise<FleetInstallToken | undefined> {
    const row = await this.db
      .insertInto('fleet_install_tokens')
      .columns(['organization_id', 'environment_id', 'description', 'token_hash', 'expires_at', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('fleet_environments')
          .select([
            'organization_id',
            'id',
            eb.val(input.description).as('description'),
            eb.val<Uint8Array>(input.tokenHash).as('token_hash'),
            eb.val(input.expiresAt).as('expires_at'),
            eb.val(input.now).as('created_at'),
          ])
          .where('id', '=', input.environmentId)
          .where('organization_id', '=', input.organizationId),
      )
      .returning(TOKEN_COLUMNS)
      .executeTakeFirst();
    return row && toToken(row);
  }

  listInstallTokens(
    organizationId: string,
    environmentId: string,
    page: Page,
  ): Promise<PageResult<FleetInstallToken>> {
    const query = this.db
      .selectFrom('fleet_install_tokens')
      .select(TOKEN_COLUMNS)
      .where('organization_id', '=', organizationId)
      .where('environment_id', '=', environmentId)
      .orderBy('created_at')
      .orderBy('id');
    return listPage(query, page, (rows) => rows.map(toToken));
  }

  /** False when there is no live token of that id in the environment. */
  async revokeInstallToken(
    organizationId: string,
    environmentId: string,
    tokenId: string,
    now: Date,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('fleet_install_tokens')
      .set({ revoked_at: now })
      .where('organization_id', '=', organizationId)
      .where('environment_id', '=', environmentId)
      .where('id', '=', tokenId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /** The live (unexpired, unrevoked) token with this hash. */
  async findInstallToken(tokenHash: Buffer, now: Date): Promise<InstallTokenGrant | undefined> {
    const row = await this.db
      .selectFrom('fleet_install_tokens')
      .select(['id', 'organization_id', 'environment_id', 'last_used_at'])
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return (
      row && {
        tokenId: row.id,
        organizationId: row.organization_id,
        environmentId: row.environment_id,
        lastUsedAt: row.last_used_at,
      }
    );
  }

  async touchInstallToken(id: string, now: Date): Promise<void> {
    await this.db
      .updateTable('fleet_install_tokens')
      .set({ last_used_at: now })
      .where('id', '=', id)
      .execute();
  }
}
