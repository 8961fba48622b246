import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { createProxmoxClient } from '@noderings/proxmox';
import type { ClusterResource, GuestResource, ProxmoxClient } from '@noderings/proxmox';
import { startPveSim } from '@noderings/pve-sim';
import type { PveSim, Scenario } from '@noderings/pve-sim';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';

import { loadExporterConfig } from './exporter-config.js';
import { startPveExporter } from './exporter-server.js';
import type { PveExporter } from './exporter-server.js';
import { find, parseSamples, valueOf } from './exposition-samples.test-support.js';
import type { ParsedSample } from './exposition-samples.test-support.js';

/** The exporter against the Proxmox simulator over real HTTPS, compared with what the simulator holds. */

const ADMIN = { id: 'root@pam!admin', secret: randomUUID() };
/** The exporter's own token: read-only, as upstream recommends (PVEAuditor on /). */
const MONITOR = {
  id: 'prometheus@pve!exporter',
  secret: randomUUID(),
  acl: [{ path: '/', role: 'PVEAuditor' }],
};
const WRONG_SECRET = randomUUID();
const USER = { userid: 'monitor@pve', password: randomUUID(), acl: [{ path: '/', role: 'PVEAuditor' }] };
const WAIT = { pollMinMs: 5, pollMaxMs: 50, timeoutMs: 20_000 };
const GiB = 1024 ** 3;
/** A scrape timeout that leaves the client time for its retries. */
const RELAXED = { 'X-Prometheus-Scrape-Timeout-Seconds': '10' };

/** pve1: a template and a running lab guest; pve2: a template only; pve3: nothing. */
const SCENARIO: Scenario = {
  cluster: 'lab',
  nodes: [
    {
      name: 'pve1',
      vms: [
        {
          vmid: 9000,
          name: 'ubuntu-2404-cloudinit',
          template: true,
          cores: 1,
          memoryMiB: 1024,
          diskGiB: 3.5,
        },
        { vmid: 100, name: 'lab-1', running: true, cores: 2, memoryMiB: 4096, diskGiB: 32, tags: ['lab'] },
      ],
    },
    {
      name: 'pve2',
      vms: [
        { vmid: 9001, name: 'debian-12-cloudinit', template: true, cores: 1, memoryMiB: 1024, diskGiB: 3.5 },
      ],
    },
    { name: 'pve3' },
  ],
};

let sim: PveSim;
let admin: ProxmoxClient;
let exporter: PveExporter;
let dir: string;
const logs: string[] = [];

beforeAll(async () => {
  sim = await startPveSim({ scenario: SCENARIO, taskMs: 5, tokens: [ADMIN, MONITOR], users: [USER] });
  admin = adminClient(sim);
  dir = await mkdtemp(join(tmpdir(), 'pve-exporter-it-'));
  await writeFile(join(dir, 'sim-ca.pem'), sim.certPem);
  const token = (secret: string) => [
    '  user: prometheus@pve',
    '  token_name: exporter',
    `  token_value: "${secret}"`,
  ];
  await writeFile(
    join(dir, 'pve.yml'),
    [
      'default:',
      ...token(MONITOR.secret),
      `  verify_ssl: ${join(dir, 'sim-ca.pem')}`,
      'insecure:',
      ...token(MONITOR.secret),
      '  verify_ssl: false',
      'system-ca:',
      ...token(MONITOR.secret),
      'wrong-secret:',
      ...token(WRONG_SECRET),
      '  verify_ssl: false',
      'password:',
      `  user: ${USER.userid}`,
      `  password: "${USER.password}"`,
      '  verify_ssl: false',
    ].join('\n'),
  );
  const config = await loadExporterConfig({ file: join(dir, 'pve.yml'), env: {} });
  exporter = await startPveExporter({
    config,
    listen: '127.0.0.1:0',
    defaultTimeoutMs: 1_500,
    log: (line) => logs.push(line),
  });
});

afterEach(async () => {
  await simControl(sim, 'DELETE', '/sim/faults');
});

