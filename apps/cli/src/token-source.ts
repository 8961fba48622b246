import { CliError } from './cli-error.js';
import { refreshSession } from './device-sign-in.js';
import type { CliIo } from './cli-io.js';
import type { ConfigStore } from './config-store.js';

/** The variable a CI job puts a service-account token in; it wins over the stored one. */
export const TOKEN_ENV = 'NR_TOKEN';
const HINT_VISIBLE = 4;
const HINT_MIN_LENGTH = 16;

export type TokenSource = 'env' | 'credentials';

export async function findToken(
  env: CliIo['env'],
  store: ConfigStore,
): Promise<{ token: string; source: TokenSource } | undefined> {
  const fromEnv = env[TOKEN_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { token: fromEnv, source: 'env' };
  const stored = await store.readCredentials();
  if (typeof stored?.token === 'string' && stored.token !== '')
    return { token: stored.token, source: 'credentials' };
  return undefined;
}

async function resolveToken(
  env: CliIo['env'],
  store: ConfigStore,
): Promise<{ token: string; source: TokenSource }> {
  const found = await findToken(env, store);
  if (found === undefined) {
    throw new CliError(
      'NOT_AUTHENTICATED',
      `Not authenticated: run nr login, or nr auth set-token --token T (or set ${TOKEN_ENV}).`,
    );
  }
  return found;
}

/** Refreshed this long before it lapses, so a call never goes out with a token about to expire. */
const REFRESH_MARGIN_MS = 60_000;

/**
 * The token to call the API with: `NR_TOKEN`, or the stored one, which `nr login`'s refresh token renews
 * (and stores again) when it is about to lapse.
 */
export async function currentToken(
  env: CliIo['env'],
  store: ConfigStore,
  apiUrl: string,
  now: Date,
): Promise<string> {
  const found = await resolveToken(env, store);
  if (found.source === 'env') return found.token;
  const stored = await store.readCredentials();
  if (stored?.refreshToken === undefined || stored.expiresAt === undefined) return found.token;
  if (Date.parse(stored.expiresAt) - now.getTime() > REFRESH_MARGIN_MS) return found.token;
  const session = await refreshSession(apiUrl, stored.refreshToken, now);
  if (session === undefined) {
    throw new CliError(
      'NOT_AUTHENTICATED',
      'The session has ended (revoked or expired): run nr login again.',
    );
  }
  await store.writeCredentials({
    token: session.accessToken,
    refreshToken: session.refreshToken,
    expiresAt: session.expiresAt.toISOString(),
  });
  return session.accessToken;
}

/** Enough of a token to tell two apart, never enough to use: its last four characters. */
export function tokenHint(token: string): string {
  return token.length < HINT_MIN_LENGTH ? '****' : `****${token.slice(-HINT_VISIBLE)}`;
}
