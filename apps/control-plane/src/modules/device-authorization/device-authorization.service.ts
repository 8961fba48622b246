import { randomInt } from 'node:crypto';

import { NotFoundError } from '@noderings/domain';

import { hashToken, newOpaqueToken } from '../../crypto/opaque-token.js';
import {
  UserCodeTakenError,
  type DeviceAuthorizationRepository,
  type SessionRecord,
} from './device-authorization.repository.js';

/** The devices that may ask to sign a user in, by the `client_id` they send (public clients, RFC 8628 §3.1). */
const DEVICE_CLIENTS: Readonly<Record<string, { readonly name: string }>> = {
  'nr-cli': { name: 'nr, the NodeRings CLI' },
};

/** Letters without vowels or look-alikes (RFC 8628 §6.1): 20⁸ codes, entered as two groups of four. */
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const USER_CODE_LENGTH = 8;
const USER_CODE_PATTERN = new RegExp(`^[${USER_CODE_ALPHABET}]{${String(USER_CODE_LENGTH)}}$`);
const REQUEST_TTL_SECONDS = 15 * 60;
const POLL_INTERVAL_SECONDS = 5;
const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;
const REFRESH_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000;

/** RFC 6749 §5.2 and RFC 8628 §3.5 error codes the token endpoint answers. */
type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unsupported_grant_type'
  | 'authorization_pending'
  | 'slow_down'
  | 'access_denied'
  | 'expired_token';

export interface OAuthError {
  readonly error: OAuthErrorCode;
  readonly description: string;
}

export interface DeviceAuthorization {
  readonly deviceCode: string;
  /** As the user types it: `BCDF-GHJK`. */
  readonly userCode: string;
  readonly expiresIn: number;
  readonly interval: number;
}

export interface TokenGrant {
  readonly accessToken: string;
  readonly expiresIn: number;
  readonly refreshToken: string;
}

export interface PendingDevice {
  readonly userCode: string;
  readonly clientId: string;
  readonly clientName: string;
  readonly createdAt: Date;
  readonly expiresAt: Date;
}

/** The user code as stored: letters only, upper case; undefined when it cannot be one. */
function normalizeUserCode(typed: string): string | undefined {
  const letters = typed.toUpperCase().replace(/[\s-]/g, '');
  if (letters.length !== USER_CODE_LENGTH) return undefined;
  return USER_CODE_PATTERN.test(letters) ? letters : undefined;
}

