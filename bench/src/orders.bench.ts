import { spawn, type ChildProcess } from 'node:child_process';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { startControlPlane, type ControlPlane } from '@noderings/control-plane';
import { prepareAgentCluster } from '@noderings/e2e/agent-cluster';
import { installCrds, KubeClient, PROXMOX_INSTANCE_LABEL } from '@noderings/kube';
import { startKubeSim, type KubeSim } from '@noderings/kube-sim';

import { SERVER_URL, withClient } from './bench-database.js';
import { figureReporter } from './bench-result.js';
import { repoPath, TSX_LOADER } from '@noderings/e2e/tsx-child';

const BENCH = 'orders';
const PVE_SIM_MAIN = repoPath('sim/pve-sim/src/main.ts');
const OPERATOR_MAIN = repoPath('apps/operator/src/main.ts');

const ORDERS = 200;
const CLIENTS = 16;
const NODES = 3;
const OPERATOR_WORKERS = 8;
/** Fast tasks: the figures are the system's own work, not simulated task durations. */
const TASK_MS = 0;
const TIMEOUT_MS = Number(process.env.ORDERS_TIMEOUT_MS ?? 300_000);
const POLL_MS = 100;
const TOKEN_ID = 'root@pam!bench';
const GIB = 2 ** 30;
/** The default scenario's first template on each node: pve1 9000, pve2 9002, pve3 9004. */
const templateOf = (node: number): number => 9000 + 2 * node;
const STAFF = { email: 'staff@bench.test', password: randomBytes(12).toString('base64url') };

interface Child {
  readonly child: ChildProcess;
  output: string;
}

async function spawnUntil(script: string, args: readonly string[], ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const spawned: Child = { child, output: '' };
  await new Promise<void>((resolve, reject) => {
    const read = (c: Buffer) => {
      spawned.output += c.toString();
      if (ready.test(spawned.output)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => {
      reject(new Error(`${script} exited early: ${spawned.output}`));
    });
  });
  return spawned;
}

async function stop(spawned: Child | undefined): Promise<void> {
  if (spawned?.child.exitCode !== null) return;
  spawned.child.kill('SIGTERM');
  await once(spawned.child, 'exit');
}

class Api {
  constructor(private readonly baseUrl: string) {}

  async call(
    method: string,
    path: string,
    as?: { token: string; organizationId?: string },
    body?: unknown,
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = {};
    if (as !== undefined) headers.authorization = `Bearer ${as.token}`;
    if (as?.organizationId !== undefined) headers['x-organization-id'] = as.organizationId;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    return { status: response.status, body: await response.json() };
  }

  async ok<T>(method: string, path: string, as?: { token: string; organizationId?: string }, body?: unknown) {
    const response = await this.call(method, path, as, body);
    if (response.status >= 300) throw new Error(`${method} ${path}: ${JSON.stringify(response.body)}`);
    return response.body as T;
  }
}

function sshPublicKey(): string {
  const { x } = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const field = (bytes: Buffer) => Buffer.concat([Buffer.from([0, 0, 0, bytes.length]), bytes]);
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(Buffer.from(x ?? '', 'base64url'))]);
  return `ssh-ed25519 ${blob.toString('base64')} bench@orders`;
}

interface Offer {
  readonly planId: string;
  readonly regionId: string;
}

/**
 * A verified provider selling one plan over pve-sim's three nodes through a peered agent, made through the
 * API; what the install and the metrics sync would report (agent provisioned, nodes online with
 * inventory) is written into the database, as the control plane's tests do until metrics exist.
 */
