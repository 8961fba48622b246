import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { signJwt, verifyJwt } from './signed-jwt.js';
import { parseStaticTokenFile, type StaticToken } from './static-token-file.js';
import {
  DEFAULT_TOKEN_EXPIRATION_SECONDS,
  validateTokenRequest,
  type TokenRequestSpec,
} from './token-request.js';
import type { UserInfo } from './user-info.js';

const DEFAULT_ISSUER = 'https://kubernetes.default.svc';
const AUTHENTICATED_GROUP = 'system:authenticated';
const SERVICE_ACCOUNTS_GROUP = 'system:serviceaccounts';
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
/** go-jose's default leeway, which kube-apiserver's service-account token checks rely on. */
const CLOCK_SKEW_LEEWAY_SECONDS = 60;
const SIGNING_KEY_BYTES = 32;

/** Tells whether the service account a token names still exists with that uid. */
export type ServiceAccountExists = (namespace: string, name: string, uid: string) => boolean;

export interface TokenAuthenticatorOptions {
  staticTokens: StaticToken[];
  /** `iss` of issued tokens, and the only issuer accepted. */
  issuer?: string;
  /** The apiserver's audiences (`--api-audiences`); a token must name one. Defaults to `[issuer]`. */
  audiences?: string[];
  /** HS256 key; random per instance when absent, so tokens do not survive a restart. */
  signingKey?: Uint8Array;
}

interface ServiceAccountClaims {
  namespace: string;
  name: string;
  uid: string;
}

/**
 * Bearer-token authentication as kube-apiserver does it with a static token file and the
 * service-account token authenticator, plus the TokenRequest issuer.
 */
export class TokenAuthenticator {
  private readonly staticTokens: ReadonlyMap<string, StaticToken>;
  private readonly issuer: string;
  private readonly audiences: readonly string[];
  private readonly signingKey: Uint8Array;
  private readonly keyId: string;

  constructor(options: TokenAuthenticatorOptions) {
    this.staticTokens = new Map(options.staticTokens.map((entry) => [entry.token, entry]));
    this.issuer = options.issuer ?? DEFAULT_ISSUER;
    this.audiences = options.audiences ?? [this.issuer];
    this.signingKey = options.signingKey ?? randomBytes(SIGNING_KEY_BYTES);
    this.keyId = createHash('sha256').update(this.signingKey).digest('base64url');
  }

  static parseTokenFile(text: string): StaticToken[] {
    return parseStaticTokenFile(text);
  }

  /**
   * The user behind an `Authorization: Bearer …` header value, or undefined (answer 401) when the
   * header is absent, not a bearer token, unknown, badly signed, expired, not yet valid, for another
   * issuer or audience, or names a service account that `serviceAccountExists` says is gone.
   */
  authenticate(
    authorization: string | undefined,
    now: Date = new Date(),
    serviceAccountExists?: ServiceAccountExists,
  ): UserInfo | undefined {
    const token = bearerToken(authorization);
    if (token === undefined) return undefined;
    const entry = this.staticTokens.get(token);
    if (entry) {
      return withAuthenticatedGroup({
        username: entry.username,
        ...(entry.uid !== undefined ? { uid: entry.uid } : {}),
        groups: [...(entry.groups ?? [])],
      });
    }
    const claims = this.verifyServiceAccountToken(token, now);
    if (!claims) return undefined;
    if (serviceAccountExists && !serviceAccountExists(claims.namespace, claims.name, claims.uid))
      return undefined;
    return withAuthenticatedGroup({
      username: `${SERVICE_ACCOUNT_PREFIX}${claims.namespace}:${claims.name}`,
      uid: claims.uid,
      groups: [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${claims.namespace}`],
    });
  }

  /**
   * Issues a bound service-account token as the TokenRequest API does. Throws a RangeError for an
   * expiration kube-apiserver would refuse; call validateTokenRequest first to answer 422 instead.
   */
  issueServiceAccountToken(
    request: TokenRequestSpec,
    now: Date = new Date(),
  ): { token: string; expirationTimestamp: string } {
    const causes = validateTokenRequest(request);
    if (causes[0]) throw new RangeError(`${causes[0].field}: ${causes[0].message}`);
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAt = issuedAt + (request.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS);
    const audiences = request.audiences && request.audiences.length > 0 ? request.audiences : [this.issuer];
    const token = signJwt(
      {
        aud: audiences,
        exp: expiresAt,
        iat: issuedAt,
        iss: this.issuer,
        jti: randomUUID(),
        'kubernetes.io': {
          namespace: request.namespace,
          serviceaccount: { name: request.name, uid: request.uid },
        },
        nbf: issuedAt,
        sub: `${SERVICE_ACCOUNT_PREFIX}${request.namespace}:${request.name}`,
      },
      this.signingKey,
      this.keyId,
    );
    return { token, expirationTimestamp: new Date(expiresAt * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z') };
  }

  private verifyServiceAccountToken(token: string, now: Date): ServiceAccountClaims | undefined {
    const payload = verifyJwt(token, this.signingKey);
    if (payload?.iss !== this.issuer) return undefined;
    const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
    if (!audiences.some((a) => typeof a === 'string' && this.audiences.includes(a))) return undefined;
    const nowSeconds = now.getTime() / 1000;
    const { exp, nbf, iat } = payload;
    if (typeof exp !== 'number' || nowSeconds - CLOCK_SKEW_LEEWAY_SECONDS > exp) return undefined;
    if (typeof nbf === 'number' && nowSeconds + CLOCK_SKEW_LEEWAY_SECONDS < nbf) return undefined;
    if (typeof iat === 'number' && nowSeconds + CLOCK_SKEW_LEEWAY_SECONDS < iat) return undefined;
    return serviceAccountClaims(payload);
  }
}

function bearerToken(authorization: string | undefined): string | undefined {
  if (authorization === undefined) return undefined;
  const [scheme, token] = authorization.trim().split(' ', 3);
  if (scheme?.toLowerCase() !== 'bearer' || !token) return undefined;
  return token;
}

function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (!user.groups.includes(AUTHENTICATED_GROUP)) user.groups.push(AUTHENTICATED_GROUP);
  return user;
}

function serviceAccountClaims(payload: Record<string, unknown>): ServiceAccountClaims | undefined {
  const kube = payload['kubernetes.io'];
  if (typeof kube !== 'object' || kube === null) return undefined;
  const { namespace, serviceaccount } = kube as Record<string, unknown>;
  if (typeof namespace !== 'string' || typeof serviceaccount !== 'object' || serviceaccount === null) {
    return undefined;
  }
  const { name, uid } = serviceaccount as Record<string, unknown>;
  if (typeof name !== 'string' || typeof uid !== 'string') return undefined;
  if (payload.sub !== `${SERVICE_ACCOUNT_PREFIX}${namespace}:${name}`) return undefined;
  return { namespace, name, uid };
}
