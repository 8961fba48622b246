import { randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createClaimService, startControlPlane, type ControlPlane } from '@noderings/control-plane';
import type pg from 'pg';

import { SERVER_URL, withClient } from './bench-database.js';
import { figureReporter } from './bench-result.js';

const BENCH = 'placement';
const CLIENTS = 32;
/** Room for every client plus the few statements the control plane runs on its own. */
const POOL_SIZE = CLIENTS + 8;
const WARMUP_SECONDS = 1;
const NODES = 1000;
const EXISTING_CLAIMS = 10_000;
const NODES_PER_PLAN = 20;
const PLANS = NODES / NODES_PER_PLAN;
/** One Proxmox cluster: every node shares the platform's VMID space, from one seed. */
const VMID_SEED = 1000;
/** Guests NodeRings did not create, per node, high above our VMIDs (still read by every claim). */
const FOREIGN_VMIDS_PER_NODE = 2;
const FOREIGN_VMID_BASE = 900_000;
const MAC_PREFIX = 'BC:24:11';
const IPV4_CIDR = '10.0.0.0/12';
const IPV4_GATEWAY = '10.0.0.1';
const IPV6_CIDR = 'fd00::/64';
const IPV6_GATEWAY = 'fd00::1';
/** How often the lock waits of the bench database are sampled from pg_stat_activity. */
const LOCK_SAMPLE_MS = 10;
const GIB = 2 ** 30;
/** A synced node with room for a few hundred more VMs of the plans, beside some use by other guests. */
const INVENTORY = {
  cpuCores: 64,
  cpuCoresAllocated: 0,
  memoryBytes: 512 * GIB,
  memoryAllocatedBytes: 0,
  storagePools: [{ storageId: 'local-lvm', totalBytes: 8000 * GIB, allocatedBytes: 0 }],
  nonNrCpuCores: 4,
  nonNrMemoryBytes: 16 * GIB,
  nonNrDiskBytes: 200 * GIB,
};

interface World {
  readonly clientOrganizationId: string;
  readonly planIds: readonly string[];
}

function ipv4(index: number): string {
  // 10.0.0.2 onwards: .0 is the network and .1 the gateway.
  const value = 0x0a_00_00_00 + 2 + index;
  return [24, 16, 8, 0].map((shift) => (value >>> shift) & 0xff).join('.');
}

function ipv6(index: number): string {
  return `fd00::${(2 + index).toString(16)}`;
}

function macAddress(suffix: number): string {
  const hex = suffix.toString(16).toUpperCase().padStart(6, '0');
  return `${MAC_PREFIX}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4)}`;
}

/**
 * One provider selling from 1,000 nodes of one platform on one network, with 10,000 claims already held
 * (ten per node, each with its VMID, MAC and two addresses), and a client to order; all in bulk SQL.
 */