async function seed(
  api: Api,
  cp: ControlPlane,
  kube: { sim: KubeSim; admin: KubeClient },
  pve: { url: string; fingerprint: string; secret: string },
  startOperator: (agentId: string) => Promise<void>,
): Promise<Offer> {
  const registered = await api.ok<{ token: string; organization: { id: string } }>(
    'POST',
    '/v1/auth/register',
    undefined,
    {
      email: 'provider@bench.test',
      password: randomBytes(12).toString('base64url'),
      organizationName: 'Bench Hosting',
      organizationType: 'ORGANIZATION_TYPE_PROVIDER',
    },
  );
  const provider = { token: registered.token, organizationId: registered.organization.id };
  const staff = await api.ok<{ token: string }>('POST', '/v1/auth/login', undefined, STAFF);
  await api.ok('POST', `/v1/organizations/${provider.organizationId}:verify`, staff);
  const region = await api.ok<{ id: string }>('POST', '/v1/regions', provider, {
    cityCountryId: 'de-fra',
    datacenterId: 'own-facility',
  });
  const { agent } = await api.ok<{ agent: { id: string } }>('POST', '/v1/agents', provider, {
    name: 'bench',
    agentPublicIp: '192.0.2.10',
    gatewayRegion: 'AGENT_GATEWAY_REGION_AMS01',
    hypervisorDriver: 'HYPERVISOR_DRIVER_PROXMOX',
  });
  const kubeconfig = await prepareAgentCluster(kube.sim, kube.admin, agent.id);
  await api.ok('POST', `/v1/agents/${agent.id}:uploadInboundPeeringConfig`, provider, { kubeconfig });
  await kube.admin.secrets.create({
    metadata: {
      namespace: 'proxmox-system',
      name: 'proxmox-bench',
      labels: { [PROXMOX_INSTANCE_LABEL]: 'default' },
    },
    stringData: {
      PROXMOX_URL: pve.url,
      PROXMOX_USERNAME: 'root@pam',
      PROXMOX_TOKEN_ID: 'bench',
      PROXMOX_TOKEN_SECRET: pve.secret,
      PROXMOX_TLS_FINGERPRINT: pve.fingerprint,
    },
  });
  await startOperator(agent.id);
  const { platform } = await api.ok<{ platform: { id: string } }>('POST', '/v1/platform', provider, {
    name: 'pve-sim',
    endpointUrl: pve.url,
    driver: 'PLATFORM_DRIVER_PROXMOX',
    agentId: agent.id,
  });
  const network = await api.ok<{ network: { id: string } }>('POST', '/v1/ipam/networks', provider, {
    name: 'public',
    dnsServers: ['198.51.100.53'],
  });
  await api.ok('POST', '/v1/ipam/prefixes', provider, {
    cidr: '10.20.0.0/22',
    gateway: '10.20.0.1',
    networkId: network.network.id,
  });
  const seeds = await api.ok<{ cloudInitTemplates: { id: string }[] }>(
    'GET',
    '/v1/cloudinittemplates?filterIsTemplate=true',
    provider,
  );
  const cloudInit = await api.ok<{ cloudInitTemplate: { id: string } }>(
    'POST',
    '/v1/cloudinittemplate',
    provider,
    {
      name: 'ubuntu',
      copyFromId: seeds.cloudInitTemplates[0]?.id,
    },
  );
  const nodeIds: string[] = [];
  for (let n = 0; n < NODES; n++) {
    const { node } = await api.ok<{ node: { id: string } }>('POST', '/v1/node', provider, {
      name: `pve${String(n + 1)}`,
      platformId: platform.id,
      regionId: region.id,
      vmStorageDestination: 'local-lvm',
      backupStorageDestination: 'local',
      backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
      vmidSeed: 1000 * (n + 1),
      cpuOverallocatePercent: 1000,
      memoryOverallocatePercent: 150,
      storageOverallocatePercent: 100,
    });
    nodeIds.push(node.id);
    await api.ok('POST', '/v1/vmtemplate', provider, {
      name: `ubuntu on pve${String(n + 1)}`,
      distro: 'DISTRO_UBUNTU_24_04',
      templateId: templateOf(n),
      nodeId: node.id,
      cloudInitTemplateId: cloudInit.cloudInitTemplate.id,
    });
  }
  await api.ok('POST', `/v1/ipam/networks/${network.network.id}/assign-node`, provider, { nodeIds });
  // Spread over the three nodes, as a provider with one cluster would.
  await api.ok('PUT', '/v1/node-placement-policy', provider, {
    defaultStrategy: 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN',
  });
  await cp.db
    .updateTable('agents')
    .set({ provisioned: true, service_status: 'SERVICE_STATUS_ONLINE' })
    .where('id', '=', agent.id)
    .execute();
  await cp.db
    .updateTable('nodes')
    .set({
      service_status: 'SERVICE_STATUS_ONLINE',
      // pve-sim's default node: 16 CPUs, 64 GiB, 800 GiB of local-lvm, two templates and a guest of its own.
      inventory: JSON.stringify({
        cpuCores: 16,
        memoryBytes: 64 * GIB,
        storagePools: [{ storageId: 'local-lvm', totalBytes: 800 * GIB, allocatedBytes: 20 * GIB }],
        nonNrCpuCores: 1,
        nonNrMemoryBytes: 2 * GIB,
        nonNrDiskBytes: 20 * GIB,
      }),
    })
    .where('id', 'in', nodeIds)
    .execute();
  const plan = await api.ok<{ plan: { id: string } }>('POST', '/v1/plans', provider, {
    name: 'Bench',
    computeType: 'COMPUTE_TYPE_GENERAL_COMPUTE',
    vcpus: 1,
    ramGb: 1,
    diskGb: 8,
    planPrices: [{ billingPeriod: 'BILLING_PERIOD_MONTH', currency: 'EUR', unitAmount: '3' }],
    regionId: region.id,
    nodeIds,
    isPublic: true,
  });
  return { planId: plan.plan.id, regionId: region.id };
}

