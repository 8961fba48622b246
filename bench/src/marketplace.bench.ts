import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startControlPlane, type ControlPlane } from '@noderings/control-plane';
import type pg from 'pg';

import { SERVER_URL, withClient } from './bench-database.js';
import { figureReporter } from './bench-result.js';

const BENCH = 'marketplace';
const PROVIDERS = 50;
const NODES_PER_PROVIDER = 20;
/** Every provider sells every SKU of the grid below: 4 × 5 × 10 = 200 plans each, 10,000 in all. */
const VCPUS = [1, 2, 4, 8];
const RAM_GB = [1, 2, 4, 8, 16];
const DISK_GB = [10, 20, 30, 40, 50, 60, 80, 100, 160, 320];
const PLANS_PER_PROVIDER = VCPUS.length * RAM_GB.length * DISK_GB.length;
/** Each provider has two regions in two of these cities, half its nodes in each. */
const CITY_IDS = [
  'de-fra',
  'nl-ams',
  'gb-lon',
  'fr-par',
  'us-nyc',
  'us-ash',
  'sg-sin',
  'jp-tyo',
  'au-syd',
  'pl-waw',
];
const COUNTRIES = [
  'Germany',
  'Netherlands',
  'United Kingdom',
  'France',
  'United States',
  'Singapore',
  'Japan',
];
const CLIENTS = 8;
const WARMUP_SECONDS = 1;
const GIB = 2 ** 30;
const INVENTORY = {
  cpuCores: 64,
  cpuCoresAllocated: 0,
  memoryBytes: 512 * GIB,
  memoryAllocatedBytes: 0,
  storagePools: [{ storageId: 'local-lvm', totalBytes: 8000 * GIB, allocatedBytes: 1000 * GIB }],
  nonNrCpuCores: 4,
  nonNrMemoryBytes: 16 * GIB,
  nonNrDiskBytes: 200 * GIB,
};
const USER_DATA = '#cloud-config\nhostname: {{ hostname }}\nssh_authorized_keys: {{ ssh_authorized_keys }}\n';

/**
 * 50 verified providers, each with an agent and platform that are up, 20 synced nodes in two regions on
 * a network with a /16, a VM template per node, and 200 public plans (every SKU of the grid) over the 10
 * nodes of a region: 1,000 nodes and 10,000 plans. Bulk SQL, one statement per table.
 */
