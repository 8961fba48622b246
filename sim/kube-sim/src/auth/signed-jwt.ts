import { createHmac, timingSafeEqual } from 'node:crypto';

/** A compact JWS signed with HMAC-SHA256 (HS256). */
export function signJwt(payload: Record<string, unknown>, key: Uint8Array, keyId: string): string {
  const header = encodeSegment({ alg: 'HS256', kid: keyId, typ: 'JWT' });
  const body = encodeSegment(payload);
  return `${header}.${body}.${sign(`${header}.${body}`, key)}`;
}

/**
 * The payload of `token` when it is a well-formed HS256 JWS whose signature `key` made; undefined
 * otherwise, whatever is wrong with it.
 */
export function verifyJwt(token: string, key: Uint8Array): Record<string, unknown> | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const [header = '', body = '', signature = ''] = parts;
  const expected = Buffer.from(sign(`${header}.${body}`, key));
  const actual = Buffer.from(signature);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
  const decodedHeader = decodeSegment(header);
  if (decodedHeader?.alg !== 'HS256') return undefined;
  return decodeSegment(body);
}

function sign(input: string, key: Uint8Array): string {
  return createHmac('sha256', key).update(input).digest('base64url');
}

function encodeSegment(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function decodeSegment(segment: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(segment, 'base64url').toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch (e: unknown) {
    if (e instanceof SyntaxError) return undefined;
    throw e;
  }
}