function displayUserCode(code: string): string {
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/**
 * The OAuth 2.0 device authorization grant (RFC 8628) for `nr` on a headless machine: the device gets a
 * device code and a user code; the signed-in user enters the user code in the dashboard and approves; the
 * device's poll then gets a session (an access token of an hour and a rotating refresh token of 30 days).
 */
export class DeviceAuthorizationService {
  constructor(
    private readonly deps: {
      readonly requests: DeviceAuthorizationRepository;
      readonly now: () => Date;
      /** A random index below `bound`; injectable so that tests can force a user-code collision. */
      readonly randomIndex?: (bound: number) => number;
    },
  ) {}

  async start(clientId: string): Promise<DeviceAuthorization | OAuthError> {
    if (DEVICE_CLIENTS[clientId] === undefined) return unknownClient(clientId);
    const device = newOpaqueToken('nrdc');
    const expiresAt = new Date(this.deps.now().getTime() + REQUEST_TTL_SECONDS * 1000);
    for (;;) {
      const userCode = this.#userCode();
      try {
        await this.deps.requests.insert({
          deviceCodeHash: device.hash,
          userCode,
          clientId,
          intervalSeconds: POLL_INTERVAL_SECONDS,
          expiresAt,
        });
        return {
          deviceCode: device.token,
          userCode: displayUserCode(userCode),
          expiresIn: REQUEST_TTL_SECONDS,
          interval: POLL_INTERVAL_SECONDS,
        };
      } catch (e: unknown) {
        if (!(e instanceof UserCodeTakenError)) throw e;
      }
    }
  }

  /** A device's poll with its device code (RFC 8628 §3.4, §3.5). */
  async poll(deviceCode: string, clientId: string): Promise<TokenGrant | OAuthError> {
    if (DEVICE_CLIENTS[clientId] === undefined) return unknownClient(clientId);
    const now = this.deps.now();
    const request = await this.deps.requests.poll(hashToken(deviceCode), clientId, now);
    if (request === undefined)
      return { error: 'invalid_grant', description: 'The device code is not known.' };
    if (request.expiresAt <= now && request.status !== 'redeemed') {
      return { error: 'expired_token', description: 'The device code has expired: sign in again.' };
    }
    switch (request.status) {
      case 'denied':
        return { error: 'access_denied', description: 'The user denied the sign-in.' };
      case 'redeemed':
        return { error: 'invalid_grant', description: 'The device code has been used already.' };
      case 'pending': {
        const early =
          request.previousPollAt !== null &&
          now.getTime() - request.previousPollAt.getTime() < request.intervalSeconds * 1000;
        if (early) {
          await this.deps.requests.slowDown(request.id);
          return {
            error: 'slow_down',
            description: `Polled sooner than every ${String(request.intervalSeconds)} s: wait 5 s longer.`,
          };
        }
        return { error: 'authorization_pending', description: 'The user has not approved the sign-in yet.' };
      }
      case 'approved': {
        if (request.userId === null) throw new Error('an approved device authorization without a user');
        const grant = this.#newGrant(now);
        const redeemed = await this.deps.requests.redeem(request.id, {
          userId: request.userId,
          clientId,
          ...grant.hashes,
        });
        if (!redeemed)
          return { error: 'invalid_grant', description: 'The device code has been used already.' };
        return grant.tokens;
      }
    }
  }

  /** A refresh token for a new access token and a new refresh token (the old pair is revoked). */
  async refresh(refreshToken: string, clientId: string): Promise<TokenGrant | OAuthError> {
    if (DEVICE_CLIENTS[clientId] === undefined) return unknownClient(clientId);
    const now = this.deps.now();
    const grant = this.#newGrant(now);
    const rotated = await this.deps.requests.rotate(hashToken(refreshToken), clientId, now, grant.hashes);
    if (rotated === undefined) {
      return {
        error: 'invalid_grant',
        description: 'The refresh token is not valid (expired, revoked or used): sign in again.',
      };
    }
    return grant.tokens;
  }

  /** RFC 7009: revoking an unknown token is not an error. */
  async revoke(token: string, clientId: string): Promise<void> {
    await this.deps.requests.revokeByToken(hashToken(token), clientId, this.deps.now());
  }

  /** What the dashboard shows before the user approves: which client asks, and until when. */
  async describe(typedUserCode: string): Promise<PendingDevice> {
    const code = normalizeUserCode(typedUserCode);
    const request =
      code === undefined ? undefined : await this.deps.requests.findPending(code, this.deps.now());
    if (request === undefined) throw notPending();
    const client = DEVICE_CLIENTS[request.clientId];
    return {
      userCode: displayUserCode(request.userCode),
      clientId: request.clientId,
      clientName: client?.name ?? request.clientId,
      createdAt: request.createdAt,
      expiresAt: request.expiresAt,
    };
  }

  async decide(typedUserCode: string, userId: string, decision: 'approved' | 'denied'): Promise<void> {
    const code = normalizeUserCode(typedUserCode);
    const decided =
      code !== undefined && (await this.deps.requests.decide(code, userId, decision, this.deps.now()));
    if (!decided) throw notPending();
  }

  async sessions(userId: string): Promise<SessionRecord[]> {
    return this.deps.requests.sessionsOf(userId, this.deps.now());
  }

  async revokeSession(userId: string, sessionId: string): Promise<void> {
    if (!(await this.deps.requests.revokeSessionOf(userId, sessionId, this.deps.now())))
      throw NotFoundError.of('Session', sessionId);
  }

  #userCode(): string {
    const index = this.deps.randomIndex ?? ((bound: number) => randomInt(bound));
    let code = '';
    for (let i = 0; i < USER_CODE_LENGTH; i++)
      code += USER_CODE_ALPHABET.charAt(index(USER_CODE_ALPHABET.length));
    return code;
  }

  #newGrant(now: Date) {
    const access = newOpaqueToken('nrs');
    const refresh = newOpaqueToken('nrr');
    return {
      tokens: { accessToken: access.token, expiresIn: ACCESS_TOKEN_TTL_SECONDS, refreshToken: refresh.token },
      hashes: {
        accessTokenHash: access.hash,
        accessExpiresAt: new Date(now.getTime() + ACCESS_TOKEN_TTL_SECONDS * 1000),
        refreshTokenHash: refresh.hash,
        refreshExpiresAt: new Date(now.getTime() + REFRESH_TOKEN_TTL_MS),
      },
    };
  }
}

function unknownClient(clientId: string): OAuthError {
  return { error: 'invalid_client', description: `${clientId} is not a client that may sign in here.` };
}

function notPending(): NotFoundError {
  return new NotFoundError('No sign-in request waits with that code: it may have expired or been used.');
}
