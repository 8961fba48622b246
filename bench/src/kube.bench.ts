import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  Controller,
  DONE,
  Informer,
  KubeClient,
  WorkQueue,
  fromInformer,
  installCrds,
  type ProxmoxVM,
} from '@noderings/kube';
import { parse } from 'yaml';
import { reportFigure } from './bench-result.js';

const SIM_MAIN = fileURLToPath(new URL('../../sim/kube-sim/src/main.ts', import.meta.url));
const TSX = fileURLToPath(new URL('../../node_modules/tsx/dist/cli.mjs', import.meta.url));
const BENCH = 'kube';
const NAMESPACE = 'bench-operator';
const WATCHERS = 50;
const WRITERS = 4;
/** No limit for the measurement; the production default (10/s, burst 100) is controller-runtime's. */
const UNLIMITED = { ratePerSecond: 1e9, burst: 1e9 };

interface Sim {
  child: ChildProcess;
  url: string;
  token: string;
  ca: string;
  kubeconfigPath: string;
  dir: string;
}

/** kube-sim as `npm run kube-sim` runs it, in its own process. */
async function spawnSim(): Promise<Sim> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-bench-'));
  const kubeconfigPath = join(dir, 'kubeconfig.yaml');
  const child = spawn(
    process.execPath,
    [TSX, SIM_MAIN, '--listen', '127.0.0.1:0', '--kubeconfig', kubeconfigPath],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      output += c.toString();
      if (output.includes('kubeconfig')) resolve();
    });
    child.once('exit', () => {
      reject(new Error(`kube-sim exited early: ${output}`));
    });
  });
  const url = /listening on (\S+)/.exec(output)?.[1];
  if (!url) throw new Error(`unexpected kube-sim output: ${output}`);
  const kubeconfig = parse(await readFile(kubeconfigPath, 'utf8')) as {
    clusters: { cluster: { 'certificate-authority-data': string } }[];
    users: { user: { token: string } }[];
  };
  const ca = Buffer.from(
    kubeconfig.clusters[0]?.cluster['certificate-authority-data'] ?? '',
    'base64',
  ).toString();
  return { child, url, token: kubeconfig.users[0]?.user.token ?? '', ca, kubeconfigPath, dir };
}

