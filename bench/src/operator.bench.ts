import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CRD_API_VERSION,
  KubeClient,
  PROXMOX_INSTANCE_LABEL,
  installCrds,
  type ProxmoxVM,
} from '@noderings/kube';
import { repoPath, TSX_LOADER } from '@noderings/e2e/tsx-child';
import { figureReporter } from './bench-result.js';

const BENCH = 'operator';
const TSX_CLI = repoPath('node_modules/tsx/dist/cli.mjs');
const PVE_SIM_MAIN = repoPath('sim/pve-sim/src/main.ts');
const KUBE_SIM_MAIN = repoPath('sim/kube-sim/src/main.ts');
const OPERATOR_MAIN = repoPath('apps/operator/src/main.ts');

const VMS = 200;
const NODES = 3;
const WORKERS = 8;
/** Fast tasks: the figures are the operator's API work, not the simulated task durations. */
const TASK_MS = 0;
const TIMEOUT_MS = 120_000;
const OPERATOR_NAMESPACE = 'proxmox-system';
const WATCH_NAMESPACE = '0b7e4f2a-9c1d-4e3f-8a5b-6c7d8e9f0a1b-operator';
const TOKEN_ID = 'bench';
const TOKEN_SECRET = '6c0a1f0e-2d3b-4c5d-8e9f-0a1b2c3d4e5f';
/** The default scenario's first template on each node: pve1 9000, pve2 9002, pve3 9004 (3.5 GiB disks). */
const templateOf = (node: number): number => 9000 + 2 * node;

interface Spawned {
  child: ChildProcess;
  output: string;
}

/** Starts `args` under node and resolves once its stdout contains `ready`. */
async function spawnUntil(args: string[], ready: string): Promise<Spawned> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  const spawned: Spawned = { child, output: '' };
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      spawned.output += c.toString();
      if (spawned.output.includes(ready)) resolve();
    });
    child.once('exit', () => {
      reject(new Error(`${args[1] ?? args[0] ?? 'child'} exited early: ${spawned.output}`));
    });
  });
  return spawned;
}

async function stop(spawned: Spawned | undefined): Promise<void> {
  if (spawned?.child.exitCode !== null) return;
  spawned.child.kill('SIGTERM');
  await once(spawned.child, 'exit');
}

interface SimCall {
  method: string;
  path: string;
  status: number;
}

/** pve-sim's call log (`GET /sim/calls`, outside the Proxmox API, no auth). */
function fetchCalls(baseUrl: string, fingerprint: string): Promise<SimCall[]> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/sim/calls', baseUrl),
      {
        rejectUnauthorized: false,
        checkServerIdentity: (_host, cert) =>
          cert.fingerprint256 === fingerprint ? undefined : new Error('pve-sim fingerprint mismatch'),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          resolve((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: SimCall[] }).data);
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** `GET /api2/json/nodes/pve2/qemu/1042/status/current?x=1` → `GET /nodes/{n}/qemu/{vmid}/status/current`. */
function operationOf(call: SimCall): string {
  const path = call.path
    .replace(/\?.*$/, '')
    .replace(/^\/api2\/json/, '')
    .replace(/\/nodes\/[^/]+/, '/nodes/{n}')
    .replace(/\/qemu\/\d+/, '/qemu/{vmid}')
    .replace(/\/tasks\/[^/]+/, '/tasks/{upid}')
    .replace(/\/content\/[^/]+/, '/content/{volid}');
  return `${call.method} ${path}`;
}

