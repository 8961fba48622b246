import { execFileSync } from 'node:child_process';

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { sha512Crypt, sha512CryptSalt } from './sha512-crypt.js';

// Debian's `openssl`; .ci/run installs it when missing.
const OPENSSL = '/usr/bin/openssl';

describe('SHA-512-crypt', () => {
  // The test vectors published with Drepper's specification ("Unix crypt using SHA-256 and SHA-512").
  it.each([
    [
      'Hello world!',
      'saltstring',
      undefined,
      '$6$saltstring$svn8UoSVapNtMuq1ukKS4tPQd8iKwSMHWjl/O817G3uBnIFNjnQJuesI68u4OTLiBFdcbYEdFCoEOfaS35inz1',
    ],
    [
      'Hello world!',
      'saltstringsaltstring',
      10000,
      '$6$rounds=10000$saltstringsaltst$OW1/O6BYHV6BcXZu8QVeXbDWra3Oeqh0sbHbbMCVNSnCM/UrjmM0Dp8vOuZeHBy/YTBmSK6H9qs/y3RnOaw5v.',
    ],
    [
      'This is just a test',
      'toolongsaltstring',
      5000,
      '$6$rounds=5000$toolongsaltstrin$lQ8jolhgVRVhY4b5pZKaysCLi0QBxGoNeKQzQ3glMhwllF7oGDZxUhx1yxdYcz/e1JSbq3y6JMxxl8audkUEm0',
    ],
    [
      'a very much longer text to encrypt.  This one even stretches over morethan one line.',
      'anotherlongsaltstring',
      1400,
      '$6$rounds=1400$anotherlongsalts$POfYwTEok97VWcjxIiSOjiykti.o/pQs.wPvMxQ6Fm7I6IoYN3CmLs66x9t0oSwbtEW7o7UmJEiDwGqd8p4ur1',
    ],
    [
      'we have a short salt string but not a short password',
      'short',
      77777,
      '$6$rounds=77777$short$WuQyW2YR.hBNpjjRhpYD/ifIw05xdfeEyQoMxIXbkvr0gge1a1x3yRULJ5CCaUeOxFmtlcGZelFl5CxtgfiAc0',
    ],
    [
      'a short string',
      'asaltof16chars..',
      123456,
      '$6$rounds=123456$asaltof16chars..$BtCwjqMJGx5hrJhZywWvt0RLE8uZ4oPwcelCjmw2kSYu.Ec6ycULevoBK25fs2xXgMNrCzIMVcgEJAstJeonj1',
    ],
  ])('hashes %j with the salt %s as the specification does', (password, salt, rounds, expected) => {
    expect(sha512Crypt(password, salt, rounds)).toBe(expected);
  });

  it('refuses rounds outside the specification and salts outside its alphabet', () => {
    expect(() => sha512Crypt('pw', 'salt', 999)).toThrow(/rounds/);
    expect(() => sha512Crypt('pw', 'salt', 1_000_000_000)).toThrow(/rounds/);
    expect(() => sha512Crypt('pw', 'salt', 1500.5)).toThrow(/rounds/);
    expect(() => sha512Crypt('pw', 'salt$6$', 5000)).toThrow(/salt/);
    expect(() => sha512Crypt('pw', 'sält')).toThrow(/salt/);
  });

  it('makes salts of 16 characters of the crypt alphabet from random bytes', () => {
    const salt = sha512CryptSalt(Uint8Array.from({ length: 16 }, (_, i) => i * 17));
    expect(salt).toMatch(/^[./0-9A-Za-z]{16}$/);
    expect(sha512CryptSalt(new Uint8Array(32))).toBe('.'.repeat(16));
  });

  it('agrees with openssl passwd -6 on any password and salt', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 80 }).filter((p) => !p.startsWith('-')),
        fc.string({
          unit: fc.constantFrom(
            ...Array.from('./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'),
          ),
          minLength: 1,
          maxLength: 16,
        }),
        (password, salt) => {
          const expected = execFileSync(OPENSSL, ['passwd', '-6', '-salt', salt, password], {
            encoding: 'utf8',
          });
          expect(sha512Crypt(password, salt)).toBe(expected.trim());
        },
      ),
      { numRuns: 25 },
    );
  });
});