async function seed(client: pg.Client): Promise<World> {
  const one = async (text: string, values: unknown[] = []): Promise<string> => {
    const result = await client.query<{ id: string }>(text, values);
    const id = result.rows[0]?.id;
    if (id === undefined) throw new Error(`nothing returned by ${text}`);
    return id;
  };
  await client.query('BEGIN');
  const provider = await one(
    `INSERT INTO organizations (name, type, is_verified, verified_at)
     VALUES ('Bench provider', 'ORGANIZATION_TYPE_PROVIDER', true, now()) RETURNING id`,
  );
  const buyer = await one(
    `INSERT INTO organizations (name, type) VALUES ('Bench client', 'ORGANIZATION_TYPE_CLIENT') RETURNING id`,
  );
  const region = await one(
    `INSERT INTO regions (organization_id, city_id, datacenter_id) VALUES ($1, 'de-fra', 'own-facility') RETURNING id`,
    [provider],
  );
  const agent = await one(
    `INSERT INTO agents (organization_id, name, agent_public_ip, gateway_region, hypervisor_driver, provisioned,
       inbound_peering_state, service_status)
     VALUES ($1, 'bench', '203.0.113.10', 'AGENT_GATEWAY_REGION_AMS01', 'proxmox', true,
       'INBOUND_PEERING_STATE_READY', 'SERVICE_STATUS_ONLINE') RETURNING id`,
    [provider],
  );
  const platform = await one(
    `INSERT INTO platforms (organization_id, name, endpoint_url, driver, agent_id, service_status)
     VALUES ($1, 'pve-bench', 'https://pve.bench.example:8006', 'PLATFORM_DRIVER_PROXMOX', $2, 'SERVICE_STATUS_ONLINE')
     RETURNING id`,
    [provider, agent],
  );
  const network = await one(
    `INSERT INTO ipam_networks (organization_id, name, mac_address_prefix) VALUES ($1, 'public', $2) RETURNING id`,
    [provider, MAC_PREFIX],
  );
  const lastIpv4 = ipv4(EXISTING_CLAIMS - 1);
  const lastIpv6 = ipv6(EXISTING_CLAIMS - 1);
  const prefixV4 = await one(
    `INSERT INTO ipam_prefixes (organization_id, network_id, cidr, family, gateway, allocation_strategy,
       vm_assignment_prefix_length, last_allocated)
     VALUES ($1, $2, $3, 'ipv4', $4, 'ALLOCATION_STRATEGY_SEQUENTIAL', 32, $5) RETURNING id`,
    [provider, network, IPV4_CIDR, IPV4_GATEWAY, lastIpv4],
  );
  const prefixV6 = await one(
    `INSERT INTO ipam_prefixes (organization_id, network_id, cidr, family, gateway, allocation_strategy,
       vm_assignment_prefix_length, last_allocated)
     VALUES ($1, $2, $3, 'ipv6', $4, 'ALLOCATION_STRATEGY_SEQUENTIAL', 128, $5) RETURNING id`,
    [provider, network, IPV6_CIDR, IPV6_GATEWAY, lastIpv6],
  );
  const nodeIds = (
    await client.query<{ id: string }>(
      `INSERT INTO nodes (organization_id, platform_id, region_id, name, service_status, maintenance_mode,
         vmid_seed, vm_storage_destination, backup_storage_destination, backup_storage_compression,
         cpu_overallocate_percent, memory_overallocate_percent, storage_overallocate_percent, compute_type,
         network_bridge, network_name, network_model, network_vlan_id, mac_address_prefix, proxmox_cpu_type,
         inventory, network_id, created_at)
       SELECT $1, $2, $3, 'pve' || n, 'SERVICE_STATUS_ONLINE', false,
         $4, 'local-lvm', 'local', 'BACKUP_STORAGE_COMPRESSION_ZSTD',
         400, 150, 200, 'NODE_COMPUTE_TYPE_SHARED',
         'vmbr0', 'net0', 'virtio', 0, $5, 'host',
         $6::jsonb || jsonb_build_object('foreignVmids',
           (SELECT jsonb_agg($8 + n * $9 + k) FROM generate_series(0, $9 - 1) AS k)),
         $7, now() - make_interval(secs => $10 - n)
       FROM generate_series(1, $10::int) AS n
       RETURNING id`,
      [
        provider,
        platform,
        region,
        VMID_SEED,
        MAC_PREFIX,
        JSON.stringify(INVENTORY),
        network,
        FOREIGN_VMID_BASE,
        FOREIGN_VMIDS_PER_NODE,
        NODES,
      ],
    )
  ).rows.map((r) => r.id);
  // Plans over windows of nodes; each its own disk size, so that their codes differ.
  const planIds = (
    await client.query<{ id: string }>(
      `INSERT INTO plans (organization_id, code, name, compute_category, compute_type, vcpus, ram_gb, disk_gb,
         bandwidth_allowance_gb, bandwidth_period, network_rate_limit_mbps, cpu_units, cpu_limit, billing_type,
         currency, setup_fee, trial_days, is_public, on_credit_exhaustion)
       SELECT $1, 'SC-GC-1C-1G-' || (10 + k), 'Bench ' || k, 'COMPUTE_CATEGORY_SHARED_COMPUTE',
         'COMPUTE_TYPE_GENERAL_COMPUTE', 1, 1, 10 + k, 0, 'BILLING_PERIOD_MONTH', 0, 1024, 0, 'BILLING_TYPE_SUBSCRIPTION',
         'EUR', 0, 0, true, 'suspend'
       FROM generate_series(0, $2::int - 1) AS k ORDER BY k
       RETURNING id`,
      [provider, PLANS],
    )
  ).rows.map((r) => r.id);
  await client.query(
    `INSERT INTO plan_regions (plan_id, region_id, position) SELECT unnest($1::uuid[]), $2, 0`,
    [planIds, region],
  );
  const planOfNode = (node: number) => planIds[Math.floor(node / NODES_PER_PLAN)] ?? '';
  await client.query(
    `INSERT INTO plan_nodes (plan_id, node_id, position)
     SELECT plan_id, node_id, position FROM unnest($1::uuid[], $2::uuid[], $3::int[]) AS t (plan_id, node_id, position)`,
    [nodeIds.map((_, n) => planOfNode(n)), nodeIds, nodeIds.map((_, n) => n % NODES_PER_PLAN)],
  );
  await seedClaims(client, {
    provider,
    buyer,
    platform,
    prefixV4,
    prefixV6,
    nodeIds,
    planOf: (node) => ({ id: planOfNode(node), diskGb: 10 + Math.floor(node / NODES_PER_PLAN) }),
  });
  await client.query('COMMIT');
  await client.query('ANALYZE');
  return { clientOrganizationId: buyer, planIds };
}

