import { PveInvalidArgumentError } from './errors.js';

/** A Proxmox API token: `userid!tokenId` with its secret (pveum.adoc). */
export interface ApiToken {
  /** `user@realm`, e.g. `root@pam`. */
  userid: string;
  tokenId: string;
  secret: string;
}

const USERID = /^[^\s@!:=]+@[A-Za-z][A-Za-z0-9.\-_]*$/;
const TOKEN_ID = /^[A-Za-z][A-Za-z0-9.\-_]+$/;
const HEADER_PREFIX = 'PVEAPIToken=';

/**
 * Reads a token given as one string, `user@realm!tokenid=secret`, with or without the `PVEAPIToken=`
 * prefix. Proxmox splits the value at its last `=`, and so does this.
 */
export function parseApiToken(text: string): ApiToken {
  const value = text.trim().startsWith(HEADER_PREFIX) ? text.trim().slice(HEADER_PREFIX.length) : text.trim();
  const equals = value.lastIndexOf('=');
  const bang = value.lastIndexOf('!', equals);
  if (equals < 0 || bang < 0) {
    throw new PveInvalidArgumentError({
      pveMessage: "token must look like 'user@realm!tokenid=secret' (the secret is not shown here)",
    });
  }
  return checkApiToken({
    userid: value.slice(0, bang),
    tokenId: value.slice(bang + 1, equals),
    secret: value.slice(equals + 1),
  });
}

export function checkApiToken(token: ApiToken): ApiToken {
  if (!USERID.test(token.userid)) {
    throw new PveInvalidArgumentError({
      pveMessage: `token userid must be 'user@realm', got '${token.userid}'`,
    });
  }
  if (!TOKEN_ID.test(token.tokenId)) {
    throw new PveInvalidArgumentError({
      pveMessage: `token id is not a valid Proxmox token id: '${token.tokenId}'`,
    });
  }
  if (token.secret === '' || /\s/.test(token.secret)) {
    throw new PveInvalidArgumentError({
      pveMessage: 'token secret must be non-empty and without whitespace',
    });
  }
  return token;
}

/** The value of the `Authorization` header. */
export function apiTokenHeader(token: ApiToken): string {
  return `${HEADER_PREFIX}${token.userid}!${token.tokenId}=${token.secret}`;
}
