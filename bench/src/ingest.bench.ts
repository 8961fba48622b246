import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

import { startControlPlane, type ControlPlane } from '@noderings/control-plane';
import type pg from 'pg';

import { withClient, withScratchDatabase } from './bench-database.js';
import { figureReporter, reportFigure } from './bench-result.js';
import { fleetScrapePayloads } from './ingest-payloads.js';
import {
  measurePrometheusReceiver,
  measureRemoteWrite,
  type ReceiverMeasurement,
} from './prometheus-receiver.js';

const BENCH = 'ingest';
const VMS = 1000;
const NODES = 10;
const INSTANCE = 'pve.bench.example:8006';
const FIRST_VMID = 100;
/** Requests in flight at once, as a Prometheus agent with a few remote-write shards sends them. */
const CONCURRENCY = 4;
const SCRAPE_INTERVAL_MS = 30_000;

/**
 * A provider with one agent, one platform on `INSTANCE`, `NODES` nodes and `VMS` customer VMs (VMIDs
 * from FIRST_VMID, round-robin over the nodes), and a metrics write credential whose token is returned.
 */
async function seed(client: pg.Client): Promise<{ agentId: string; vmIds: string[]; token: string }> {
  const one = async (text: string, values: unknown[] = []): Promise<string> => {
    const id = (await client.query<{ id: string }>(text, values)).rows[0]?.id;
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
  const agentId = await one(
    `INSERT INTO agents (organization_id, name, agent_public_ip, gateway_region, hypervisor_driver, provisioned,
       inbound_peering_state, service_status)
     VALUES ($1, 'bench', '203.0.113.10', 'AGENT_GATEWAY_REGION_AMS01', 'proxmox', true,
       'INBOUND_PEERING_STATE_READY', 'SERVICE_STATUS_ONLINE') RETURNING id`,
    [provider],
  );
  const platform = await one(
    `INSERT INTO platforms (organization_id, name, endpoint_url, driver, agent_id, service_status)
     VALUES ($1, 'pve-bench', $3, 'PLATFORM_DRIVER_PROXMOX', $2, 'SERVICE_STATUS_OFFLINE') RETURNING id`,
    [provider, agentId, `https://${INSTANCE}`],
  );
  const nodeIds = (
    await client.query<{ id: string }>(
      `INSERT INTO nodes (organization_id, platform_id, region_id, name, service_status, maintenance_mode,
         vmid_seed, vm_storage_destination, backup_storage_destination, backup_storage_compression,
         cpu_overallocate_percent, memory_overallocate_percent, storage_overallocate_percent, compute_type,
         network_bridge, network_name, network_model, network_vlan_id, mac_address_prefix, proxmox_cpu_type)
       SELECT $1, $2, $3, 'pve' || n, 'SERVICE_STATUS_OFFLINE', false, 100, 'local-lvm', 'local',
         'BACKUP_STORAGE_COMPRESSION_ZSTD', 100, 100, 100, 'NODE_COMPUTE_TYPE_SHARED', 'vmbr0', 'net0', 'virtio',
         0, 'BC:24:11', 'host'
       FROM generate_series(1, $4::int) AS n ORDER BY n RETURNING id`,
      [provider, platform, region, NODES],
    )
  ).rows.map((r) => r.id);
  const plan = await one(
    `INSERT INTO plans (organization_id, code, name, compute_category, compute_type, vcpus, ram_gb, disk_gb,
       bandwidth_allowance_gb, bandwidth_period, network_rate_limit_mbps, cpu_units, cpu_limit, billing_type,
       currency, setup_fee, trial_days, is_public, on_credit_exhaustion)
     VALUES ($1, 'SC-GC-1C-2G-20', 'Bench', 'COMPUTE_CATEGORY_SHARED_COMPUTE', 'COMPUTE_TYPE_GENERAL_COMPUTE', 1, 2,
       20, 1000, 'BILLING_PERIOD_MONTH', 0, 1024, 0, 'BILLING_TYPE_SUBSCRIPTION', 'EUR', 0, 0, true, 'suspend')
     RETURNING id`,
    [provider],
  );
  await client.query('INSERT INTO plan_regions (plan_id, region_id, position) VALUES ($1, $2, 0)', [
    plan,
    region,
  ]);
  const vmIds = Array.from({ length: VMS }, () => randomUUID());
  const nodeOf = (i: number) => nodeIds[i % NODES] ?? '';
  // Released claims: the VM rows need one each, and ingest does not read them. The VMs are dispatched
  // already (nothing for the dispatcher to do: no agent cluster here).
  await client.query(
    `INSERT INTO vm_claims (id, client_organization_id, provider_organization_id, plan_id, plan_revision, node_id,
       platform_id, vcpus, ram_gb, disk_gb, vmid, mac_address, status, released_at)
     SELECT id, $1, $2, $3, 1, node_id, $4, 1, 2, 20, vmid, 'BC:24:11:00:00:00', 'RELEASED', now()
     FROM unnest($5::uuid[], $6::uuid[], $7::int[]) AS t (id, node_id, vmid)`,
    [
      buyer,
      provider,
      plan,
      platform,
      vmIds,
      vmIds.map((_, i) => nodeOf(i)),
      vmIds.map((_, i) => FIRST_VMID + i),
    ],
  );
  await client.query(
    `INSERT INTO virtual_machines (id, client_organization_id, provider_organization_id, plan_id, agent_id, node_id,
       idempotency_key, request_fingerprint, hostname, distro, spec, cloud_init_ciphertext, dispatched_generation,
       observed_phase)
     SELECT id, $1, $2, $3, $4, node_id, 'bench-' || vmid, '-', 'vm-' || vmid, 'DISTRO_UBUNTU_24_04',
       jsonb_build_object('vmid', vmid), '-', 1, 'Running'
     FROM unnest($5::uuid[], $6::uuid[], $7::int[]) AS t (id, node_id, vmid)`,
    [
      buyer,
      provider,
      plan,
      agentId,
      vmIds,
      vmIds.map((_, i) => nodeOf(i)),
      vmIds.map((_, i) => FIRST_VMID + i),
    ],
  );
  const token = `nrm_${randomBytes(32).toString('base64url')}`;
  await client.query(
    `INSERT INTO metrics_write_credentials (organization_id, agent_id, name, token_hash) VALUES ($1, $2, 'bench', $3)`,
    [provider, agentId, createHash('sha256').update(token, 'utf8').digest()],
  );
  await client.query('COMMIT');
  await client.query('ANALYZE');
  return { agentId, vmIds, token };
}

function line(label: string, m: ReceiverMeasurement): string {
  return `${label.padEnd(34)} ${Math.round(m.samplesPerSecond).toLocaleString('en').padStart(9)} samples/s  (${m.requests} requests in ${m.seconds.toFixed(1)} s, ${m.errors} refused${m.firstError === undefined ? '' : `: ${m.firstError.slice(0, 200)}`})`;
}

/**
 * Remote-write ingest: a 1,000-VM fleet's scrape payloads (after the forwarding rules, 2,000 samples per
 * request, as Prometheus sends them) into the control plane on PostgreSQL, and the same payloads into
 * Prometheus' own remote-write receiver, both over HTTP at the same concurrency.
 */
export async function ingestBenchmark(seconds: number): Promise<void> {
  // Enough scrapes to run about `seconds` at the control plane's expected pace, at least 3.
  const scrapes = Math.max(3, Math.round(seconds));
  await withScratchDatabase(async (database) => {
    let cp: ControlPlane | undefined;
    try {
      cp = await startControlPlane({
        database: { url: database.url, poolSize: 16 },
        secretKey: randomBytes(32),
        logLevel: 'error',
        preflightIntervalSeconds: 0,
      });
      const world = await withClient(database.url, seed);
      const startMs = Date.now() - scrapes * SCRAPE_INTERVAL_MS;
      const payloads = fleetScrapePayloads({
        vms: VMS,
        nodesPerPlatform: NODES,
        scrapes,
        instance: INSTANCE,
        agentId: world.agentId,
        vmName: (i) => `NR-${world.vmIds[i] ?? ''}`,
        startMs,
        intervalMs: SCRAPE_INTERVAL_MS,
      });
      const perScrape = payloads.samples / scrapes;
      process.stdout.write(
        `ingest benchmark: ${VMS} VMs on ${NODES} nodes, ${perScrape.toLocaleString('en')} samples per scrape, ${scrapes} scrapes (${payloads.requests.length} requests of ≤ 2,000 samples), ${CONCURRENCY} in flight, Node ${process.version}, ${cpus().length} CPUs, load average ${loadavg()[0]?.toFixed(1)}\n`,
      );
      const started = performance.now();
      const ours = await measureRemoteWrite(`${cp.url}/api/v1/write`, payloads.requests, {
        concurrency: CONCURRENCY,
        headers: { Authorization: `Bearer ${world.token}` },
      });
      const check = await withClient(database.url, async (client) => {
        const cursors = await client.query<{ n: string }>('SELECT count(*) AS n FROM vm_metric_cursors');
        const online = await client.query<{ n: string }>(
          `SELECT count(*) AS n FROM nodes WHERE service_status = 'SERVICE_STATUS_ONLINE'`,
        );
        return { cursors: Number(cursors.rows[0]?.n), online: Number(online.rows[0]?.n) };
      });
      const prometheus = await measurePrometheusReceiver(payloads.requests, { concurrency: CONCURRENCY });
      const scrapeMs = (perScrape / ours.samplesPerSecond) * 1000;
      process.stdout.write(
        [
          line('control plane (PostgreSQL)', ours),
          line('Prometheus 2.x remote-write receiver', prometheus),
          `ratio control plane / Prometheus: ${(ours.samplesPerSecond / prometheus.samplesPerSecond).toFixed(2)}`,
          `one scrape of the fleet takes the control plane ${scrapeMs.toFixed(0)} ms of a 30 s interval: ${Math.floor((SCRAPE_INTERVAL_MS / 1000) * (ours.samplesPerSecond / perScrape)).toLocaleString('en')} such fleets per replica`,
          `check: ${check.cursors.toLocaleString('en')} VM series tracked (${VMS} VMs × 7), ${check.online}/${NODES} nodes online; run took ${((performance.now() - started) / 1000).toFixed(1)} s`,
          '',
        ].join('\n'),
      );
      const figure = figureReporter(BENCH);
      reportFigure({
        bench: BENCH,
        figure: 'control_plane_samples_per_s',
        value: ours.samplesPerSecond,
        unit: 'samples/s',
        anchor: 'prometheus',
        anchorValue: prometheus.samplesPerSecond,
      });
      figure('prometheus_samples_per_s', prometheus.samplesPerSecond, 'samples/s');
      figure('control_plane_refused_requests', ours.errors, 'requests');
      figure('prometheus_refused_requests', prometheus.errors, 'requests');
      figure('control_plane_ms_per_fleet_scrape', scrapeMs, 'ms');
      figure('vm_series_tracked', check.cursors, 'series');
      figure('nodes_online', check.online, 'nodes');
    } finally {
      await cp?.close();
    }
  });
}
