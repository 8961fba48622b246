import { CliError } from './cli-error.js';
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

export async function resolveToken(
  env: CliIo['env'],
  store: ConfigStore,
): Promise<{ token: string; source: TokenSource }> {
  const found = await findToken(env, store);
  if (found === undefined) {
    throw new CliError(
      'NOT_AUTHENTICATED',
      `Not authenticated: run nr auth set-token --token T (or set ${TOKEN_ENV}).`,
    );
  }
  return found;
}

/** Enough of a token to tell two apart, never enough to use: its last four characters. */
export function tokenHint(token: string): string {
  return token.length < HINT_MIN_LENGTH ? '****' : `****${token.slice(-HINT_VISIBLE)}`;
}
