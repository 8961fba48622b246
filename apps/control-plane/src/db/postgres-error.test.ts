import { AlreadyExistsError, NotFoundError } from '@noderings/domain';
import { describe, expect, it } from 'vitest';

import { translateViolations } from './postgres-error.js';

/** What pg and PGlite throw: the SQLSTATE and, for constraint violations, the constraint's name. */
function sqlError(code: string, constraint?: string): Error {
  return Object.assign(new Error(`sql error ${code}`), { code, constraint });
}

const failing = (e: Error) => Promise.reject(e);

describe('translateViolations', () => {
  it('passes the result through when the work succeeds', async () => {
    await expect(translateViolations(Promise.resolve(7), { unique: () => new Error('no') })).resolves.toBe(7);
  });

  it('rethrows a unique violation as the error its constraint means, and others as they are', async () => {
    const meanings = { unique: { names_key: () => new AlreadyExistsError('The name is taken.') } };
    await expect(translateViolations(failing(sqlError('23505', 'names_key')), meanings)).rejects.toThrow(
      new AlreadyExistsError('The name is taken.'),
    );
    const other = sqlError('23505', 'emails_key');
    await expect(translateViolations(failing(other), meanings)).rejects.toBe(other);
    const inherited = sqlError('23505', 'constructor');
    await expect(translateViolations(failing(inherited), meanings)).rejects.toBe(inherited);
  });

  it('gives one meaning to every constraint of a kind when no name is given', async () => {
    await expect(
      translateViolations(failing(sqlError('23P01', 'any_exclusion')), {
        exclusion: () => new AlreadyExistsError('Overlaps.'),
      }),
    ).rejects.toBeInstanceOf(AlreadyExistsError);
  });

  it('reads ON DELETE RESTRICT as a foreign-key violation, and awaits a meaning that queries', async () => {
    const gone = () => Promise.resolve(new NotFoundError('Gone.'));
    for (const code of ['23503', '23001'])
      await expect(translateViolations(failing(sqlError(code)), { foreignKey: gone })).rejects.toThrow(
        new NotFoundError('Gone.'),
      );
  });

  it('translates an exhausted sequence and a transaction conflict only when asked to', async () => {
    const exhausted = sqlError('2200H');
    await expect(translateViolations(failing(exhausted), { unique: () => new Error('no') })).rejects.toBe(
      exhausted,
    );
    for (const code of ['40P01', '40001'])
      await expect(
        translateViolations(failing(sqlError(code)), { transactionConflict: () => new Error('collided') }),
      ).rejects.toThrow('collided');
  });

  it('leaves errors that are not SQL errors alone', async () => {
    const plain = new Error('boom');
    await expect(
      translateViolations(failing(plain), {
        unique: () => new Error('no'),
        foreignKey: () => new Error('no'),
      }),
    ).rejects.toBe(plain);
  });
});