afterAll(async () => {
  await exporter.close();
  await admin.close();
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

function adminClient(target: PveSim): ProxmoxClient {
  return createProxmoxClient({
    baseUrl: target.url,
    token: `${ADMIN.id}=${ADMIN.secret}`,
    tls: { fingerprint: target.fingerprint },
  });
}

interface Scrape {
  status: number;
  contentType: string | null;
  text: string;
  samples: ParsedSample[];
  ms: number;
}

async function scrape(
  query: Record<string, string> = {},
  headers: Record<string, string> = {},
  target: PveSim = sim,
): Promise<Scrape> {
  const params = new URLSearchParams({ target: new URL(target.url).host, ...query });
  const started = Date.now();
  const response = await fetch(`${exporter.url}/pve?${params.toString()}`, { headers });
  const text = await response.text();
  return {
    status: response.status,
    contentType: response.headers.get('content-type'),
    text,
    samples: response.status === 200 ? parseSamples(text) : [],
    ms: Date.now() - started,
  };
}

async function ownMetrics(): Promise<ParsedSample[]> {
  return parseSamples(await (await fetch(`${exporter.url}/metrics`)).text());
}

/** Test control of the simulator (`/sim/…`), over HTTPS with its certificate. */
function simControl(target: PveSim, method: string, path: string, body?: unknown): Promise<unknown> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${target.url}${path}`,
      {
        method,
        ca: target.certPem,
        headers: payload === undefined ? {} : { 'content-type': 'application/json' },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
            data?: unknown;
            error?: string;
          };
          if (res.statusCode === 200) resolve(parsed.data);
          else reject(new Error(`sim control ${method} ${path}: ${parsed.error ?? String(res.statusCode)}`));
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function guests(resources: readonly ClusterResource[]): GuestResource[] {
  return resources.filter((r): r is GuestResource => r.type === 'qemu' || r.type === 'lxc');
}

/** Clones a template and waits; returns the new VMID. */
async function clone(node: string, template: number, name: string, client = admin): Promise<number> {
  const newid = await client.getNextVmid();
  await client.waitForTask(node, await client.cloneVm(node, template, { newid, name }), WAIT);
  return newid;
}

const PER_GUEST_FAMILIES = [
  'pve_up',
  'pve_disk_size_bytes',
  'pve_disk_usage_bytes',
  'pve_memory_size_bytes',
  'pve_memory_usage_bytes',
  'pve_network_transmit_bytes',
  'pve_network_receive_bytes',
  'pve_disk_write_bytes',
  'pve_disk_read_bytes',
  'pve_cpu_usage_ratio',
  'pve_cpu_usage_limit',
  'pve_uptime_seconds',
  'pve_network_transmit_bytes_total',
  'pve_network_receive_bytes_total',
  'pve_disk_written_bytes_total',
  'pve_disk_read_bytes_total',
  'pve_ha_state',
  'pve_lock_state',
  'pve_guest_info',
  'pve_not_backed_up_info',
];

describe('/pve against the simulator', () => {
  test('families, labels and values follow what the simulator holds', async () => {
    const result = await scrape();
    expect(result.status).toBe(200);
    expect(result.contentType).toBe('text/plain; version=0.0.4; charset=utf-8');
    const { samples } = result;
    const resources = await admin.getClusterResources();

    expect(valueOf(samples, 'pve_up', { id: 'cluster/lab' })).toBe(1);
    for (const node of resources.filter((r) => r.type === 'node')) {
      const id = { id: node.id };
      expect(valueOf(samples, 'pve_up', id)).toBe(1);
      expect(valueOf(samples, 'pve_memory_size_bytes', id)).toBe(node.maxmem);
      expect(valueOf(samples, 'pve_cpu_usage_limit', id)).toBe(node.maxcpu);
      expect(valueOf(samples, 'pve_disk_size_bytes', id)).toBe(node.maxdisk);
      expect(find(samples, 'pve_ha_state', id)).toHaveLength(5);
    }
    for (const guest of guests(resources)) {
      const id = { id: guest.id, name: guest.name ?? '', node: guest.node, type: 'qemu' };
      expect(valueOf(samples, 'pve_up', id)).toBe(guest.status === 'running' ? 1 : 0);
      expect(valueOf(samples, 'pve_memory_size_bytes', id)).toBe(guest.maxmem);
      expect(valueOf(samples, 'pve_disk_size_bytes', id)).toBe(guest.maxdisk);
      expect(valueOf(samples, 'pve_cpu_usage_limit', id)).toBe(guest.maxcpu);
      expect(find(samples, 'pve_network_receive_bytes_total', id)).toHaveLength(1);
      expect(find(samples, 'pve_lock_state', id).map((s) => s.value)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0]);
      expect(valueOf(samples, 'pve_guest_info', id)).toBe(1);
    }
    expect(find(samples, 'pve_guest_info', { id: 'qemu/9000' })[0]?.labels).toEqual({
      id: 'qemu/9000',
      name: 'ubuntu-2404-cloudinit',
      node: 'pve1',
      type: 'qemu',
      template: '1',
      tags: '',
    });
    expect(find(samples, 'pve_guest_info', { id: 'qemu/100' })[0]?.labels).toMatchObject({
      template: '0',
      tags: 'lab',
    });
    expect(valueOf(samples, 'pve_up', { id: 'qemu/100' })).toBe(1);
    expect(valueOf(samples, 'pve_up', { id: 'qemu/9000' })).toBe(0);
    expect(valueOf(samples, 'pve_memory_size_bytes', { id: 'qemu/100' })).toBe(4 * GiB);

    for (const storage of resources.filter((r) => r.type === 'storage')) {
      const id = { id: storage.id };
      expect(valueOf(samples, 'pve_up', id)).toBe(1);
      expect(valueOf(samples, 'pve_disk_size_bytes', id)).toBe(storage.maxdisk);
      expect(valueOf(samples, 'pve_disk_usage_bytes', id)).toBe(storage.disk);
      expect(valueOf(samples, 'pve_storage_shared', id)).toBe(0);
    }
    expect(find(samples, 'pve_storage_info', { id: 'storage/pve2/local' })[0]?.labels).toEqual({
      id: 'storage/pve2/local',
      node: 'pve2',
      storage: 'local',
      plugintype: 'dir',
      content: 'backup,import,iso,snippets,vztmpl',
    });

    expect(find(samples, 'pve_cluster_info')[0]?.labels).toEqual({
      id: 'cluster/lab',
      nodes: '3',
      quorate: '1',
      version: '5',
    });
    expect(find(samples, 'pve_node_info').map((s) => s.labels)).toEqual([
      { id: 'node/pve1', level: '', name: 'pve1', nodeid: '1' },
      { id: 'node/pve2', level: '', name: 'pve2', nodeid: '2' },
      { id: 'node/pve3', level: '', name: 'pve3', nodeid: '3' },
    ]);
    expect(find(samples, 'pve_version_info')[0]?.labels).toEqual(
      expect.objectContaining({ release: '8.4', version: '8.4.1' }),
    );
    expect(valueOf(samples, 'pve_not_backed_up_total', { id: 'cluster/lab' })).toBe(guests(resources).length);
    expect(find(samples, 'pve_not_backed_up_info').map((s) => s.labels.id)).toEqual(
      guests(resources).map((g) => g.id),
    );
    expect(find(samples, 'pve_subscription_info')[0]?.labels).toEqual({ id: 'node/pve1', level: 'unknown' });
    expect(find(samples, 'pve_subscription_status', { status: 'notfound' })[0]?.value).toBe(1);
    expect(find(samples, 'pve_subscription_status').filter((s) => s.value === 1)).toHaveLength(1);
    // Families upstream always prints, here without samples: no due date, no replication jobs.
    for (const empty of [
      'pve_subscription_next_due_timestamp_seconds',
      'pve_replication_info',
      'pve_onboot_status',
    ]) {
      expect(result.text).toContain(`# TYPE ${empty} gauge\n`);
      expect(find(samples, empty)).toEqual([]);
    }
    expect(result.text).toContain('# TYPE pve_network_transmit_bytes_total counter\n');
    expect(result.text).not.toContain('pve_qdevice');
  });

  test("non_nr sums per node: the provider's guests, templates for disk only, absent when zero", async () => {
    const { samples } = await scrape();
    const byNode = (name: string): Record<string, number> =>
      Object.fromEntries(find(samples, name).map((s) => [s.labels.node ?? '', s.value]));
    expect(byNode('non_nr_pve_memory_size_bytes')).toEqual({ pve1: 4 * GiB });
    expect(byNode('non_nr_pve_cpu_usage_limit')).toEqual({ pve1: 2 });
    expect(byNode('non_nr_pve_disk_size_bytes')).toEqual({ pve1: 35.5 * GiB, pve2: 3.5 * GiB });
    // Proxmox reports no disk usage for VMs: nothing to sum anywhere.
    expect(byNode('non_nr_pve_disk_usage_bytes')).toEqual({});
  });

  test('NR and lab guests are both served, every per-guest series with name, node and type', async () => {
    const nrName = `NR-${randomUUID()}`;
    const nr = await clone('pve1', 9000, nrName);
    await admin.waitForTask('pve1', await admin.startVm('pve1', nr), WAIT);
    const lab = await clone('pve2', 9001, 'lab-2');

    const { samples } = await scrape();
    const perGuest = samples.filter((s) => /^(qemu|lxc)\//.test(s.labels.id ?? ''));
    expect(new Set(perGuest.map((s) => s.name))).toEqual(new Set(PER_GUEST_FAMILIES));
    const resources = guests(await admin.getClusterResources('vm'));
    for (const sample of perGuest) {
      const guest = resources.find((g) => g.id === sample.labels.id);
      expect(sample.labels, `${sample.name} ${sample.labels.id ?? ''}`).toMatchObject({
        name: guest?.name,
        node: guest?.node,
        type: 'qemu',
      });
    }
    const nrLabels = { id: `qemu/${nr}`, name: nrName, node: 'pve1', type: 'qemu' };
    expect(valueOf(samples, 'pve_up', nrLabels)).toBe(1);
    expect(valueOf(samples, 'pve_memory_size_bytes', nrLabels)).toBe(GiB);
    expect(valueOf(samples, 'pve_not_backed_up_info', nrLabels)).toBe(1);
    expect(valueOf(samples, 'pve_up', { id: `qemu/${lab}`, name: 'lab-2', node: 'pve2', type: 'qemu' })).toBe(
      0,
    );

    // The NR guest leaves pve1's sums alone; the lab clone adds to pve2's.
    expect(valueOf(samples, 'non_nr_pve_memory_size_bytes', { node: 'pve1' })).toBe(4 * GiB);
    expect(valueOf(samples, 'non_nr_pve_memory_size_bytes', { node: 'pve2' })).toBe(GiB);
    expect(valueOf(samples, 'non_nr_pve_cpu_usage_limit', { node: 'pve2' })).toBe(1);
    expect(valueOf(samples, 'non_nr_pve_disk_size_bytes', { node: 'pve2' })).toBe(7 * GiB);
  });

  test('counters start again from zero when the guest restarts', async () => {
    const nr = await clone('pve1', 9000, `NR-${randomUUID()}`);
    await admin.waitForTask('pve1', await admin.startVm('pve1', nr), WAIT);
    const id = { id: `qemu/${nr}` };
    await expect
      .poll(async () => valueOf((await scrape()).samples, 'pve_uptime_seconds', id), { timeout: 5_000 })
      .toBeGreaterThanOrEqual(1);
    const before = (await scrape()).samples;
    await admin.waitForTask('pve1', await admin.stopVm('pve1', nr), WAIT);
    await admin.waitForTask('pve1', await admin.startVm('pve1', nr), WAIT);
    const after = (await scrape()).samples;
    for (const counter of [
      'pve_network_transmit_bytes_total',
      'pve_network_receive_bytes_total',
      'pve_disk_written_bytes_total',
      'pve_disk_read_bytes_total',
    ]) {
      expect(valueOf(before, counter, id), counter).toBeGreaterThan(0);
      expect(valueOf(after, counter, id), counter).toBeLessThan(valueOf(before, counter, id));
    }
    expect(valueOf(after, 'pve_uptime_seconds', id)).toBeLessThan(valueOf(before, 'pve_uptime_seconds', id));
  });

  test("onboot comes from each local guest's config, with the guest's name", async () => {
    await admin.setVmConfig('pve1', 100, { onboot: 1 });
    const { samples } = await scrape();
    expect(find(samples, 'pve_onboot_status')).toEqual([
      {
        name: 'pve_onboot_status',
        labels: { id: 'qemu/100', name: 'lab-1', node: 'pve1', type: 'qemu' },
        value: 1,
      },
    ]);
    await admin.setVmConfig('pve1', 100, { delete: ['onboot'] });
  });

  test('cluster=0 serves only the node families, node=0 only the cluster ones', async () => {
    const names = (s: Scrape) => new Set(s.samples.map((sample) => sample.name));
    const nodeOnly = names(await scrape({ cluster: '0', node: '1' }));
    expect(nodeOnly).toEqual(new Set(['pve_subscription_info', 'pve_subscription_status']));
    const clusterOnly = names(await scrape({ cluster: '1', node: 'false' }));
    expect(clusterOnly.has('pve_up')).toBe(true);
    expect(clusterOnly.has('pve_subscription_info')).toBe(false);
  });
});

