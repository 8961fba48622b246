import { sql, type Transaction } from 'kysely';

import type { Db } from '../../db/database.js';
import { translateViolations } from '../../db/postgres-error.js';
import type { Database, DeviceAuthorizationStatus } from '../../db/schema.js';

export interface DeviceAuthorizationRecord {
  readonly id: string;
  readonly userCode: string;
  readonly clientId: string;
  readonly status: DeviceAuthorizationStatus;
  readonly userId: string | null;
  readonly intervalSeconds: number;
  readonly lastPolledAt: Date | null;
  readonly expiresAt: Date;
  readonly createdAt: Date;
}

/** One of a user's sessions, as they list them: a sign-in or a device's. */
export interface SessionRecord {
  readonly id: string;
  /** The device's client id for a device session; null for a sign-in. */
  readonly clientId: string | null;
  readonly createdAt: Date;
  readonly lastUsedAt: Date | null;
  readonly expiresAt: Date;
}

/** A session's two tokens (only their hashes) and when each lapses. */
export interface SessionTokens {
  readonly accessTokenHash: Buffer;
  readonly accessExpiresAt: Date;
  readonly refreshTokenHash: Buffer;
  readonly refreshExpiresAt: Date;
}

/** A device session to create: whose, for which client, with which tokens. */
interface NewSession extends SessionTokens {
  readonly userId: string;
  readonly clientId: string;
}

/** A user code taken by another pending request: the caller draws again. */
export class UserCodeTakenError extends Error {
  override readonly name = 'UserCodeTakenError';
}

const SELECTED = [
  'id',
  'user_code as userCode',
  'client_id as clientId',
  'status',
  'user_id as userId',
  'interval_seconds as intervalSeconds',
  'last_polled_at as lastPolledAt',
  'expires_at as expiresAt',
  'created_at as createdAt',
] as const;

export class DeviceAuthorizationRepository {
  constructor(private readonly db: Db) {}

  async insert(input: {
    readonly deviceCodeHash: Buffer;
    readonly userCode: string;
    readonly clientId: string;
    readonly intervalSeconds: number;
    readonly expiresAt: Date;
  }): Promise<void> {
    await translateViolations(
      this.db
        .insertInto('device_authorizations')
        .values({
          device_code_hash: input.deviceCodeHash,
          user_code: input.userCode,
          client_id: input.clientId,
          interval_seconds: input.intervalSeconds,
          expires_at: input.expiresAt,
        })
        .execute(),
      {
        unique: {
          device_authorizations_pending_user_code: () => new UserCodeTakenError('user code taken'),
        },
      },
    );
  }

