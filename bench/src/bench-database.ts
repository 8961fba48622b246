import { randomBytes } from 'node:crypto';

import pg from 'pg';

/** The machine's PostgreSQL server (trust auth), as the control plane's integration tests use it. */
export const SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/** One client to `url` for `work`, closed after it whatever happens. */
export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** A fresh database `nr_bench_<random>` on the server for `work`, dropped after it (also on failure). */
export async function withScratchDatabase<T>(
  work: (database: { name: string; url: string }) => Promise<T>,
): Promise<T> {
  const name = `nr_bench_${randomBytes(6).toString('hex')}`;
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  try {
    return await work({ name, url: url.toString() });
  } finally {
    await withClient(SERVER_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