/** EXISTING_CLAIMS active claims, round-robin over the nodes, each with its VMID, MAC and two addresses. */
async function seedClaims(
  client: pg.Client,
  s: {
    provider: string;
    buyer: string;
    platform: string;
    prefixV4: string;
    prefixV6: string;
    nodeIds: readonly string[];
    planOf: (node: number) => { id: string; diskGb: number };
  },
): Promise<void> {
  const claims = Array.from({ length: EXISTING_CLAIMS }, (_, i) => {
    const node = i % s.nodeIds.length;
    return {
      id: randomUUID(),
      v4: randomUUID(),
      v6: randomUUID(),
      node: s.nodeIds[node] ?? '',
      plan: s.planOf(node),
      i,
    };
  });
  await client.query(
    `INSERT INTO ip_allocations (id, prefix_id, organization_id, claim_id, address, allocated_cidr, allocation_kind, status)
     SELECT id, prefix_id, $1, claim_id, address, cidr, kind, 'IP_ALLOCATION_STATUS_ACTIVE'
     FROM unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::text[], $6::text[], $7::text[])
       AS t (id, prefix_id, claim_id, address, cidr, kind)`,
    [
      s.provider,
      [...claims.map((c) => c.v4), ...claims.map((c) => c.v6)],
      [...claims.map(() => s.prefixV4), ...claims.map(() => s.prefixV6)],
      [...claims.map((c) => c.id), ...claims.map((c) => c.id)],
      [...claims.map((c) => ipv4(c.i)), ...claims.map((c) => ipv6(c.i))],
      [...claims.map((c) => `${ipv4(c.i)}/12`), ...claims.map((c) => `${ipv6(c.i)}/64`)],
      [...claims.map(() => 'ipv4_host'), ...claims.map(() => 'ipv6_host')],
    ],
  );
  await client.query(
    `INSERT INTO vm_claims (id, client_organization_id, provider_organization_id, plan_id, plan_revision, node_id,
       platform_id, vcpus, ram_gb, disk_gb, vmid, mac_address, ipv4_allocation_id, ipv6_allocation_id, status)
     SELECT id, $1, $2, plan_id, 1, node_id, $3, 1, 1, disk_gb, vmid, mac_address, v4, v6, 'ACTIVE'
     FROM unnest($4::uuid[], $5::uuid[], $6::uuid[], $7::int[], $8::int[], $9::text[], $10::uuid[], $11::uuid[])
       AS t (id, plan_id, node_id, disk_gb, vmid, mac_address, v4, v6)`,
    [
      s.buyer,
      s.provider,
      s.platform,
      claims.map((c) => c.id),
      claims.map((c) => c.plan.id),
      claims.map((c) => c.node),
      claims.map((c) => c.plan.diskGb),
      claims.map((c) => VMID_SEED + c.i),
      claims.map((c) => macAddress(c.i)),
      claims.map((c) => c.v4),
      claims.map((c) => c.v6),
    ],
  );
}