describe('a guest without a name yet', () => {
  let lagging: PveSim;
  let lagAdmin: ProxmoxClient;
  beforeAll(async () => {
    // pvestatd's broadcast: names and status in /cluster/resources lag; here by more than the test lasts.
    lagging = await startPveSim({
      scenario: { cluster: 'lag', nodes: [SCENARIO.nodes[0] ?? { name: 'pve1' }] },
      resourcesLagMs: 600_000,
      taskMs: 5,
      tokens: [ADMIN, MONITOR],
    });
    lagAdmin = adminClient(lagging);
  });
  afterAll(async () => {
    await lagAdmin.close();
    await lagging.close();
  });

  test('has no name label on its series, still node and type; pve_guest_info shows the empty name', async () => {
    const vmid = await clone('pve1', 9000, `NR-${randomUUID()}`, lagAdmin);
    const { status, samples } = await scrape({ module: 'insecure' }, {}, lagging);
    expect(status).toBe(200);
    const series = samples.filter((s) => s.labels.id === `qemu/${vmid}` && s.name !== 'pve_guest_info');
    expect(series.length).toBeGreaterThan(0);
    for (const sample of series) {
      expect(sample.labels).not.toHaveProperty('name');
      expect(sample.labels).toMatchObject({ node: 'pve1', type: 'qemu' });
    }
    expect(valueOf(samples, 'pve_up', { id: `qemu/${vmid}` })).toBe(0);
    expect(find(samples, 'pve_guest_info', { id: `qemu/${vmid}` })[0]?.labels.name).toBe('');
  });
});