function proxmoxVm(i: number): { vm: ProxmoxVM; userData: string } {
  const vmId = `5b2d9c1e-0f3a-4b7c-9d8e-${i.toString(16).padStart(12, '0')}`;
  const node = i % NODES;
  const byte = (shift: number) => ((i >> shift) & 255).toString(16).padStart(2, '0').toUpperCase();
  return {
    vm: {
      apiVersion: CRD_API_VERSION,
      kind: 'ProxmoxVM',
      metadata: { name: `nr-${vmId}`, namespace: WATCH_NAMESPACE },
      spec: {
        vmId,
        instance: 'default',
        node: `pve${node + 1}`,
        vmid: 3000 + i,
        templateVmid: templateOf(node),
        cpu: { cores: 1, sockets: 1, type: 'host' },
        memoryMiB: 1024,
        // 10 GiB: 67 VMs per node fit the scenario's 800 GiB local-lvm.
        disk: { storage: 'local-lvm', sizeGiB: 10 },
        network: {
          bridge: 'vmbr0',
          model: 'virtio',
          mac: `BC:24:11:00:${byte(8)}:${byte(0)}`,
          ipv4: { address: `10.20.${(i >> 8) & 255}.${i & 255}/16`, gateway: '10.20.0.1' },
          nameservers: ['10.20.0.53'],
        },
        cloudInitSecretRef: `nr-${vmId}-cloudinit`,
        powerState: 'Running',
        smtpBlocked: true,
      },
    },
    userData: `#cloud-config\nhostname: vm-${i}\n`,
  };
}

async function installStack(kube: KubeClient, pveUrl: string, fingerprint: string): Promise<void> {
  await installCrds(kube.customResourceDefinitions);
  for (const name of [OPERATOR_NAMESPACE, WATCH_NAMESPACE])
    await kube.namespaces.create({ metadata: { name } });
  await kube.secrets.create({
    metadata: {
      namespace: OPERATOR_NAMESPACE,
      name: 'proxmox-default',
      labels: { [PROXMOX_INSTANCE_LABEL]: 'default' },
    },
    stringData: {
      PROXMOX_URL: pveUrl,
      PROXMOX_USERNAME: 'root@pam',
      PROXMOX_TOKEN_ID: TOKEN_ID,
      PROXMOX_TOKEN_SECRET: TOKEN_SECRET,
      PROXMOX_TLS_FINGERPRINT: fingerprint,
    },
  });
  const orders = Array.from({ length: VMS }, (_, i) => proxmoxVm(i));
  // Eight writers: the orders are in place before the operator starts, so the clock measures it alone.
  for (let i = 0; i < orders.length; i += 8) {
    await Promise.all(
      orders.slice(i, i + 8).map(async ({ vm, userData }) => {
        await kube.secrets.create({
          metadata: { namespace: WATCH_NAMESPACE, name: vm.spec.cloudInitSecretRef },
          stringData: { 'user-data': userData },
        });
        await kube.proxmoxVMs.create(vm);
      }),
    );
  }
}

