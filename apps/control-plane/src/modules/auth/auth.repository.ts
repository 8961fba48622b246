import { AlreadyExistsError } from '@noderings/domain';

import type { Db } from '../../db/database.js';
import type { MemberRole, OrganizationType, TokenKind } from '../../db/schema.js';
import { translateViolations } from '../../db/postgres-error.js';

export interface UserRecord {
  readonly id: string;
  readonly email: string;
  readonly passwordHash: string;
  readonly isStaff: boolean;
  readonly createdAt: Date;
}

/** A live token with what it stands for; service-account and agent tokens carry their organisation. */
export interface CredentialRecord {
  readonly tokenId: string;
  readonly kind: TokenKind;
  readonly lastUsedAt: Date | null;
  readonly userId: string | null;
  readonly isStaff: boolean;
  readonly serviceAccountId: string | null;
  readonly serviceAccountRole: MemberRole | null;
  readonly allowedIps: readonly string[];
  readonly agentId: string | null;
  readonly organizationId: string | null;
  readonly organizationType: OrganizationType | null;
  readonly organizationVerified: boolean;
  /** A session's membership in the requested organisation (or its oldest one); null when it has none. */
  readonly membership: {
    readonly organizationId: string;
    readonly role: MemberRole;
    readonly organizationType: OrganizationType;
    readonly organizationVerified: boolean;
  } | null;
}

export class AuthRepository {
  constructor(private readonly db: Db) {}

  async findUserByEmail(email: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
    return (
      row && {
        id: row.id,
        email: row.email,
        passwordHash: row.password_hash,
        isStaff: row.is_staff,
        createdAt: row.created_at,
      }
    );
  }

  async findUserById(id: string): Promise<UserRecord | undefined> {
    const row = await this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
    return (
      row && {
        id: row.id,
        email: row.email,
        passwordHash: row.password_hash,
        isStaff: row.is_staff,
        createdAt: row.created_at,
      }
    );
  }

  /**
   * The credential behind a token hash, when it is neither expired nor revoked and what it stands for is
   * still active (a deleted or deactivated service account's tokens stop working at once). For a session,
   * the membership in `organizationId` (or the oldest membership when undefined) comes in the same query:
   * one round trip authenticates and resolves the tenant of a request.
   */
  async findCredential(
    tokenHash: Uint8Array,
    now: Date,
    organizationId: string | undefined,
  ): Promise<CredentialRecord | undefined> {
    const row = await this.db
      .selectFrom('access_tokens as t')
      .leftJoin('users as u', 'u.id', 't.user_id')
      .leftJoin('service_accounts as sa', 'sa.id', 't.service_account_id')
      .leftJoin('organizations as o', 'o.id', 't.organization_id')
      .leftJoinLateral(
        (eb) =>
          eb
            .selectFrom('memberships as m')
            .innerJoin('organizations as mo', 'mo.id', 'm.organization_id')
            .select([
              'm.organization_id as memberOrganizationId',
              'm.role as memberRole',
              'mo.type as memberOrganizationType',
              'mo.is_verified as memberOrganizationVerified',
            ])
            .whereRef('m.user_id', '=', 't.user_id')
            .$if(organizationId !== undefined, (qb) =>
              qb.where('m.organization_id', '=', organizationId ?? ''),
            )
            .orderBy('m.created_at')
            .orderBy('m.organization_id')
            .limit(1)
            .as('mem'),
        (join) => join.onTrue(),
      )
      .select([
        'mem.memberOrganizationId',
        'mem.memberRole',
        'mem.memberOrganizationType',
        'mem.memberOrganizationVerified',
        't.id as tokenId',
        't.kind',
        't.last_used_at as lastUsedAt',
        't.user_id as userId',
        'u.is_staff as isStaff',
        't.service_account_id as serviceAccountId',
        'sa.role as serviceAccountRole',
        'sa.allowed_ips as allowedIps',
        'sa.is_active as serviceAccountActive',
        'sa.deleted_at as serviceAccountDeletedAt',
        't.agent_id as agentId',
        't.organization_id as organizationId',
        'o.type as organizationType',
        'o.is_verified as organizationVerified',
      ])
      .where('t.token_hash', '=', tokenHash)
      .where('t.revoked_at', 'is', null)
      .where('t.expires_at', '>', now)
      .executeTakeFirst();
    if (row === undefined) return undefined;
    if (
      row.kind === 'service_account' &&
      (row.serviceAccountActive !== true || row.serviceAccountDeletedAt !== null)
    ) {
      return undefined;
    }
    return {
      tokenId: row.tokenId,
      kind: row.kind,
      lastUsedAt: row.lastUsedAt,
      userId: row.userId,
      isStaff: row.isStaff ?? false,
      serviceAccountId: row.serviceAccountId,
      serviceAccountRole: row.serviceAccountRole,
      allowedIps: row.allowedIps ?? [],
      agentId: row.agentId,
      organizationId: row.organizationId,
      organizationType: row.organizationType,
      organizationVerified: row.organizationVerified ?? false,
      membership:
        row.memberOrganizationId === null || row.memberRole === null || row.memberOrganizationType === null
          ? null
          : {
              organizationId: row.memberOrganizationId,
              role: row.memberRole,
              organizationType: row.memberOrganizationType,
              organizationVerified: row.memberOrganizationVerified ?? false,
            },
    };
  }

