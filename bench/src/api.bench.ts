import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';

import { figureReporter, reportFigure } from './bench-result.js';
import { cpuSeconds, formatResidentMemory, readResidentMemory } from './process-usage.js';
import { repoPath, TSX_LOADER } from '@noderings/e2e/tsx-child';

const BENCH = 'api';
const CONTROL_PLANE_MAIN = repoPath('apps/control-plane/src/main.ts');
/** The machine's PostgreSQL server (trust auth), as the control plane's integration tests use it. */
const SERVER_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const PGBENCH = '/usr/bin/pgbench';

const CONNECTIONS = 50;
const PGBENCH_THREADS = 2;
const WARMUP_SECONDS = 1;
const NODES = 50;
const PAGE_SIZE = 20;
const GET_PATH = `/v1/nodes?page=0&pageSize=${PAGE_SIZE}`;
/**
 * What POST /v1/regions could conceivably reach here, with room to spare: it sizes the seeded
 * organisations so that every request gets a (city, datacenter) its organisation does not have yet.
 */
const POST_RATE_CEILING = 10_000;
const GIB = 2 ** 30;
/** A synced node's inventory as the metrics sync writes it, so that every node serialises in full. */
const INVENTORY = {
  cpuCores: 64,
  cpuCoresAllocated: 48,
  memoryBytes: 256 * GIB,
  memoryAllocatedBytes: 160 * GIB,
  storagePools: [
    { storageId: 'local-lvm', totalBytes: 1800 * GIB, allocatedBytes: 900 * GIB },
    { storageId: 'local', totalBytes: 100 * GIB, allocatedBytes: 20 * GIB },
  ],
};

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 10_000;
/** The control plane logs at warn; this much of what it says is kept for the report. */
const LOG_TAIL_CHARS = 4000;

interface Database {
  readonly name: string;
  readonly url: string;
}