async function seed(client: pg.Client): Promise<string[]> {
  const ids = async (text: string, values: unknown[]): Promise<string[]> =>
    (await client.query<{ id: string }>(text, values)).rows.map((r) => r.id);
  await client.query('BEGIN');
  const providers = await ids(
    `INSERT INTO organizations (name, type, is_verified, verified_at)
     SELECT 'Provider ' || p, 'ORGANIZATION_TYPE_PROVIDER', true, now() FROM generate_series(1, $1::int) AS p
     RETURNING id`,
    [PROVIDERS],
  );
  const each = (sqlText: string, values: unknown[] = []) =>
    client.query(
      `WITH p AS (SELECT id, row_number() OVER (ORDER BY id) - 1 AS i FROM unnest($1::uuid[]) AS id) ${sqlText}`,
      [providers, ...values],
    );
  await each(
    `INSERT INTO regions (organization_id, city_id, datacenter_id)
     SELECT p.id, ($2::text[])[1 + ((p.i + k) % array_length($2::text[], 1))], 'own-facility-' || k
     FROM p, generate_series(0, 1) AS k`,
    [CITY_IDS],
  );
  await each(
    `INSERT INTO agents (organization_id, name, agent_public_ip, gateway_region, hypervisor_driver, provisioned,
       inbound_peering_state, service_status)
     SELECT p.id, 'agent', '203.0.113.10', 'AGENT_GATEWAY_REGION_AMS01', 'proxmox', true,
       'INBOUND_PEERING_STATE_READY', 'SERVICE_STATUS_ONLINE' FROM p`,
  );
  await each(
    `INSERT INTO platforms (organization_id, name, endpoint_url, driver, agent_id, service_status, metrics_reported_at)
     SELECT p.id, 'pve', 'https://pve' || p.i || '.bench.example:8006', 'PLATFORM_DRIVER_PROXMOX', a.id,
       'SERVICE_STATUS_ONLINE', now()
     FROM p JOIN agents a ON a.organization_id = p.id`,
  );
  await each(
    `INSERT INTO ipam_networks (organization_id, name, mac_address_prefix) SELECT p.id, 'public', 'BC:24:11' FROM p`,
  );
  await each(
    `INSERT INTO ipam_prefixes (organization_id, network_id, cidr, family, gateway, allocation_strategy,
       vm_assignment_prefix_length)
     SELECT p.id, n.id, '10.' || p.i || '.0.0/16', 'ipv4', '10.' || p.i || '.0.1', 'ALLOCATION_STRATEGY_FIRST_AVAILABLE', 32
     FROM p JOIN ipam_networks n ON n.organization_id = p.id`,
  );
  await each(
    `INSERT INTO cloud_init_templates (organization_id, name, user_data, vendor_data, network_data, storage)
     SELECT p.id, 'ubuntu', $2, '', '', 'local' FROM p`,
    [USER_DATA],
  );
  await each(
    `INSERT INTO nodes (organization_id, platform_id, region_id, name, service_status, maintenance_mode,
       vmid_seed, vm_storage_destination, backup_storage_destination, backup_storage_compression,
       cpu_overallocate_percent, memory_overallocate_percent, storage_overallocate_percent, compute_type,
       network_bridge, network_name, network_model, network_vlan_id, mac_address_prefix, proxmox_cpu_type,
       inventory, network_id)
     SELECT p.id, pl.id, r.id, 'pve' || k || '-' || r.datacenter_id, 'SERVICE_STATUS_ONLINE', false,
       1000, 'local-lvm', 'local', 'BACKUP_STORAGE_COMPRESSION_ZSTD', 400, 150, 200, 'NODE_COMPUTE_TYPE_SHARED',
       'vmbr0', 'net0', 'virtio', 0, 'BC:24:11', 'host', $2::jsonb, n.id
     FROM p JOIN platforms pl ON pl.organization_id = p.id JOIN ipam_networks n ON n.organization_id = p.id
       JOIN regions r ON r.organization_id = p.id, generate_series(1, $3::int) AS k`,
    [JSON.stringify(INVENTORY), NODES_PER_PROVIDER / 2],
  );
  await client.query(
    `INSERT INTO vm_templates (organization_id, node_id, cloud_init_template_id, name, distro, template_vmid,
       proxmox_cpu_type)
     SELECT n.organization_id, n.id, c.id, 'ubuntu', 'DISTRO_UBUNTU_24_04', 9000, 'host'
     FROM nodes n JOIN cloud_init_templates c ON c.organization_id = n.organization_id`,
  );
  await each(
    `INSERT INTO plans (organization_id, code, name, compute_category, compute_type, vcpus, ram_gb, disk_gb,
       bandwidth_allowance_gb, bandwidth_period, network_rate_limit_mbps, cpu_units, cpu_limit, billing_type,
       currency, setup_fee, trial_days, is_public, on_credit_exhaustion, created_at)
     SELECT p.id, 'SC-GC-' || v || 'C-' || m || 'G-' || d, 'Plan ' || v || '/' || m || '/' || d,
       'COMPUTE_CATEGORY_SHARED_COMPUTE', 'COMPUTE_TYPE_GENERAL_COMPUTE', v, m, d,
       CASE WHEN p.i % 3 = 0 THEN 0 ELSE 1000 END, 'BILLING_PERIOD_MONTH', 0, 1024, 0, 'BILLING_TYPE_SUBSCRIPTION',
       'EUR', 0, 0, true, 'suspend', now() - make_interval(secs => p.i)
     FROM p, unnest($2::int[]) AS v, unnest($3::int[]) AS m, unnest($4::int[]) AS d`,
    [VCPUS, RAM_GB, DISK_GB],
  );
  await client.query(
    `INSERT INTO plan_prices (plan_id, billing_period, currency, unit_amount)
     SELECT pl.id, 'BILLING_PERIOD_MONTH', 'EUR',
       round((pl.vcpus * 2 + pl.ram_gb + pl.disk_gb * 0.05) * (1 + (abs(hashtext(pl.id::text)) % 40) / 100.0), 2)
     FROM plans pl`,
  );
  await client.query(
    `INSERT INTO plan_regions (plan_id, region_id, position)
     SELECT pl.id, (SELECT r.id FROM regions r WHERE r.organization_id = pl.organization_id
       ORDER BY r.datacenter_id OFFSET (pl.vcpus + pl.ram_gb + pl.disk_gb) % 2 LIMIT 1), 0
     FROM plans pl`,
  );
  await client.query(
    `INSERT INTO plan_nodes (plan_id, node_id, position)
     SELECT pr.plan_id, n.id, row_number() OVER (PARTITION BY pr.plan_id ORDER BY n.name) - 1
     FROM plan_regions pr JOIN nodes n ON n.region_id = pr.region_id`,
  );
  await client.query('COMMIT');
  await client.query('ANALYZE');
  return providers;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

type Kind = 'skus' | 'offers';

/** Each kind of search as its BENCH_RESULT figures name it. */
const FIGURE_PREFIX: Record<Kind, string> = { skus: 'sku_search', offers: 'offer_search' };

function reportSearches(
  latencies: Map<Kind, number[]>,
  perSecond: number,
  preflight: { seconds: number; ready: number },
): void {
  const figure = figureReporter(BENCH);
  figure('preflight_s', preflight.seconds, 's');
  figure('plans_marketplace_ready', preflight.ready, 'plans');
  for (const [kind, values] of latencies) {
    const sorted = [...values].sort((a, b) => a - b);
    figure(`${FIGURE_PREFIX[kind]}_p50_ms`, percentile(sorted, 50), 'ms');
    figure(`${FIGURE_PREFIX[kind]}_p95_ms`, percentile(sorted, 95), 'ms');
    figure(`${FIGURE_PREFIX[kind]}_max_ms`, sorted.at(-1) ?? NaN, 'ms');
  }
  figure(`searches_per_s_${CLIENTS}_clients`, perSecond, 'searches/s');
}

function pick<T>(values: readonly T[]): T {
  return values[Math.floor(Math.random() * values.length)] as T;
}

/** A search a customer might make: SKUs with some filters, or the offers of one SKU somewhere. */
function randomSearch(): { kind: Kind; path: string } {
  const country = encodeURIComponent(pick(COUNTRIES));
  if (Math.random() < 0.5) {
    const filters = [
      `filterCountry=${country}`,
      `filterMinVcpus=${String(pick(VCPUS))}`,
      `filterMinRamGb=${String(pick(RAM_GB))}`,
      'filterMaxMonthlyPrice=30&filterCurrency=EUR',
      'filterUnlimitedBandwidthOnly=true',
    ].filter(() => Math.random() < 0.5);
    return { kind: 'skus', path: `/v1/marketplace/plans?pageSize=20&${filters.join('&')}` };
  }
  const code = `SC-GC-${String(pick(VCPUS))}C-${String(pick(RAM_GB))}G-${String(pick(DISK_GB))}`;
  const where = Math.random() < 0.5 ? `&filterCountry=${country}` : '';
  return { kind: 'offers', path: `/v1/marketplace/providers?pageSize=20&filterPlanCode=${code}${where}` };
}

async function drive(cp: ControlPlane, until: number): Promise<Map<Kind, number[]>> {
  const latencies = new Map<Kind, number[]>([
    ['skus', []],
    ['offers', []],
  ]);
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < until) {
        const { kind, path } = randomSearch();
        const started = performance.now();
        const response = await fetch(`${cp.url}${path}`);
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${path} answered ${String(response.status)}`);
        latencies.get(kind)?.push(performance.now() - started);
      }
    }),
  );
  return latencies;
}

async function waitForPreflight(
  databaseUrl: string,
  plans: number,
): Promise<{ seconds: number; ready: number }> {
  const started = performance.now();
  for (;;) {
    const row = await withClient(databaseUrl, (c) =>
      c.query<{ n: string; ready: string }>(
        'SELECT count(*) AS n, count(*) FILTER (WHERE marketplace_ready) AS ready FROM plan_preflight_results',
      ),
    );
    const evaluated = Number(row.rows[0]?.n);
    if (evaluated >= plans)
      return { seconds: (performance.now() - started) / 1000, ready: Number(row.rows[0]?.ready) };
    await sleep(200);
  }
}

/**
 * Anonymous marketplace searches over HTTP against 10,000 plans of 50 providers over 1,000 nodes, after
 * the control plane's own preflight has evaluated every plan: p50/p95 per kind of search.
 */
export async function marketplaceBenchmark(seconds: number): Promise<void> {
  const name = `nr_bench_${randomBytes(6).toString('hex')}`;
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  const databaseUrl = url.toString();
  let cp: ControlPlane | undefined;
  try {
    // Migrate first, seed, then start for real: the start's preflight sweep evaluates the seeded plans.
    await (
      await startControlPlane({
        database: { url: databaseUrl },
        secretKey: randomBytes(32),
        logLevel: 'warn',
        preflightIntervalSeconds: 0,
      })
    ).close();
    const seedStarted = performance.now();
    await withClient(databaseUrl, seed);
    const seeded = (performance.now() - seedStarted) / 1000;
    cp = await startControlPlane({
      database: { url: databaseUrl },
      secretKey: randomBytes(32),
      logLevel: 'warn',
    });
    const plans = PROVIDERS * PLANS_PER_PROVIDER;
    const preflight = await waitForPreflight(databaseUrl, plans);
    process.stdout.write(
      `marketplace benchmark: anonymous searches over HTTP on PostgreSQL (${name}), ${CLIENTS} concurrent clients, ${seconds} s after ${WARMUP_SECONDS} s of warm-up, Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)}\n` +
        `seeded in ${seeded.toFixed(1)} s: ${PROVIDERS} providers, ${PROVIDERS * NODES_PER_PROVIDER} nodes, ${plans} plans (${PLANS_PER_PROVIDER} SKUs, each offered by every provider) in ${CITY_IDS.length} cities\n` +
        `preflight of every plan by the control plane's start-up sweep: ${preflight.seconds.toFixed(1)} s (${((preflight.seconds * 1000) / PROVIDERS).toFixed(0)} ms per provider of ${PLANS_PER_PROVIDER} plans over ${NODES_PER_PROVIDER} nodes), ${preflight.ready} marketplace-ready\n`,
    );
    await drive(cp, performance.now() + WARMUP_SECONDS * 1000);
    const started = performance.now();
    const latencies = await drive(cp, started + seconds * 1000);
    const elapsed = (performance.now() - started) / 1000;
    const ms = (v: number) => `${v.toFixed(1)} ms`;
    const lines = [...latencies].map(([kind, values]) => {
      const sorted = [...values].sort((a, b) => a - b);
      const what =
        kind === 'skus'
          ? 'SKU search (GET /v1/marketplace/plans)  '
          : 'offer search (GET /v1/marketplace/providers)';
      return `${what}: ${String(sorted.length)} requests, p50 ${ms(percentile(sorted, 50))}  p95 ${ms(percentile(sorted, 95))}  max ${ms(sorted.at(-1) ?? NaN)}`;
    });
    const total = [...latencies.values()].reduce((n, v) => n + v.length, 0);
    process.stdout.write([...lines, `searches/s: ${(total / elapsed).toFixed(0)}`, ''].join('\n'));
    reportSearches(latencies, total / elapsed, preflight);
  } finally {
    await cp?.close();
    await withClient(SERVER_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