interface Tally {
  readonly latenciesMs: number[];
  aborted: number;
  exhausted: number;
  failed: number;
  lastFailure: string;
}

function codeOf(e: unknown): string | undefined {
  return typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string'
    ? e.code
    : undefined;
}

/** CLIENTS loops claiming on random plans until `until`, each claim in its own transaction. */
async function drive(cp: ControlPlane, world: World, until: number): Promise<Tally> {
  const service = createClaimService(cp.db);
  const tally: Tally = { latenciesMs: [], aborted: 0, exhausted: 0, failed: 0, lastFailure: '' };
  const client = async () => {
    while (performance.now() < until) {
      const planId = world.planIds[Math.floor(Math.random() * world.planIds.length)] ?? '';
      const started = performance.now();
      try {
        await service.claim({
          clientOrganizationId: world.clientOrganizationId,
          planId,
          claimId: randomUUID(),
        });
        tally.latenciesMs.push(performance.now() - started);
      } catch (e: unknown) {
        const code = codeOf(e);
        if (code === 'ABORTED') tally.aborted++;
        else if (code === 'RESOURCE_EXHAUSTED') tally.exhausted++;
        else tally.failed++;
        if (code !== 'ABORTED') tally.lastFailure = e instanceof Error ? e.message : String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  return tally;
}

interface LockWaits {
  samples: number;
  /** Sum over samples of the backends waiting for a lock, by what they wait for. */
  readonly byEvent: Map<string, number>;
}

/** Samples pg_stat_activity until `stop` resolves: how many of the bench's backends wait for a lock. */
async function sampleLockWaits(
  databaseUrl: string,
  databaseName: string,
  stop: Promise<unknown>,
): Promise<LockWaits> {
  const waits: LockWaits = { samples: 0, byEvent: new Map() };
  let stopped = false;
  void stop.finally(() => (stopped = true));
  await withClient(databaseUrl, async (client) => {
    while (!stopped) {
      const rows = await client.query<{ wait_event: string; n: string }>(
        `SELECT wait_event, count(*) AS n FROM pg_stat_activity
         WHERE datname = $1 AND wait_event_type = 'Lock' AND pid <> pg_backend_pid() GROUP BY wait_event`,
        [databaseName],
      );
      waits.samples++;
      for (const r of rows.rows)
        waits.byEvent.set(r.wait_event, (waits.byEvent.get(r.wait_event) ?? 0) + Number(r.n));
      await sleep(LOCK_SAMPLE_MS);
    }
  });
  return waits;
}

async function deadlocks(databaseUrl: string, databaseName: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ deadlocks: string }>(
      'SELECT deadlocks FROM pg_stat_database WHERE datname = $1',
      [databaseName],
    );
    return Number(result.rows[0]?.deadlocks ?? 0);
  });
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/**
 * The claim service in this process, as the order flow calls it, on a fresh PostgreSQL database holding
 * 1,000 nodes and 10,000 active claims: claims/s at 32 concurrent clients, latency, lock waits and aborts.
 */
export async function placementBenchmark(seconds: number): Promise<void> {
  const name = `nr_bench_${randomBytes(6).toString('hex')}`;
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let cp: ControlPlane | undefined;
  try {
    cp = await startControlPlane({
      database: { url: databaseUrl, poolSize: POOL_SIZE },
      secretKey: randomBytes(32),
      logLevel: 'warn',
    });
    const seedStarted = performance.now();
    const world = await withClient(databaseUrl, seed);
    process.stdout.write(
      `placement benchmark: claim service in-process on PostgreSQL (${name}), ${CLIENTS} concurrent clients, pool of ${POOL_SIZE}, ${seconds} s after ${WARMUP_SECONDS} s of warm-up, Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)}\n` +
        `seeded in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s: 1 platform, ${NODES} nodes (${FOREIGN_VMIDS_PER_NODE} foreign VMIDs each), ${PLANS} plans of ${NODES_PER_PLAN} nodes, ${EXISTING_CLAIMS} active claims on one network (${IPV4_CIDR}, ${IPV6_CIDR}, MAC prefix ${MAC_PREFIX}), VMID seed ${VMID_SEED} on every node\n`,
    );
    await drive(cp, world, performance.now() + WARMUP_SECONDS * 1000);
    const deadlocksBefore = await deadlocks(databaseUrl, name);
    const started = performance.now();
    const run = drive(cp, world, started + seconds * 1000);
    const [tally, waits] = await Promise.all([run, sampleLockWaits(SERVER_URL, name, run)]);
    const elapsed = (performance.now() - started) / 1000;
    const sorted = [...tally.latenciesMs].sort((a, b) => a - b);
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const waiting = [...waits.byEvent]
      .sort((a, b) => b[1] - a[1])
      .map(([event, total]) => `${event} ${(total / waits.samples).toFixed(1)}`)
      .join(', ');
    const deadlocked = (await deadlocks(databaseUrl, name)) - deadlocksBefore;
    process.stdout.write(
      [
        `claims/s: ${(sorted.length / elapsed).toFixed(0)} (${sorted.length} claims in ${elapsed.toFixed(1)} s)`,
        `latency:  p50 ${ms(percentile(sorted, 50))}  p95 ${ms(percentile(sorted, 95))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1) ?? NaN)}`,
        `aborted (retryable): ${tally.aborted}, deadlocks: ${deadlocked}, refused (no capacity): ${tally.exhausted}, other failures: ${tally.failed}${tally.lastFailure === '' ? '' : ` (last: ${tally.lastFailure})`}`,
        `lock waits: ${waiting === '' ? 'none seen' : `backends waiting on average, by lock: ${waiting}`} (${waits.samples} samples every ${LOCK_SAMPLE_MS} ms)`,
        '',
      ].join('\n'),
    );
    const figure = figureReporter(BENCH);
    figure(`claims_per_s_${CLIENTS}_clients`, sorted.length / elapsed, 'claims/s');
    figure('claim_p50_ms', percentile(sorted, 50), 'ms');
    figure('claim_p95_ms', percentile(sorted, 95), 'ms');
    figure('claim_p99_ms', percentile(sorted, 99), 'ms');
    figure('claim_max_ms', sorted.at(-1) ?? NaN, 'ms');
    figure('claims_aborted', tally.aborted, 'claims');
    figure('deadlocks', deadlocked, 'deadlocks');
    figure('claims_refused', tally.exhausted, 'claims');
    figure('claims_failed', tally.failed, 'claims');
    const waitingBackends = [...waits.byEvent.values()].reduce((sum, total) => sum + total, 0);
    figure('lock_waiting_backends', waits.samples === 0 ? 0 : waitingBackends / waits.samples, 'backends');
  } finally {
    await cp?.close();
    await withClient(SERVER_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
