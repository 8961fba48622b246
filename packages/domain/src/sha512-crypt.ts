import { createHash } from 'node:crypto';

import { InvalidArgumentError } from './domain-error.js';

/**
 * SHA-512-crypt (`$6$…`), the password hash glibc's crypt(3), `chpasswd -e` and cloud-init's
 * `hashed_passwd` accept, after Ulrich Drepper's "Unix crypt using SHA-256 and SHA-512" specification.
 * The hash leaves the control plane in a VM's cloud-init data, so it has to be the format the guest's
 * /etc/shadow understands; argon2 (used for our own accounts) is not.
 */

/** The specification's bounds on `rounds=`; glibc clamps, we refuse, so a hash always says what it did. */
const SHA512_CRYPT_MIN_ROUNDS = 1000;
const SHA512_CRYPT_MAX_ROUNDS = 999_999_999;
/** Used when the setting names no rounds; such a hash carries no `rounds=` field. */
const IMPLICIT_ROUNDS = 5000;
/** Longer salts are cut to this length, as the specification does. */
const SHA512_CRYPT_SALT_LENGTH = 16;

const ALPHABET = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DIGEST_BYTES = 64;
const SALT = /^[./0-9A-Za-z]*$/;

/**
 * crypt(3)'s own base64 writes the digest in this byte order, three bytes to four characters, with the
 * last byte alone in two characters.
 */
const OUTPUT_ORDER: readonly (readonly [number, number, number])[] = Array.from({ length: 21 }, (_, i) => {
  const at = (k: number) => i + 21 * ((k + i) % 3);
  return [at(0), at(1), at(2)] as const;
});

function sha512(...parts: readonly Uint8Array[]): Buffer {
  const hash = createHash('sha512');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/** `source` repeated to `length` bytes, whole copies first (steps 9–10, 16 and 20 of the specification). */
function stretch(source: Uint8Array, length: number): Uint8Array {
  const out = new Uint8Array(length);
  for (let offset = 0; offset < length; offset += source.length)
    out.set(source.subarray(0, Math.min(source.length, length - offset)), offset);
  return out;
}

function encode(digest: Uint8Array): string {
  let out = '';
  const put = (value: number, characters: number) => {
    let w = value;
    for (let n = 0; n < characters; n++) {
      out += ALPHABET.charAt(w & 0x3f);
      w >>>= 6;
    }
  };
  const byte = (index: number) => digest[index] ?? 0;
  for (const [a, b, c] of OUTPUT_ORDER) put((byte(a) << 16) | (byte(b) << 8) | byte(c), 4);
  put(byte(DIGEST_BYTES - 1), 2);
  return out;
}

/**
 * The hash of `password` with `salt` (characters of `./0-9A-Za-z`; cut to 16) and `rounds` (left out:
 * the implicit 5000, and no `rounds=` in the result).
 */
export function sha512Crypt(password: string, salt: string, rounds?: number): string {
  if (rounds !== undefined && !roundsInRange(rounds))
    throw InvalidArgumentError.field(
      'rounds',
      `must be a whole number from ${SHA512_CRYPT_MIN_ROUNDS} to ${SHA512_CRYPT_MAX_ROUNDS}`,
    );
  if (!SALT.test(salt)) throw InvalidArgumentError.field('salt', 'must only hold the characters ./0-9A-Za-z');
  const p = Buffer.from(password, 'utf8');
  const s = Buffer.from(salt.slice(0, SHA512_CRYPT_SALT_LENGTH), 'ascii');

  const b = sha512(p, s, p);
  const aParts: Uint8Array[] = [p, s, stretch(b, p.length)];
  for (let n = p.length; n > 0; n >>>= 1) aParts.push(n & 1 ? b : p);
  const a = sha512(...aParts);

  const pSequence = stretch(sha512(...Array.from({ length: p.length }, () => p)), p.length);
  const firstByte = a[0] ?? 0;
  const sSequence = stretch(sha512(...Array.from({ length: 16 + firstByte }, () => s)), s.length);

  let c: Uint8Array = a;
  for (let i = 0; i < (rounds ?? IMPLICIT_ROUNDS); i++) {
    const hash = createHash('sha512');
    hash.update(i % 2 === 1 ? pSequence : c);
    if (i % 3 !== 0) hash.update(sSequence);
    if (i % 7 !== 0) hash.update(pSequence);
    hash.update(i % 2 === 1 ? c : pSequence);
    c = hash.digest();
  }
  const setting =
    rounds === undefined ? `$6$${s.toString('ascii')}` : `$6$rounds=${rounds}$${s.toString('ascii')}`;
  return `${setting}$${encode(c)}`;
}

function roundsInRange(rounds: number): boolean {
  return Number.isInteger(rounds) && rounds >= SHA512_CRYPT_MIN_ROUNDS && rounds <= SHA512_CRYPT_MAX_ROUNDS;
}

/** A salt from random bytes (one character per byte; 64 characters, so every one is equally likely). */
export function sha512CryptSalt(randomBytes: Uint8Array): string {
  return Array.from(randomBytes.subarray(0, SHA512_CRYPT_SALT_LENGTH), (b) => ALPHABET.charAt(b & 0x3f)).join(
    '',
  );
}