describe('failures', () => {
  test('the scrape deadline: Prometheus’ timeout less a margin, else --timeout; counted as errors', async () => {
    await simControl(sim, 'POST', '/sim/faults', { path: '^/cluster/resources$', delayMs: 5_000 });
    const errorsBefore = valueOf(await ownMetrics(), 'pve_request_errors_total', { module: 'default' });

    const announced = await scrape({}, { 'X-Prometheus-Scrape-Timeout-Seconds': '1' });
    expect([announced.status, announced.text]).toEqual([500, 'scrape deadline of 0.5 s exceeded\n']);
    expect(announced.ms).toBeLessThan(2_000);

    const fallback = await scrape();
    expect([fallback.status, fallback.text]).toEqual([500, 'scrape deadline of 1.5 s exceeded\n']);
    expect(fallback.ms).toBeGreaterThanOrEqual(1_400);
    expect(fallback.ms).toBeLessThan(4_000);

    expect(valueOf(await ownMetrics(), 'pve_request_errors_total', { module: 'default' })).toBe(
      errorsBefore + 2,
    );
    expect(logs.at(-1)).toBe(
      'scrape of target "' +
        new URL(sim.url).host +
        '" with module "default" failed: scrape deadline of 1.5 s exceeded',
    );
  });

  test('bad credentials answer 500 with the reason; the secret appears nowhere', async () => {
    const result = await scrape({ module: 'wrong-secret' });
    expect(result.status).toBe(500);
    expect(result.text).toMatch(/^GET \/[a-z/-]+: 401 Authentication failed!\n$/);
    for (const secret of [WRONG_SECRET, MONITOR.secret]) {
      expect(result.text).not.toContain(secret);
      expect(logs.join('\n')).not.toContain(secret);
    }
    expect(valueOf(await ownMetrics(), 'pve_request_errors_total', { module: 'wrong-secret' })).toBe(1);
  });

  test('a Proxmox 5xx answers 500 with its message', async () => {
    await simControl(sim, 'POST', '/sim/faults', {
      path: '^/version$',
      status: 500,
      message: 'pveproxy overloaded',
    });
    // Retried (a GET after an unclassified 5xx) before it fails: more time than the default deadline.
    const result = await scrape({ cluster: '1', node: '0' }, RELAXED);
    expect([result.status, result.text]).toEqual([500, 'GET /version: 500 pveproxy overloaded\n']);
  });

  test('TLS: the system CAs refuse the self-signed certificate; verify_ssl false or its CA file accept it', async () => {
    const refused = await scrape({ module: 'system-ca' });
    expect(refused.status).toBe(500);
    expect(refused.text).toMatch(/certificate/i);
    expect((await scrape({ module: 'insecure' })).status).toBe(200);
    expect((await scrape({ module: 'default' })).status).toBe(200);
  });

  test('a password module logs in for a ticket; its password appears nowhere either', async () => {
    const result = await scrape({ module: 'password' });
    expect(result.status).toBe(200);
    expect(valueOf(result.samples, 'pve_up', { id: 'cluster/lab' })).toBe(1);
    const refused = await scrape({ module: 'password', target: '127.0.0.1:1' }, RELAXED);
    expect(refused.text).not.toContain(USER.password);
    expect(logs.join('\n')).not.toContain(USER.password);
  });

  test('nothing listening at the target answers 500 with the connection error', async () => {
    const result = await scrape({ target: '127.0.0.1:1' }, RELAXED);
    expect(result.status).toBe(500);
    expect(result.text).toMatch(/ECONNREFUSED 127\.0\.0\.1:1/);
  });

  test('an unknown module or a bad target answers 400', async () => {
    expect(await scrape({ module: 'nope' })).toMatchObject({
      status: 400,
      text: "Module 'nope' not found in config\n",
    });
    expect(await scrape({ target: 'https://pve1/' })).toMatchObject({
      status: 400,
      text: "target 'https://pve1/' is not a host name or IP address with an optional :port\n",
    });
  });
});

describe('the rest of the HTTP interface', () => {
  test('/metrics: collection durations and errors per module, and the process metrics', async () => {
    const metrics = await ownMetrics();
    expect(valueOf(metrics, 'pve_collection_duration_seconds_count', { module: 'default' })).toBeGreaterThan(
      0,
    );
    expect(valueOf(metrics, 'pve_collection_duration_seconds_sum', { module: 'default' })).toBeGreaterThan(0);
    for (const module of ['default', 'insecure', 'system-ca', 'wrong-secret', 'password']) {
      expect(find(metrics, 'pve_request_errors_total', { module })).toHaveLength(1);
    }
    expect(find(metrics, 'process_cpu_user_seconds_total')).toHaveLength(1);
  });

  test('/ is a page pointing at /pve; other paths are 404, other methods 405', async () => {
    const index = await fetch(`${exporter.url}/`);
    expect(index.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await index.text()).toContain('/pve?target=');
    expect((await fetch(`${exporter.url}/nope`)).status).toBe(404);
    expect((await fetch(`${exporter.url}/pve`, { method: 'POST' })).status).toBe(405);
  });
});