async function waitForRunning(kube: KubeClient, operator: Spawned): Promise<void> {
  const deadline = Date.now() + TIMEOUT_MS;
  for (;;) {
    const { items } = await kube.proxmoxVMs.list(WATCH_NAMESPACE);
    const running = items.filter((vm) => vm.status?.phase === 'Running').length;
    if (running === VMS) return;
    if (operator.child.exitCode !== null) throw new Error(`operator exited: ${operator.output.slice(-2000)}`);
    if (Date.now() > deadline) {
      const phases = items.map((vm) => vm.status?.phase ?? 'none').join(' ');
      throw new Error(`only ${running}/${VMS} Running after ${TIMEOUT_MS / 1000} s: ${phases}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const TASK_POLL = 'GET /nodes/{n}/tasks/{upid}/status';

/** The headline figures of `report` as BENCH_RESULT lines. */
function reportFigures(calls: SimCall[], seconds: number): void {
  const polls = calls.filter((c) => operationOf(c) === TASK_POLL).length;
  const figure = figureReporter(BENCH);
  figure('wall_time_s', seconds, 's');
  figure('vms_per_s', VMS / seconds, 'VMs/s');
  figure('proxmox_calls', calls.length, 'calls');
  figure('proxmox_calls_failed', calls.filter((c) => c.status >= 400).length, 'calls');
  figure('proxmox_calls_per_vm', calls.length / VMS, 'calls');
  figure('task_status_polls_per_vm', polls / VMS, 'calls');
}

function report(calls: SimCall[], seconds: number): string {
  const counts = new Map<string, { n: number; failed: number }>();
  for (const call of calls) {
    const count = counts.get(operationOf(call)) ?? { n: 0, failed: 0 };
    count.n += 1;
    if (call.status >= 400) count.failed += 1;
    counts.set(operationOf(call), count);
  }
  const polls = counts.get(TASK_POLL)?.n ?? 0;
  const failed = calls.filter((c) => c.status >= 400).length;
  const lines = [
    `wall time                         ${seconds.toFixed(2).padStart(9)} s`,
    `VMs/s                             ${(VMS / seconds).toFixed(1).padStart(9)}`,
    `Proxmox API calls                 ${String(calls.length).padStart(9)}  (${failed} answered >= 400)`,
    `calls per VM                      ${(calls.length / VMS).toFixed(1).padStart(9)}`,
    `task-status polls                 ${String(polls).padStart(9)}  (${(polls / VMS).toFixed(1)} per VM)`,
    '',
    `${'operation'.padEnd(56)} ${'calls'.padStart(7)} ${'per VM'.padStart(7)} ${'>= 400'.padStart(7)}`,
  ];
  for (const [operation, { n, failed }] of [...counts].sort(
    (a, b) => b[1].n - a[1].n || a[0].localeCompare(b[0]),
  ))
    lines.push(
      `${operation.padEnd(56)} ${String(n).padStart(7)} ${(n / VMS).toFixed(2).padStart(7)} ${String(failed).padStart(7)}`,
    );
  return `${lines.join('\n')}\n`;
}

/**
 * The operator end to end, every part in its own process: 200 ProxmoxVMs over 3 nodes, created,
 * configured, seeded and started until all are Running, with the Proxmox calls it took per VM.
 */
export async function operatorBenchmark(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'operator-bench-'));
  const kubeconfig = join(dir, 'kubeconfig.yaml');
  let pve: Spawned | undefined;
  let kubeSim: Spawned | undefined;
  let operator: Spawned | undefined;
  let kube: KubeClient | undefined;
  try {
    [pve, kubeSim] = await Promise.all([
      spawnUntil(
        [
          TSX_CLI,
          PVE_SIM_MAIN,
          ...['--listen', '127.0.0.1:0', '--nodes', String(NODES), '--task-ms', String(TASK_MS)],
          ...['--token', `root@pam!${TOKEN_ID}=${TOKEN_SECRET}`],
        ],
        'test control',
      ),
      spawnUntil(
        [TSX_CLI, KUBE_SIM_MAIN, '--listen', '127.0.0.1:0', '--kubeconfig', kubeconfig],
        'kubeconfig',
      ),
    ]);
    const pveUrl = /listening on (\S+) /.exec(pve.output)?.[1];
    const fingerprint = /fingerprint: (\S+)/.exec(pve.output)?.[1];
    if (pveUrl === undefined || fingerprint === undefined)
      throw new Error(`unexpected pve-sim output: ${pve.output}`);
    kube = new KubeClient({ kubeconfigPath: kubeconfig });
    await installStack(kube, pveUrl, fingerprint);
    process.stdout.write(
      `operator benchmark: ${VMS} VMs on ${NODES} nodes, ${WORKERS} workers, tasks of ${TASK_MS} ms, Node ${process.version}\n`,
    );
    const started = performance.now();
    operator = await spawnUntil(
      [
        '--import',
        TSX_LOADER,
        OPERATOR_MAIN,
        ...['--kubeconfig', kubeconfig, '--watch-namespace', WATCH_NAMESPACE],
        ...['--operator-namespace', OPERATOR_NAMESPACE, '--workers', String(WORKERS)],
        ...['--metrics-listen', '127.0.0.1:0', '--no-leader-election'],
      ],
      'operator started',
    );
    await waitForRunning(kube, operator);
    const seconds = (performance.now() - started) / 1000;
    const calls = await fetchCalls(pveUrl, fingerprint);
    process.stdout.write(report(calls, seconds));
    reportFigures(calls, seconds);
  } finally {
    await stop(operator);
    await kube?.close();
    await Promise.all([stop(pve), stop(kubeSim)]);
    await rm(dir, { recursive: true, force: true });
  }
}