  /** Records use at most once a minute per token, so reads do not turn into writes. */
  async touchCredential(tokenId: string, now: Date): Promise<void> {
    await this.db.updateTable('access_tokens').set({ last_used_at: now }).where('id', '=', tokenId).execute();
    await this.db
      .updateTable('service_accounts')
      .set({ last_used_at: now })
      .where('id', '=', (eb) =>
        eb.selectFrom('access_tokens').select('service_account_id').where('id', '=', tokenId),
      )
      .execute();
  }

  async insertSession(input: { userId: string; tokenHash: Buffer; expiresAt: Date }): Promise<void> {
    await this.db
      .insertInto('access_tokens')
      .values({
        kind: 'session',
        user_id: input.userId,
        token_hash: input.tokenHash,
        expires_at: input.expiresAt,
      })
      .execute();
  }

  async revokeToken(tokenId: string, now: Date): Promise<void> {
    await this.db.updateTable('access_tokens').set({ revoked_at: now }).where('id', '=', tokenId).execute();
  }

  /** Whether the account of `email` has signed in from `address` (an IPv4 address or IPv6 /64) since `since`. */
  async isKnownAddress(email: string, address: string, since: Date): Promise<boolean> {
    const row = await this.db
      .selectFrom('sign_in_addresses as a')
      .innerJoin('users as u', 'u.id', 'a.user_id')
      .select('a.user_id')
      .where('u.email', '=', email)
      .where('a.address', '=', address)
      .where('a.last_signed_in_at', '>=', since)
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Records a successful sign-in from `address`, and forgets the account's addresses not used since `staleBefore`. */
  async rememberAddress(input: {
    userId: string;
    address: string;
    at: Date;
    staleBefore: Date;
  }): Promise<void> {
    await this.db
      .insertInto('sign_in_addresses')
      .values({ user_id: input.userId, address: input.address, last_signed_in_at: input.at })
      .onConflict((oc) => oc.columns(['user_id', 'address']).doUpdateSet({ last_signed_in_at: input.at }))
      .execute();
    await this.db
      .deleteFrom('sign_in_addresses')
      .where('user_id', '=', input.userId)
      .where('last_signed_in_at', '<', input.staleBefore)
      .execute();
  }

  /** User, first organisation, owner membership and first session: all or nothing. */
  async insertRegistration(input: NewRegistration): Promise<Registered> {
    return translateViolations(
      this.db.transaction().execute(async (tx) => {
        const user = await tx
          .insertInto('users')
          .values({ email: input.email, password_hash: input.passwordHash, is_staff: input.isStaff ?? false })
          .returningAll()
          .executeTakeFirstOrThrow();
        const organization = await tx
          .insertInto('organizations')
          .values({ name: input.organizationName, type: input.organizationType })
          .returningAll()
          .executeTakeFirstOrThrow();
        await tx
          .insertInto('memberships')
          .values({ organization_id: organization.id, user_id: user.id, role: 'owner' })
          .execute();
        await tx
          .insertInto('access_tokens')
          .values({
            kind: 'session',
            user_id: user.id,
            token_hash: input.sessionHash,
            expires_at: input.sessionExpiresAt,
          })
          .execute();
        return {
          user: {
            id: user.id,
            email: user.email,
            passwordHash: user.password_hash,
            isStaff: user.is_staff,
            createdAt: user.created_at,
          },
          organization: {
            id: organization.id,
            name: organization.name,
            type: organization.type,
            isVerified: organization.is_verified,
            createdAt: organization.created_at,
          },
        };
      }),
      {
        // Saying that the email has an account cannot be avoided until registration is confirmed by
        // email; the service's throttle keeps it slow, and the answer says nothing more.
        unique: () =>
          new AlreadyExistsError('This email already has an account: sign in, or use another email.'),
      },
    );
  }

  /** Creates a staff account, or makes an existing account staff; the password of an existing account is kept. */
  async ensureStaffUser(input: { email: string; passwordHash: string }): Promise<void> {
    await this.db
      .insertInto('users')
      .values({ email: input.email, password_hash: input.passwordHash, is_staff: true })
      .onConflict((oc) => oc.column('email').doUpdateSet({ is_staff: true }))
      .execute();
  }
}

export interface NewRegistration {
  readonly email: string;
  readonly passwordHash: string;
  readonly organizationName: string;
  readonly organizationType: OrganizationType;
  readonly sessionHash: Buffer;
  readonly sessionExpiresAt: Date;
  readonly isStaff?: boolean;
}

export interface Registered {
  readonly user: UserRecord;
  readonly organization: {
    id: string;
    name: string;
    type: OrganizationType;
    isVerified: boolean;
    createdAt: Date;
  };
}
