import { createHash, randomBytes } from 'node:crypto';

const TOKEN_BYTES = 32;

/** What a token is for, readable in its prefix so a leaked token can be recognised by secret scanners. */
export type TokenPrefix = 'nrs' | 'nrsa' | 'nra' | 'nri' | 'nrm' | 'nrf' | 'nrinv' | 'nrdc' | 'nrr';

/** A random bearer token; only its hash is ever stored. */
export function newOpaqueToken(prefix: TokenPrefix): { token: string; hash: Buffer } {
  const token = `${prefix}_${randomBytes(TOKEN_BYTES).toString('base64url')}`;
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