  /** The pending request a user code names, while it has not expired. */
  async findPending(userCode: string, now: Date): Promise<DeviceAuthorizationRecord | undefined> {
    return this.db
      .selectFrom('device_authorizations')
      .select(SELECTED)
      .where('user_code', '=', userCode)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  /** Approves or denies a pending, unexpired request as `userId`; false when there is none. */
  async decide(
    userCode: string,
    userId: string,
    decision: 'approved' | 'denied',
    now: Date,
  ): Promise<boolean> {
    const result = await this.db
      .updateTable('device_authorizations')
      .set({ status: decision, user_id: userId })
      .where('user_code', '=', userCode)
      .where('status', '=', 'pending')
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * A device's poll: the request its device code names, with when it last polled before this one (the
   * poll is recorded in the same statement, so two polls at once cannot both look early enough).
   */
  async poll(
    deviceCodeHash: Buffer,
    clientId: string,
    now: Date,
  ): Promise<(DeviceAuthorizationRecord & { readonly previousPollAt: Date | null }) | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const request = await tx
        .selectFrom('device_authorizations')
        .select(SELECTED)
        .where('device_code_hash', '=', deviceCodeHash)
        .where('client_id', '=', clientId)
        .forUpdate()
        .executeTakeFirst();
      if (request === undefined) return undefined;
      await tx
        .updateTable('device_authorizations')
        .set({ last_polled_at: now })
        .where('id', '=', request.id)
        .execute();
      return { ...request, previousPollAt: request.lastPolledAt, lastPolledAt: now };
    });
  }

  /** Makes the device wait longer between polls (RFC 8628 `slow_down`: five seconds more). */
  async slowDown(id: string): Promise<void> {
    await this.db
      .updateTable('device_authorizations')
      .set((eb) => ({ interval_seconds: eb('interval_seconds', '+', 5) }))
      .where('id', '=', id)
      .execute();
  }

  /**
   * Turns an approved request into a session: the access token and its refresh token, in one transaction
   * that also marks the request redeemed, so a device code is exchanged once. False when it was redeemed
   * already (a concurrent poll won).
   */
  async redeem(id: string, session: NewSession): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const redeemed = await tx
        .updateTable('device_authorizations')
        .set({ status: 'redeemed' })
        .where('id', '=', id)
        .where('status', '=', 'approved')
        .executeTakeFirst();
      if (redeemed.numUpdatedRows === 0n) return false;
      await insertSession(tx, session);
      return true;
    });
  }

  /**
   * Exchanges a live refresh token for a new session: the old access token and refresh token are revoked
   * in the same transaction. Undefined when the refresh token is unknown, expired, revoked or not the
   * client's. A revoked token presented again means someone else holds a copy: every live session of that
   * user on that client is revoked, and the user signs the device in again.
   */
  async rotate(
    refreshTokenHash: Buffer,
    clientId: string,
    now: Date,
    next: SessionTokens,
  ): Promise<{ readonly userId: string } | undefined> {
    return this.db.transaction().execute(async (tx) => {
      const current = await tx
        .selectFrom('refresh_tokens')
        .select([
          'id',
          'user_id as userId',
          'access_token_id as accessTokenId',
          'revoked_at as revokedAt',
          'expires_at as expiresAt',
        ])
        .where('token_hash', '=', refreshTokenHash)
        .where('client_id', '=', clientId)
        .forUpdate()
        .executeTakeFirst();
      if (current === undefined || current.expiresAt <= now) return undefined;
      if (current.revokedAt !== null) {
        await revokeUserClientSessions(tx, current.userId, clientId, now);
        return undefined;
      }
      await tx.updateTable('refresh_tokens').set({ revoked_at: now }).where('id', '=', current.id).execute();
      await tx
        .updateTable('access_tokens')
        .set({ revoked_at: now })
        .where('id', '=', current.accessTokenId)
        .where('revoked_at', 'is', null)
        .execute();
      await insertSession(tx, { ...next, userId: current.userId, clientId });
      return { userId: current.userId };
    });
  }

  /** RFC 7009: revokes the session a refresh or access token belongs to, if it is one of this client's. */
  async revokeByToken(tokenHash: Buffer, clientId: string, now: Date): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      const viaRefresh = await tx
        .selectFrom('refresh_tokens')
        .select('access_token_id')
        .where('token_hash', '=', tokenHash)
        .where('client_id', '=', clientId)
        .executeTakeFirst();
      const viaAccess = await tx
        .selectFrom('access_tokens')
        .select('id')
        .where('token_hash', '=', tokenHash)
        .where('kind', '=', 'session')
        .where('name', '=', clientId)
        .executeTakeFirst();
      const accessTokenId = viaRefresh?.access_token_id ?? viaAccess?.id;
      if (accessTokenId !== undefined) await revokeSession(tx, accessTokenId, now);
    });
  }

  /** The user's live sessions, newest first. */
  async sessionsOf(userId: string, now: Date): Promise<SessionRecord[]> {
    return this.db
      .selectFrom('access_tokens')
      .select([
        'id',
        'name as clientId',
        'created_at as createdAt',
        'last_used_at as lastUsedAt',
        'expires_at as expiresAt',
      ])
      .where('kind', '=', 'session')
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('created_at', 'desc')
      .orderBy('id')
      .execute();
  }

  /** Revokes one of the user's sessions and its refresh token; false when it is not theirs or not live. */
  async revokeSessionOf(userId: string, sessionId: string, now: Date): Promise<boolean> {
    return this.db.transaction().execute(async (tx) => {
      const session = await tx
        .selectFrom('access_tokens')
        .select('id')
        .where('id', '=', sessionId)
        .where('kind', '=', 'session')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null)
        .executeTakeFirst();
      if (session === undefined) return false;
      await revokeSession(tx, session.id, now);
      return true;
    });
  }

  /** Forgets requests that expired a day ago or more. */
  async pruneExpired(now: Date): Promise<void> {
    await this.db
      .deleteFrom('device_authorizations')
      .where('expires_at', '<', sql<Date>`${now}::timestamptz - interval '1 day'`)
      .execute();
  }
}

type Tx = Transaction<Database>;

async function insertSession(tx: Tx, session: NewSession): Promise<void> {
  const access = await tx
    .insertInto('access_tokens')
    .values({
      kind: 'session',
      user_id: session.userId,
      name: session.clientId,
      token_hash: session.accessTokenHash,
      expires_at: session.accessExpiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await tx
    .insertInto('refresh_tokens')
    .values({
      token_hash: session.refreshTokenHash,
      user_id: session.userId,
      client_id: session.clientId,
      access_token_id: access.id,
      expires_at: session.refreshExpiresAt,
    })
    .execute();
}

async function revokeSession(tx: Tx, accessTokenId: string, now: Date): Promise<void> {
  await tx
    .updateTable('access_tokens')
    .set({ revoked_at: now })
    .where('id', '=', accessTokenId)
    .where('revoked_at', 'is', null)
    .execute();
  await tx
    .updateTable('refresh_tokens')
    .set({ revoked_at: now })
    .where('access_token_id', '=', accessTokenId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** A replayed refresh token: every live session of that user on that client goes. */
async function revokeUserClientSessions(tx: Tx, userId: string, clientId: string, now: Date): Promise<void> {
  const sessions = await tx
    .selectFrom('refresh_tokens')
    .select('access_token_id')
    .where('user_id', '=', userId)
    .where('client_id', '=', clientId)
    .where('revoked_at', 'is', null)
    .execute();
  for (const s of sessions) await revokeSession(tx, s.access_token_id, now);
}
