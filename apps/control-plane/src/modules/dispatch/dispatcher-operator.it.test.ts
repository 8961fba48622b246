import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';

import { afterAll, beforeAll, expect, it } from 'vitest';

import {
  changeVm,
  claimStatus,
  eventually,
  newWorld,
  openTestDb,
  orderVm,
  recordingLogger,
  seedSeller,
  startAgentClusterSim,
  vmRow,
  type AgentClusterSim,
  type TestDb,
} from './dispatch.test-support.js';
import { Dispatcher } from './dispatcher.js';

// The whole way down: the dispatcher's order reaches the real proxmox-operator through kube-sim, the
// operator clones the guest on pve-sim, and what it reports comes back to the VM's row; the deletion
// goes back the same way. Both run as processes of their own: an app never imports another.

// tsx as a loader rather than its CLI: the CLI would run each in a grandchild that a kill would miss.
const TSX_LOADER = new URL('../../../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const PVE_SIM = join(REPO_ROOT, 'sim/pve-sim/src/main.ts');
const OPERATOR = join(REPO_ROOT, 'apps/operator/src/main.ts');
const STARTUP_MS = 30_000;
const TOKEN_ID = 'root@pam!operator';

interface Child {
  process: ChildProcess;
  output: () => string;
}

let testDb: TestDb | undefined;
let kube: AgentClusterSim | undefined;
let workDir: string | undefined;
const children: Child[] = [];

beforeAll(async () => {
  testDb = await openTestDb();
  kube = await startAgentClusterSim();
  workDir = mkdtempSync(join(tmpdir(), 'dispatch-e2e-'));
});

afterAll(async () => {
  try {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await Promise.all(children.map((c) => exited(c.process)));
    await kube?.close();
  } finally {
    await testDb?.close();
    if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
  }
});

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
}

function run(script: string, args: readonly string[]): Child {
  const child = spawn(process.execPath, ['--import', TSX_LOADER, script, ...args], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const started = { process: child, output: () => out };
  children.push(started);
  return started;
}

async function waitFor(child: Child, pattern: RegExp): Promise<RegExpExecArray> {
  return eventually(
    () => {
      if (child.process.exitCode !== null) throw new Error(`exited early:\n${child.output()}`);
      const match = pattern.exec(child.output());
      if (match === null) throw new Error(`not started yet:\n${child.output()}`);
      return match;
    },
    STARTUP_MS,
    100,
  );
}

/** The guests' names on pve-sim, read with the operator's token over TLS pinned to the printed fingerprint. */
function guestNames(url: string, token: string, fingerprint: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL('/api2/json/cluster/resources?type=vm', url),
      { headers: { authorization: `PVEAPIToken=${token}` }, rejectUnauthorized: false },
      (res) => {
        if (
          !(res.socket instanceof TLSSocket) ||
          res.socket.getPeerCertificate().fingerprint256 !== fingerprint
        ) {
          reject(new Error('pve-sim presented another certificate'));
          return;
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data: { name?: string }[] };
          resolve(body.data.map((g) => g.name ?? ''));
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

it(
  'orders a VM the operator runs on Proxmox, reports it Running, and deletes it',
  { timeout: 120_000 },
  async () => {
    if (testDb === undefined || kube === undefined || workDir === undefined) throw new Error('not started');
    const { db } = testDb;
    const secret = randomBytes(16).toString('hex');
    const pve = run(PVE_SIM, [
      '--listen',
      '127.0.0.1:0',
      '--nodes',
      '1',
      '--task-ms',
      '20',
      '--token',
      `${TOKEN_ID}=${secret}`,
    ]);
    const [, pveUrl = ''] = await waitFor(pve, /listening on (https:\/\/\S+)/);
    const [, fingerprint = ''] = await waitFor(pve, /fingerprint: (\S+)/);

    const world = newWorld(db, await seedSeller(db, 'pve1'));
    const namespace = `${world.seller.agentId}-operator`;
    const kubeconfig = await kube.peerAgent(world.seller.agentId);
    await kube.admin.secrets.create({
      metadata: {
        namespace: 'proxmox-system',
        name: 'proxmox-e2e',
        labels: { 'vm.noderings.com/proxmox-instance': 'default' },
      },
      stringData: {
        PROXMOX_URL: pveUrl,
        PROXMOX_USERNAME: 'root@pam',
        PROXMOX_TOKEN_ID: 'operator',
        PROXMOX_TOKEN_SECRET: secret,
        PROXMOX_TLS_FINGERPRINT: fingerprint,
      },
    });
    const adminKubeconfig = join(workDir, 'kubeconfig');
    await kube.sim.writeKubeconfig(adminKubeconfig);
    const operator = run(OPERATOR, [
      '--kubeconfig',
      adminKubeconfig,
      '--watch-namespace',
      namespace,
      '--operator-namespace',
      'proxmox-system',
      '--no-leader-election',
      '--metrics-listen',
      '127.0.0.1:0',
    ]);
    await waitFor(operator, /"operator started"/);

    const dispatcher = new Dispatcher({
      db,
      secretBox: world.secretBox,
      kubeconfigOf: () => Promise.resolve(kubeconfig),
      releaseClaim: (claimId) => world.claims.release(claimId),
      now: () => new Date(),
      logger: recordingLogger(),
      owner: `e2e-${randomUUID()}`,
      options: { pollIntervalMs: 200, resyncIntervalMs: 500, retryBaseMs: 200, maxBackoffMs: 2_000 },
    });
    dispatcher.start();
    try {
      const { id } = await orderVm(world);
      const running = await eventually(
        async () => {
          const row = await vmRow(db, id);
          expect(row.observed_phase, operator.output()).toBe('Running');
          return row;
        },
        60_000,
        200,
      );
      expect(running.observed_power_state).toBe('Running');
      expect(running.observed_conditions).toContainEqual(
        expect.objectContaining({ type: 'Ready', status: 'True' }),
      );
      expect(await guestNames(pveUrl, `${TOKEN_ID}=${secret}`, fingerprint)).toContain(`NR-${id}`);

      await changeVm(db, id, { desiredState: 'ABSENT' });
      dispatcher.kick();
      await eventually(
        async () => {
          expect((await vmRow(db, id)).deleted_at, operator.output()).toBeInstanceOf(Date);
        },
        60_000,
        200,
      );
      expect(await claimStatus(db, id)).toBe('RELEASED');
      expect(await guestNames(pveUrl, `${TOKEN_ID}=${secret}`, fingerprint)).not.toContain(`NR-${id}`);
      expect(await kube.admin.secrets.find({ namespace, name: `nr-${id}-cloudinit` })).toBeUndefined();
    } finally {
      await dispatcher.stop();
    }
  },
);