interface VmList {
  virtualMachines: { id: string; provisioningState: string; statusMessage: string }[];
}

/** When each VM was first seen RUNNING in the customer's list, after its order was sent. */
async function waitForAllRunning(
  api: Api,
  customer: { token: string; organizationId: string },
  orderedAt: ReadonlyMap<string, number>,
): Promise<Map<string, number>> {
  const runningAfterMs = new Map<string, number>();
  const lastSeen = new Map<string, string>();
  const deadline = performance.now() + TIMEOUT_MS;
  const record = (list: VmList, seen: number) => {
    for (const vm of list.virtualMachines) {
      lastSeen.set(vm.id, `${vm.provisioningState}: ${vm.statusMessage.slice(0, 120)}`);
      if (vm.provisioningState === 'FAILED') throw new Error(`VM ${vm.id} failed: ${vm.statusMessage}`);
      if (vm.provisioningState === 'RUNNING' && !runningAfterMs.has(vm.id))
        runningAfterMs.set(vm.id, seen - (orderedAt.get(vm.id) ?? seen));
    }
  };
  while (runningAfterMs.size < ORDERS) {
    if (performance.now() > deadline) {
      const states = new Map<string, number>();
      for (const state of lastSeen.values()) states.set(state, (states.get(state) ?? 0) + 1);
      throw new Error(
        `only ${String(runningAfterMs.size)} of ${String(ORDERS)} running after ${String(TIMEOUT_MS)} ms: ${JSON.stringify([...states])}`,
      );
    }
    for (let page = 0; page * 100 < ORDERS; page++) {
      const list = await api.ok<VmList>(
        'GET',
        `/v1/virtual-machines?pageSize=100&page=${String(page)}`,
        customer,
      );
      record(list, performance.now());
    }
    await sleep(POLL_MS);
  }
  return runningAfterMs;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/**
 * The whole order path against the simulators: 200 orders over HTTP to the control plane (in this
 * process, on PostgreSQL), dispatched into kube-sim (in this process), provisioned by the operator (its
 * own process) on pve-sim (its own process, tasks of 0 ms). Orders/s accepted, and order-to-Running
 * latency as the customer sees it in the API.
 */
export async function ordersBenchmark(): Promise<void> {
  const name = `nr_bench_${randomBytes(6).toString('hex')}`;
  await withClient(SERVER_URL, (client) => client.query(`CREATE DATABASE ${name}`));
  const databaseUrl = new URL(SERVER_URL);
  databaseUrl.pathname = `/${name}`;
  const dir = await mkdtemp(join(tmpdir(), 'orders-bench-'));
  const secret = randomBytes(16).toString('hex');
  let pve: Child | undefined;
  let operator: Child | undefined;
  let sim: KubeSim | undefined;
  let admin: KubeClient | undefined;
  let cp: ControlPlane | undefined;
  try {
    pve = await spawnUntil(
      PVE_SIM_MAIN,
      [
        '--listen',
        '127.0.0.1:0',
        '--nodes',
        String(NODES),
        '--task-ms',
        String(TASK_MS),
        '--token',
        `${TOKEN_ID}=${secret}`,
      ],
      /fingerprint: \S+/,
    );
    const pveUrl = /listening on (https:\/\/\S+)/.exec(pve.output)?.[1] ?? '';
    const fingerprint = /fingerprint: (\S+)/.exec(pve.output)?.[1] ?? '';
    sim = await startKubeSim({ listen: '127.0.0.1:0' });
    admin = new KubeClient({ kubeconfigYaml: sim.kubeconfigYaml });
    await installCrds(admin.customResourceDefinitions);
    const adminKubeconfig = join(dir, 'kubeconfig.yaml');
    await sim.writeKubeconfig(adminKubeconfig);
    cp = await startControlPlane({
      database: { url: databaseUrl.toString(), poolSize: 30 },
      secretKey: randomBytes(32),
      logLevel: 'warn',
      admin: STAFF,
      peeringApiServerUrl: sim.url,
      // kube-sim on 127.0.0.1, the agent at a documentation address.
      allowPrivateDestinations: true,
    });
    const api = new Api(cp.url);
    const startOperator = async (agentId: string) => {
      operator = await spawnUntil(
        OPERATOR_MAIN,
        [
          ...['--kubeconfig', adminKubeconfig, '--watch-namespace', `${agentId}-operator`],
          ...['--operator-namespace', 'proxmox-system', '--workers', String(OPERATOR_WORKERS)],
          ...['--metrics-listen', '127.0.0.1:0', '--no-leader-election'],
        ],
        /"operator started"/,
      );
    };
    const offer = await seed(api, cp, { sim, admin }, { url: pveUrl, fingerprint, secret }, startOperator);
    const registered = await api.ok<{ token: string; organization: { id: string } }>(
      'POST',
      '/v1/auth/register',
      undefined,
      {
        email: 'customer@bench.test',
        password: randomBytes(12).toString('base64url'),
        organizationName: 'Bench Customer',
        organizationType: 'ORGANIZATION_TYPE_CLIENT',
      },
    );
    const customer = { token: registered.token, organizationId: registered.organization.id };
    const key = await api.ok<{ sshKey: { id: string } }>('POST', '/v1/ssh-keys', customer, {
      name: 'bench',
      publicKey: sshPublicKey(),
    });

    process.stdout.write(
      `orders benchmark: ${String(ORDERS)} orders from ${String(CLIENTS)} concurrent clients over HTTP; control plane and kube-sim in this process on PostgreSQL (${name}), operator (${String(OPERATOR_WORKERS)} workers) and pve-sim (${String(NODES)} nodes, tasks of ${String(TASK_MS)} ms) as processes; Node ${process.version}, ${String(cpus().length)} CPUs, load average ${loadavg()[0]?.toFixed(1) ?? '?'}\n`,
    );
    const orderedAt = new Map<string, number>();
    const acceptMs: number[] = [];
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        for (let i = next++; i < ORDERS; i = next++) {
          const sent = performance.now();
          const response = await api.call('POST', '/v1/virtual-machines', customer, {
            hostname: `vm-${String(i)}`,
            planId: offer.planId,
            regionId: offer.regionId,
            distro: 'DISTRO_UBUNTU_24_04',
            sshKeyIds: [key.sshKey.id],
            idempotencyKey: randomUUID(),
          });
          if (response.status !== 201)
            throw new Error(`order ${String(i)}: ${JSON.stringify(response.body)}`);
          acceptMs.push(performance.now() - sent);
          const { virtualMachine } = response.body as { virtualMachine: { id: string } };
          orderedAt.set(virtualMachine.id, sent);
        }
      }),
    );
    const acceptSeconds = (performance.now() - started) / 1000;
    const runningAfterMs = await waitForAllRunning(api, customer, orderedAt);
    const allRunningSeconds = (performance.now() - started) / 1000;
    const accept = [...acceptMs].sort((a, b) => a - b);
    const toRunning = [...runningAfterMs.values()].sort((a, b) => a - b);
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    process.stdout.write(
      [
        `accepted: ${(ORDERS / acceptSeconds).toFixed(1)} orders/s (${String(ORDERS)} in ${acceptSeconds.toFixed(1)} s); answer p50 ${ms(percentile(accept, 50))}  p95 ${ms(percentile(accept, 95))}`,
        `order to Running (seen through GET, polled every ${String(POLL_MS)} ms): p50 ${ms(percentile(toRunning, 50))}  p95 ${ms(percentile(toRunning, 95))}  max ${ms(toRunning.at(-1) ?? NaN)}`,
        `all ${String(ORDERS)} running after ${allRunningSeconds.toFixed(1)} s: ${(ORDERS / allRunningSeconds).toFixed(1)} VMs/s end to end`,
        '',
      ].join('\n'),
    );
    const figure = figureReporter(BENCH);
    figure(`orders_accepted_per_s_${String(CLIENTS)}_clients`, ORDERS / acceptSeconds, 'orders/s');
    figure('order_answer_p50_ms', percentile(accept, 50), 'ms');
    figure('order_answer_p95_ms', percentile(accept, 95), 'ms');
    figure('order_to_running_p50_ms', percentile(toRunning, 50), 'ms');
    figure('order_to_running_p95_ms', percentile(toRunning, 95), 'ms');
    figure('order_to_running_max_ms', toRunning.at(-1) ?? NaN, 'ms');
    figure('vms_running_per_s', ORDERS / allRunningSeconds, 'VMs/s');
  } finally {
    await cp?.close();
    await stop(operator);
    await admin?.close();
    await sim?.close();
    await stop(pve);
    await rm(dir, { recursive: true, force: true });
    await withClient(SERVER_URL, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}
