import { hash, verify } from '@node-rs/argon2';

/** `Algorithm.Argon2id` of @node-rs/argon2, an ambient const enum that isolated modules cannot read. */
const ARGON2ID_ALGORITHM = 2;

/** OWASP's argon2id recommendation (m = 19 MiB, t = 2, p = 1). */
const ARGON2ID = { algorithm: ARGON2ID_ALGORITHM, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hashed: string, password: string): Promise<boolean>;
}

export const argon2idHasher: PasswordHasher = {
  hash: (password) => hash(password, ARGON2ID),
  verify: (hashed, password) => verify(hashed, password).catch(() => false),
};