/** A fresh database on the machine's server; the control plane migrates it when it starts. */
async function createDatabase(): Promise<Database> {
  const name = `nr_bench_${randomBytes(6).toString('hex')}`;
  await withServer((client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return { name, url: url.toString() };
}

async function dropDatabase(database: Database | undefined): Promise<void> {
  if (database === undefined) return;
  await withServer((client) => client.query(`DROP DATABASE IF EXISTS ${database.name} WITH (FORCE)`));
}

async function withServer<T>(work: (client: pg.Client) => Promise<T>, url = SERVER_URL): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (address === null || typeof address === 'string') throw new Error('no TCP port to listen on');
  return address.port;
}

interface ControlPlane {
  readonly child: ChildProcess;
  readonly url: string;
  /** The last of what it printed (warnings and errors only, at LOG_LEVEL=warn). */
  log: string;
  logLines: number;
}

/**
 * The control plane as `npm run control-plane` runs it, but under `node --import` tsx's loader rather
 * than tsx's CLI, so that the child is the server itself and its resident memory can be read.
 */
async function startControlPlane(databaseUrl: string, dataDir: string): Promise<ControlPlane> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    ['--import', TSX_LOADER, CONTROL_PLANE_MAIN, '--listen', `127.0.0.1:${port}`, '--data-dir', dataDir],
    {
      env: {
        ...process.env,
        DATABASE_URL: databaseUrl,
        NR_SECRET_KEY: randomBytes(32).toString('hex'),
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const cp: ControlPlane = { child, url: `http://127.0.0.1:${port}`, log: '', logLines: 0 };
  const keep = (c: Buffer) => {
    const text = c.toString();
    cp.logLines += text.split('\n').length - 1;
    cp.log = (cp.log + text).slice(-LOG_TAIL_CHARS);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  try {
    await waitUntilReady(cp);
    return cp;
  } catch (e: unknown) {
    await stopProcess(child);
    throw e;
  }
}

/** Polls /readyz, which answers 200 once the schema is migrated and the database reachable. */
async function waitUntilReady(cp: ControlPlane): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (cp.child.exitCode !== null)
      throw new Error(`control plane exited with ${cp.child.exitCode}: ${cp.log}`);
    if (Date.now() > deadline)
      throw new Error(`control plane not ready after ${READY_TIMEOUT_MS / 1000} s: ${cp.log}`);
    const ready = await fetch(`${cp.url}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** SIGTERM, and SIGKILL when it has not exited after STOP_TIMEOUT_MS. */
async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (child?.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => {
      resolve(true);
    }, STOP_TIMEOUT_MS);
  });
  if (await Promise.race([exited.then(() => false), timedOut])) {
    child.kill('SIGKILL');
    await exited;
  }
  clearTimeout(timer);
}

interface Provider {
  readonly organizationId: string;
  readonly token: string;
}

/**
 * Verified provider organisations, each with an owner signed in: the session tokens are made here and
 * only their SHA-256 is stored, as the control plane stores the tokens it issues.
 */
async function seedProviders(client: pg.Client, count: number): Promise<Provider[]> {
  const rows = Array.from({ length: count }, () => ({
    organizationId: randomUUID(),
    userId: randomUUID(),
    token: `nrs_${randomBytes(32).toString('base64url')}`,
  }));
  const columns = [rows.map((r) => r.organizationId), rows.map((r) => r.userId), rows.map((r) => r.token)];
  const input = `unnest($1::uuid[], $2::uuid[], $3::text[]) WITH ORDINALITY AS input (organization_id, user_id, token, n)`;
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO organizations (id, name, type, is_verified, verified_at)
     SELECT organization_id, 'Bench provider ' || n, 'ORGANIZATION_TYPE_PROVIDER', true, now() FROM ${input}`,
    columns,
  );
  await client.query(
    `INSERT INTO users (id, email, password_hash)
     SELECT user_id, 'bench-' || user_id || '@example.test', '!no password' FROM ${input}`,
    columns,
  );
  await client.query(
    `INSERT INTO memberships (organization_id, user_id, role) SELECT organization_id, user_id, 'owner' FROM ${input}`,
    columns,
  );
  // last_used_at now: the run measures requests, not the once-a-minute bookkeeping of a token's first use.
  await client.query(
    `INSERT INTO access_tokens (token_hash, kind, user_id, expires_at, last_used_at)
     SELECT sha256(convert_to(token, 'UTF8')), 'session', user_id, now() + interval '1 day', now() FROM ${input}`,
    columns,
  );
  await client.query('COMMIT');
  return rows.map(({ organizationId, token }) => ({ organizationId, token }));
}

/** One platform, one region and `count` nodes, created a second apart so that their order is fixed. */
async function seedNodes(
  client: pg.Client,
  organizationId: string,
  region: Combination,
  count: number,
): Promise<void> {
  const platform = await client.query<{ id: string }>(
    `INSERT INTO platforms (organization_id, name, endpoint_url, driver, service_status)
     VALUES ($1, 'pve-bench', 'https://pve.bench.example:8006', 'PLATFORM_DRIVER_PROXMOX', 'SERVICE_STATUS_ONLINE') RETURNING id`,
    [organizationId],
  );
  const regionRow = await client.query<{ id: string }>(
    `INSERT INTO regions (organization_id, city_id, datacenter_id) VALUES ($1, $2, $3) RETURNING id`,
    [organizationId, region.cityCountryId, region.datacenterId],
  );
  await client.query(
    `INSERT INTO nodes (organization_id, platform_id, region_id, name, service_status, maintenance_mode,
       vmid_seed, vm_storage_destination, backup_storage_destination, backup_storage_compression,
       cpu_overallocate_percent, memory_overallocate_percent, storage_overallocate_percent, compute_type,
       network_bridge, network_name, network_model, network_vlan_id, mac_address_prefix, proxmox_cpu_type,
       inventory, created_at)
     SELECT $1, $2, $3, 'pve' || n, 'SERVICE_STATUS_ONLINE', false,
       n * 10000, 'local-lvm', 'local', 'BACKUP_STORAGE_COMPRESSION_ZSTD',
       200, 120, 150, 'NODE_COMPUTE_TYPE_SHARED',
       'vmbr0', 'net0', 'virtio', 0, 'BC:24:11', 'host',
       $5::jsonb,
       now() - make_interval(secs => $4 - n)
     FROM generate_series(1, $4::int) AS n`,
    [organizationId, platform.rows[0]?.id, regionRow.rows[0]?.id, count, JSON.stringify(INVENTORY)],
  );
}

interface Combination {
  readonly cityCountryId: string;
  readonly datacenterId: string;
}

/**
 * Every (city, datacenter) one organisation can have a region in, from the public catalogue routes:
 * each city with the provider's own facility, and each named datacenter with its own city.
 */
async function fetchCombinations(baseUrl: string): Promise<Combination[]> {
  const { countries } = (await (await fetch(`${baseUrl}/v1/countries-cities`)).json()) as {
    countries: { cities: { id: string }[] }[];
  };
  const { datacenters } = (await (await fetch(`${baseUrl}/v1/datacenters`)).json()) as {
    datacenters: { id: string; cityId: string }[];
  };
  const cityIds = countries.flatMap((c) => c.cities.map((city) => city.id));
  return cityIds.flatMap((cityCountryId) =>
    datacenters
      .filter((d) => d.cityId === '' || d.cityId === cityCountryId)
      .map((d) => ({ cityCountryId, datacenterId: d.id })),
  );
}

interface Load {
  readonly rate: number;
  readonly requests: number;
  readonly seconds: number;
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly max: number;
  readonly non2xx: number;
  readonly errors: number;
  /** CPU time over the run, in cores: the control plane's, and autocannon's (this process). */
  readonly cores: number;
  readonly driverCores: number;
}

async function cannon(options: autocannon.Options, pid: number | undefined): Promise<Load> {
  const cpuBefore = await cpuSeconds(pid);
  const driverBefore = process.cpuUsage();
  const r = await autocannon({ connections: CONNECTIONS, ...options });
  const driver = process.cpuUsage(driverBefore);
  const cpu = (await cpuSeconds(pid)) - cpuBefore;
  return {
    rate: r.requests.total / r.duration,
    requests: r.requests.total,
    seconds: r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    cores: cpu / r.duration,
    driverCores: (driver.user + driver.system) / 1e6 / r.duration,
  };
}

/** A warm-up of WARMUP_SECONDS, then the measured run; `options` is asked again for each. */
async function warmThenMeasure(
  options: () => autocannon.Options,
  seconds: number,
  pid: number | undefined,
): Promise<Load> {
  const warmup = await cannon({ ...options(), duration: WARMUP_SECONDS }, pid);
  if (warmup.non2xx > 0 || warmup.errors > 0)
    process.stdout.write(`  (warm-up: ${warmup.non2xx} non-2xx, ${warmup.errors} errors)\n`);
  return cannon({ ...options(), duration: seconds }, pid);
}

/**
 * Hands out each (organisation, combination) once, organisations round-robin, so that no POST collides
 * with an earlier one.
 */
class FreshRegions {
  private next = 0;

  constructor(
    private readonly providers: readonly Provider[],
    private readonly combinations: readonly Combination[],
  ) {}

  get remaining(): number {
    return this.providers.length * this.combinations.length - this.next;
  }

  /** Past the end it repeats the last one, which the control plane refuses with 409: a visible non-2xx. */
  take(): { provider: Provider; combination: Combination } {
    const i = Math.min(this.next, this.providers.length * this.combinations.length - 1);
    this.next += 1;
    const provider = this.providers[i % this.providers.length];
    const combination = this.combinations[Math.floor(i / this.providers.length)];
    if (provider === undefined || combination === undefined) throw new Error('no organisation seeded');
    return { provider, combination };
  }
}

/** Ends the run early, rather than sending a duplicate, when the fresh regions run out. */
function postRegionOptions(url: string, fresh: FreshRegions): autocannon.Options {
  // Each connection prepares its next request before it sends it: one spare per connection.
  const requests = fresh.remaining - CONNECTIONS;
  if (requests < CONNECTIONS) throw new Error('out of fresh regions: raise POST_RATE_CEILING');
  return {
    url,
    maxOverallRequests: requests,
    requests: [
      {
        method: 'POST',
        path: '/v1/regions',
        setupRequest: (request) => {
          const { provider, combination } = fresh.take();
          return {
            ...request,
            headers: {
              authorization: `Bearer ${provider.token}`,
              'x-organization-id': provider.organizationId,
              'content-type': 'application/json',
            },
            body: JSON.stringify(combination),
          };
        },
      },
    ],
  };
}

interface PgbenchResult {
  readonly tps: number;
  readonly failed: string;
}

/** pgbench at the API's concurrency against the bench database; `tps` is without connection time. */
async function pgbench(
  databaseUrl: string,
  scriptFile: string,
  seconds: number,
  variables: Record<string, string>,
): Promise<PgbenchResult> {
  const url = new URL(databaseUrl);
  const args = [
    ...['-h', url.hostname, '-p', url.port || '5432', '-U', decodeURIComponent(url.username)],
    ...['-c', String(CONNECTIONS), '-j', String(PGBENCH_THREADS), '-T', String(seconds)],
    ...['-n', '-M', 'prepared', '-f', scriptFile],
    ...Object.entries(variables).flatMap(([k, v]) => ['-D', `${k}=${v}`]),
    url.pathname.slice(1),
  ];
  const child = spawn(PGBENCH, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  const tps = /^tps = ([\d.]+)/m.exec(output)?.[1];
  if (code !== 0 || tps === undefined)
    throw new Error(`pgbench ${args.join(' ')} failed (${code}): ${output}`);
  return { tps: Number(tps), failed: /number of failed transactions: (\d+)/.exec(output)?.[1] ?? '0' };
}

const PGBENCH_READ = `SELECT * FROM nodes WHERE organization_id = :org ORDER BY created_at, id LIMIT ${PAGE_SIZE};\n`;
/** Shaped like regions: same columns, defaults, primary key, unique index and foreign key. */
const SCRATCH_TABLE = [
  'CREATE TABLE bench_regions (LIKE regions INCLUDING ALL)',
  'ALTER TABLE bench_regions ADD FOREIGN KEY (organization_id) REFERENCES organizations (id) ON DELETE CASCADE',
];
const PGBENCH_WRITE = `\\set city random(1, 1000000000000000000)
BEGIN;
INSERT INTO bench_regions (organization_id, city_id, datacenter_id) VALUES (:org, :city, 'own-facility');
COMMIT;
`;

/** A pino line as `msg: err.message`, anything else as it is. */
function lastLogLine(log: string): string {
  const line = log.trim().split('\n').at(-1) ?? '';
  try {
    const entry = JSON.parse(line) as { msg?: unknown; err?: { message?: unknown } };
    return `${String(entry.msg)}: ${String(entry.err?.message)}`;
  } catch {
    return line;
  }
}

function loadRow(name: string, l: Load): string {
  const ms = (v: number) => `${v.toFixed(1).padStart(6)} ms`;
  return `${name.padEnd(34)} ${l.rate.toFixed(0).padStart(7)} req/s  p50 ${ms(l.p50)}  p90 ${ms(l.p90)}  p99 ${ms(l.p99)}  max ${ms(l.max)}  non-2xx ${l.non2xx}  errors ${l.errors}  CPU cores: control plane ${l.cores.toFixed(2)}, autocannon ${l.driverCores.toFixed(2)}  (${l.requests} in ${l.seconds.toFixed(1)} s)`;
}

/** BENCH_RESULT lines for one autocannon run, its rate next to pgbench's at the same concurrency. */
function reportLoad(request: string, api: Load, db: PgbenchResult): void {
  const report = figureReporter(BENCH);
  const figure = (name: string, value: number, unit: string) => {
    report(`${request}_${name}`, value, unit);
  };
  reportFigure({
    bench: BENCH,
    figure: `${request}_req_per_s`,
    value: api.rate,
    unit: 'req/s',
    anchor: 'pgbench',
    anchorValue: db.tps,
  });
  figure('p50_ms', api.p50, 'ms');
  figure('p90_ms', api.p90, 'ms');
  figure('p99_ms', api.p99, 'ms');
  figure('max_ms', api.max, 'ms');
  figure('non_2xx', api.non2xx, 'requests');
  figure('errors', api.errors, 'requests');
  figure('control_plane_cores', api.cores, 'cores');
  figure('pgbench_tps', db.tps, 'tps');
}

function comparisonRow(name: string, api: Load, db: PgbenchResult): string {
  return `${name.padEnd(34)} ${api.rate.toFixed(0).padStart(10)} ${db.tps.toFixed(0).padStart(12)} ${(api.rate / db.tps).toFixed(3).padStart(12)}`;
}

/**
 * The control plane in its own process against a fresh PostgreSQL database, driven over HTTP at 50
 * connections: a page of nodes (read) and region creates (write), each next to what PostgreSQL alone
 * does at the same concurrency for a comparable one-row statement or transaction.
 */
export async function apiBenchmark(seconds: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'api-bench-'));
  let database: Database | undefined;
  let cp: ControlPlane | undefined;
  try {
    database = await createDatabase();
    cp = await startControlPlane(database.url, dir);
    const combinations = await fetchCombinations(cp.url);
    const [reader, ...writers] = await withServer(async (client) => {
      const providers = await seedProviders(
        client,
        1 + Math.ceil(((seconds + WARMUP_SECONDS) * POST_RATE_CEILING) / combinations.length),
      );
      const first = combinations[0];
      if (providers[0] === undefined || first === undefined) throw new Error('empty catalogue');
      await seedNodes(client, providers[0].organizationId, first, NODES);
      for (const statement of SCRATCH_TABLE) await client.query(statement);
      return providers;
    }, database.url);
    if (reader === undefined) throw new Error('nothing seeded');
    const fresh = new FreshRegions(writers, combinations);
    process.stdout.write(
      `api benchmark: control plane in its own process on PostgreSQL (${database.name}), ${CONNECTIONS} connections, ${seconds} s per run after ${WARMUP_SECONDS} s of warm-up, Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)}\n` +
        `seeded: 1 provider with 1 platform, 1 region and ${NODES} nodes; ${writers.length} providers x ${combinations.length} (city, datacenter) = ${fresh.remaining} fresh regions\n`,
    );

    const headers = { authorization: `Bearer ${reader.token}`, 'x-organization-id': reader.organizationId };
    const probe = await fetch(`${cp.url}${GET_PATH}`, { headers });
    const body = await probe.text();
    // The seeding and the token are right only when the first call sees every node.
    if (probe.status !== 200 || (JSON.parse(body) as { totalCount?: unknown }).totalCount !== NODES)
      throw new Error(`GET ${GET_PATH} answered ${probe.status}: ${body.slice(0, 500)}`);
    const cpUrl = cp.url;
    const get = await warmThenMeasure(() => ({ url: `${cpUrl}${GET_PATH}`, headers }), seconds, cp.child.pid);
    process.stdout.write(`${loadRow(`GET ${GET_PATH}`, get)}\n`);
    const post = await warmThenMeasure(() => postRegionOptions(cpUrl, fresh), seconds, cp.child.pid);
    process.stdout.write(`${loadRow('POST /v1/regions', post)}\n`);
    if (fresh.remaining < 2 * CONNECTIONS)
      process.stdout.write(`  (the fresh regions ran out after ${post.seconds.toFixed(1)} s)\n`);
    const memory = await readResidentMemory(cp.child.pid);

    const readScript = join(dir, 'read.sql');
    const writeScript = join(dir, 'write.sql');
    await writeFile(readScript, PGBENCH_READ);
    await writeFile(writeScript, PGBENCH_WRITE);
    const org = { org: reader.organizationId };
    // pgbench counts whole seconds.
    const pgbenchSeconds = Math.max(1, Math.round(seconds));
    const dbRead = await pgbench(database.url, readScript, pgbenchSeconds, org);
    const dbWrite = await pgbench(database.url, writeScript, pgbenchSeconds, org);
    process.stdout.write(
      [
        '',
        `pgbench -c ${CONNECTIONS} -j ${PGBENCH_THREADS} -T ${pgbenchSeconds} -n -M prepared, same database:`,
        `  read:  ${PGBENCH_READ.trim()}`,
        '         one round trip, no explicit transaction; :org is the organisation of the 50 nodes',
        `  write: ${PGBENCH_WRITE.trim().split('\n').slice(1).join(' ')}`,
        `         :city random; bench_regions is ${SCRATCH_TABLE.join('; ')}`,
        `  failed transactions: read ${dbRead.failed}, write ${dbWrite.failed}`,
        '',
        `${''.padEnd(34)} ${'API req/s'.padStart(10)} ${'pgbench tps'.padStart(12)} ${'API/pgbench'.padStart(12)}`,
        comparisonRow(`GET ${GET_PATH}`, get, dbRead),
        comparisonRow('POST /v1/regions', post, dbWrite),
        '',
        `control plane resident memory after the runs: ${formatResidentMemory(memory)}`,
        ...(cp.logLines === 0
          ? []
          : [`control plane logged ${cp.logLines} lines at warn or above; the last: ${lastLogLine(cp.log)}`]),
        '',
      ].join('\n'),
    );
    reportLoad('get_nodes', get, dbRead);
    reportLoad('post_regions', post, dbWrite);
    if (typeof memory !== 'string') {
      reportFigure({ bench: BENCH, figure: 'control_plane_rss_mib', value: memory.rssMiB, unit: 'MiB' });
      reportFigure({
        bench: BENCH,
        figure: 'control_plane_peak_rss_mib',
        value: memory.peakMiB,
        unit: 'MiB',
      });
    }
  } finally {
    await stopProcess(cp?.child);
    await dropDatabase(database);
    await rm(dir, { recursive: true, force: true });
  }
}
