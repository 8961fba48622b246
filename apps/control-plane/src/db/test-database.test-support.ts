import { randomBytes } from 'node:crypto';

import pg from 'pg';

import type { DatabaseLocation } from './database.js';

/** The two databases every repository and route test runs against. */
export const DATABASE_KINDS = ['embedded', 'postgres'] as const;
export type DatabaseKind = (typeof DATABASE_KINDS)[number];

/** The machine's PostgreSQL server (trust auth); each test database is created on it and dropped after. */
const SERVER_URL = process.env.NR_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface TestDatabase {
  readonly location: DatabaseLocation;
  drop(): Promise<void>;
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  if (kind === 'embedded') return { location: { inMemory: true }, drop: () => Promise.resolve() };
  const name = `nr_test_${randomBytes(6).toString('hex')}`;
  await withServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return {
    location: { url: url.toString(), poolSize: 10 },
    drop: () =>
      withServer((client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => undefined,
      ),
  };
}

async function withServer<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: SERVER_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
