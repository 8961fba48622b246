import { InvalidArgumentError } from '@noderings/domain';
import sshpk from 'sshpk';

export type SshKeyType = 'rsa' | 'ed25519' | 'ecdsa';

/** A public key as it goes into authorized_keys, and what users compare it by. */
export interface SshPublicKey {
  readonly keyType: SshKeyType;
  /** `algorithm base64 [comment]`, single-spaced: what authorized_keys will hold. */
  readonly normalized: string;
  /** As `ssh-keygen -l` prints it: `SHA256:` and the unpadded base64 of the key blob's SHA-256. */
  readonly fingerprint: string;
}

/** Shorter RSA keys are no longer considered safe (NIST SP 800-131A disallows them). */
const MIN_RSA_BITS = 2048;
/** OpenSSH's own upper bound; larger keys only make every login slower. */
const MAX_RSA_BITS = 16_384;

/** The accepted algorithms as the line names them (a Map: the name comes from the caller). */
const ALGORITHMS: ReadonlyMap<string, { readonly type: SshKeyType; readonly curve?: string }> = new Map([
  ['ssh-ed25519', { type: 'ed25519' }],
  ['ecdsa-sha2-nistp256', { type: 'ecdsa', curve: 'nistp256' }],
  ['ecdsa-sha2-nistp384', { type: 'ecdsa', curve: 'nistp384' }],
  ['ecdsa-sha2-nistp521', { type: 'ecdsa', curve: 'nistp521' }],
  ['ssh-rsa', { type: 'rsa' }],
]);

/**
 * PEM and PuTTY private keys by their armour, and an OpenSSH private key pasted without its armour by the
 * base64 of its `openssh-key-v1` magic.
 */
const PRIVATE_KEY =
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----|---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----|PuTTY-User-Key-File-|b3BlbnNzaC1rZXktdjE/;
const LINE = /^(\S+)[ \t]+(\S+)(?:[ \t]+(.*))?$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
// eslint-disable-next-line no-control-regex -- control characters are exactly what this looks for
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f]/;

function invalid(description: string): InvalidArgumentError {
  return InvalidArgumentError.field('publicKey', description);
}

/**
 * Parses one line of a `.pub` file. Refusals never quote the input: a pasted private key must not be
 * echoed back or reach a log line through an error message.
 */
export function parseSshPublicKey(text: string): SshPublicKey {
  if (PRIVATE_KEY.test(text)) {
    throw invalid(
      'is a private key, which must never leave your machine: paste the public key instead, the contents of the .pub file (like ~/.ssh/id_ed25519.pub)',
    );
  }
  const trimmed = text.trim();
  if (/[\r\n]/.test(trimmed))
    throw invalid('must be a single line: the contents of the .pub file, like ~/.ssh/id_ed25519.pub');
  if (CONTROL.test(trimmed)) throw invalid('contains control characters');
  const [, algorithm = '', data = '', comment] = LINE.exec(trimmed) ?? [];
  if (algorithm === 'ssh-dss') {
    throw invalid(
      `is a DSA key, which OpenSSH no longer accepts: use an Ed25519, ECDSA or RSA (at least ${MIN_RSA_BITS}-bit) key`,
    );
  }
  const expected = ALGORITHMS.get(algorithm);
  if (expected === undefined) {
    throw invalid(
      `is not an OpenSSH public key of a supported type (${[...ALGORITHMS.keys()].join(', ')}): expected "ssh-ed25519 AAAA… comment"`,
    );
  }
  if (!BASE64.test(data)) throw invalid('is not an OpenSSH public key: the key data is not base64');
  const blob = Buffer.from(data, 'base64');
  let key: sshpk.Key;
  try {
    key = sshpk.parseKey(blob, 'rfc4253');
  } catch {
    // sshpk's message describes the bytes it choked on; ours must not describe the input at all.
    throw invalid('is not an OpenSSH public key: the key data is damaged or truncated');
  }
  // Re-encoding must give back the same bytes: no trailing data, no second encoding of one key.
  const canonical = key.toBuffer('rfc4253');
  const curveMatches = expected.type !== 'ecdsa' || key.curve === expected.curve;
  if (key.type !== expected.type || !curveMatches || !canonical.equals(blob)) {
    throw invalid(`is not an OpenSSH public key: the key data does not match its type, ${algorithm}`);
  }
  if (key.type === 'rsa' && key.size < MIN_RSA_BITS)
    throw invalid(`is a ${key.size}-bit RSA key: at least ${MIN_RSA_BITS} bits are required`);
  if (key.type === 'rsa' && key.size > MAX_RSA_BITS)
    throw invalid(`is a ${key.size}-bit RSA key: at most ${MAX_RSA_BITS} bits are accepted`);
  const normalizedComment = comment?.trim().replace(/[ \t]+/g, ' ') ?? '';
  return {
    keyType: expected.type,
    normalized: [
      algorithm,
      canonical.toString('base64'),
      ...(normalizedComment === '' ? [] : [normalizedComment]),
    ].join(' '),
    fingerprint: key.fingerprint('sha256').toString(),
  };
}