function proxmoxVm(i: number): ProxmoxVM {
  const vmId = randomUUID();
  return {
    apiVersion: 'vm.noderings.com/v1alpha1',
    kind: 'ProxmoxVM',
    metadata: { name: `nr-${vmId}`, namespace: NAMESPACE },
    spec: {
      vmId,
      node: 'pve1',
      vmid: 1000 + i,
      templateVmid: 9000,
      cpu: { cores: 2 },
      memoryMiB: 2048,
      disk: { storage: 'local-lvm', sizeGiB: 40 },
      network: {
        mac: `BC:24:11:${[(i >> 16) & 255, (i >> 8) & 255, i & 255].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':')}`,
        ipv4: { address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}/8`, gateway: '10.0.0.1' },
      },
      cloudInitSecretRef: `nr-${vmId}-cloudinit`,
    },
  };
}

/** A raw watch stream: counts the newline-delimited events, nothing else, so the client costs little. */
function openWatch(sim: Sim, resourceVersion: string, onEvents: (n: number) => void): () => void {
  const url = new URL(`${sim.url}/apis/vm.noderings.com/v1alpha1/namespaces/${NAMESPACE}/proxmoxvms`);
  url.searchParams.set('watch', 'true');
  url.searchParams.set('resourceVersion', resourceVersion);
  const req = request(url, { ca: sim.ca, headers: { Authorization: `Bearer ${sim.token}` } }, (res) => {
    res.on('data', (chunk: Buffer) => {
      let n = 0;
      for (const byte of chunk) if (byte === 10) n++;
      if (n > 0) onEvents(n);
    });
  });
  req.on('error', () => undefined);
  req.end();
  return () => req.destroy();
}

async function watchFanOut(sim: Sim, kube: KubeClient, seconds: number): Promise<number> {
  const list = await kube.proxmoxVMs.list(NAMESPACE);
  const startRv = list.metadata.resourceVersion ?? '0';
  let delivered = 0;
  let lastDelivery = 0;
  const closers = Array.from({ length: WATCHERS }, () =>
    openWatch(sim, startRv, (n) => {
      delivered += n;
      lastDelivery = performance.now();
    }),
  );
  await new Promise((r) => setTimeout(r, 300));
  let written = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: WRITERS }, async () => {
      while (performance.now() < deadline) {
        await kube.proxmoxVMs.create(proxmoxVm(written++));
      }
    }),
  );
  const expected = written * WATCHERS;
  const waitUntil = performance.now() + 30_000;
  while (delivered < expected && performance.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
  for (const close of closers) close();
  const elapsed = (lastDelivery - started) / 1000;
  process.stdout.write(
    `watch fan-out: ${written} creates (${(written / seconds).toFixed(0)}/s) → ${delivered}/${expected} events to ${WATCHERS} watchers in ${elapsed.toFixed(2)} s = ${(delivered / elapsed).toFixed(0)} events/s delivered\n`,
  );
  reportFigure({ bench: BENCH, figure: 'creates_per_s', value: written / seconds, unit: 'creates/s' });
  reportFigure({
    bench: BENCH,
    figure: `watch_events_per_s_${WATCHERS}_watchers`,
    value: delivered / elapsed,
    unit: 'events/s',
  });
  reportFigure({ bench: BENCH, figure: 'watch_events_missing', value: expected - delivered, unit: 'events' });
  return written;
}

async function queueOnly(keys: number): Promise<void> {
  let done = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));
  const queue = new WorkQueue(
    () => {
      if (++done === keys) finish();
      return Promise.resolve(DONE);
    },
    { workers: 4, rateLimit: UNLIMITED },
  );
  const started = performance.now();
  queue.start();
  for (let i = 0; i < keys; i++) queue.add(`ns/key-${i}`);
  await finished;
  const elapsed = (performance.now() - started) / 1000;
  await queue.shutdown(1000);
  process.stdout.write(
    `work queue alone: ${keys} keys through a no-op reconciler in ${elapsed.toFixed(2)} s = ${(keys / elapsed).toFixed(0)} keys/s\n`,
  );
  reportFigure({ bench: BENCH, figure: 'work_queue_keys_per_s', value: keys / elapsed, unit: 'keys/s' });
}

async function controllerEndToEnd(kube: KubeClient, objects: number): Promise<void> {
  let reconciled = 0;
  let finish: () => void = () => undefined;
  const finished = new Promise<void>((r) => (finish = r));
  const informer = new Informer(kube.proxmoxVMs, { namespace: NAMESPACE });
  const controller = new Controller({
    name: 'bench',
    workers: 4,
    rateLimit: UNLIMITED,
    sources: [fromInformer(informer)],
    reconciler: {
      reconcile: () => {
        if (++reconciled === objects) finish();
        return Promise.resolve(DONE);
      },
    },
  });
  const stop = new AbortController();
  const started = performance.now();
  const running = controller.run(stop.signal);
  await finished;
  const elapsed = (performance.now() - started) / 1000;
  stop.abort();
  await running;
  process.stdout.write(
    `controller end to end (list + watch + queue + no-op reconcile): ${objects} ProxmoxVMs in ${elapsed.toFixed(2)} s = ${(objects / elapsed).toFixed(0)} keys/s\n`,
  );
  reportFigure({ bench: BENCH, figure: 'controller_keys_per_s', value: objects / elapsed, unit: 'keys/s' });
}

/** `npm run bench -- kube`: watch events/s delivered to 50 watchers, and keys/s through a no-op reconciler. */
export async function kubeBenchmark(seconds: number): Promise<void> {
  const sim = await spawnSim();
  const kube = new KubeClient({ kubeconfigPath: sim.kubeconfigPath });
  try {
    process.stdout.write(
      `kube benchmark, ${seconds} s of writes, Node ${process.version}, kube-sim in its own process over HTTPS\n`,
    );
    await installCrds(kube.customResourceDefinitions);
    await kube.namespaces.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });
    const objects = await watchFanOut(sim, kube, seconds);
    await queueOnly(200_000);
    await controllerEndToEnd(kube, objects);
  } finally {
    await kube.close();
    sim.child.kill('SIGTERM');
    await once(sim.child, 'exit');
    await rm(sim.dir, { recursive: true, force: true });
  }
}
