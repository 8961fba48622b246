import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import { repoPath, TSX_LOADER } from '@noderings/e2e/tsx-child';
import { reportFigure } from './bench-result.js';

const BENCH = 'sandbox';
const MAIN = repoPath('e2e/src/sandbox-main.ts');
const CUSTOMER = { email: 'customer@sandbox.local', password: 'sandbox-password' };
const READY_TIMEOUT_MS = 180_000;
const RUNNING_TIMEOUT_MS = 120_000;
const POLL_MS = 100;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

interface Started {
  readonly child: ChildProcessByStdio<null, Readable, Readable>;
  readonly output: () => string;
}

/** `npm start` as it runs (tsx's loader, so the signal reaches the sandbox itself). */
function start(args: readonly string[]): Started {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, MAIN, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

async function stop(started: Started): Promise<void> {
  if (started.child.exitCode !== null) return;
  started.child.kill('SIGTERM');
  await once(started.child, 'exit');
}

/** Seconds until `probe` is true; throws with the sandbox's output after `timeoutMs`. */
async function until(started: Started, timeoutMs: number, probe: () => Promise<boolean>): Promise<number> {
  const t0 = performance.now();
  while (performance.now() - t0 < timeoutMs) {
    if (started.child.exitCode !== null) throw new Error(`the sandbox exited:\n${started.output()}`);
    if (await probe().catch(() => false)) return (performance.now() - t0) / 1000;
    await sleep(POLL_MS);
  }
  throw new Error(`timed out:\n${started.output().slice(-4000)}`);
}

/** Ready as a newcomer sees it: /readyz (seeded, every plan's preflight green) and the dashboard served. */
async function ready(url: string): Promise<boolean> {
  const [readyz, dashboard] = await Promise.all([fetch(`${url}/readyz`), fetch(`${url}/`)]);
  return readyz.status === 200 && dashboard.status === 200;
}

async function call<T>(
  url: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      ...(token !== undefined && { authorization: `Bearer ${token}` }),
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${String(response.status)} ${text}`);
  return JSON.parse(text) as T;
}

/** Seconds from a customer's order (over HTTP, as the dashboard sends it) to the VM RUNNING. */
async function orderToRunning(started: Started, url: string): Promise<number> {
  const { token } = await call<{ token: string }>(url, 'POST', '/v1/auth/login', undefined, CUSTOMER);
  // As the customer finds it: the cheapest SKU, its cheapest offer.
  const { skus } = await call<{ skus: { planCode: string }[] }>(url, 'GET', '/v1/marketplace/plans');
  const code = skus[0]?.planCode ?? '';
  const { providers } = await call<{ providers: { planId: string; planRegions: { regionId: string }[] }[] }>(
    url,
    'GET',
    `/v1/marketplace/providers?filterPlanCode=${encodeURIComponent(code)}`,
  );
  const offer = providers[0];
  const regionId = offer?.planRegions[0]?.regionId;
  if (offer === undefined || regionId === undefined) throw new Error('the marketplace lists no offer');
  const t0 = performance.now();
  const { virtualMachine } = await call<{ virtualMachine: { id: string } }>(
    url,
    'POST',
    '/v1/virtual-machines',
    token,
    {
      hostname: 'bench-1',
      planId: offer.planId,
      regionId,
      distro: 'DISTRO_UBUNTU_24_04',
      password: 'a bench password',
      idempotencyKey: randomUUID(),
    },
  );
  await until(started, RUNNING_TIMEOUT_MS, async () => {
    const vm = await call<{ virtualMachine: { provisioningState: string } }>(
      url,
      'GET',
      `/v1/virtual-machines/${virtualMachine.id}`,
      token,
    );
    if (vm.virtualMachine.provisioningState === 'FAILED') throw new Error('the VM failed');
    return vm.virtualMachine.provisioningState === 'RUNNING';
  });
  return (performance.now() - t0) / 1000;
}

/**
 * The sandbox as a newcomer meets it: `npm start` on an empty data folder until ready, a customer's
 * order until RUNNING, then a second start on the same folder (reused, no seeding) until ready.
 */
export async function sandboxBenchmark(): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), 'nr-bench-sandbox-'));
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${String(port)}`;
    const args = ['--port', String(port), '--pve-listen', '127.0.0.1:0', '--kube-listen', '127.0.0.1:0'];
    process.stdout.write(
      `sandbox benchmark: npm start on ${url}, data in a new folder, Node ${process.version}, ${String(cpus().length)} CPUs, load average ${loadavg()[0]?.toFixed(1) ?? '?'}\n`,
    );
    const first = start([...args, '--data-dir', dataDir]);
    let firstReady: number;
    let running: number;
    try {
      firstReady = await until(first, READY_TIMEOUT_MS, () => ready(url));
      running = await orderToRunning(first, url);
    } finally {
      await stop(first);
    }
    const second = start([...args, '--data-dir', dataDir]);
    let secondReady: number;
    try {
      secondReady = await until(second, READY_TIMEOUT_MS, () => ready(url));
    } finally {
      await stop(second);
    }
    process.stdout.write(
      [
        `first start to ready (seeded, preflight green, dashboard served): ${firstReady.toFixed(1)} s`,
        `order to RUNNING (control plane → kube-sim → operator → pve-sim): ${running.toFixed(1)} s`,
        `second start to ready (data reused): ${secondReady.toFixed(1)} s`,
        '',
      ].join('\n'),
    );
    reportFigure({ bench: BENCH, figure: 'first_start_to_ready_s', value: firstReady, unit: 's' });
    reportFigure({ bench: BENCH, figure: 'order_to_running_s', value: running, unit: 's' });
    reportFigure({ bench: BENCH, figure: 'second_start_to_ready_s', value: secondReady, unit: 's' });
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}
