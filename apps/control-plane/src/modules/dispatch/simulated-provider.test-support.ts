import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TLSSocket } from 'node:tls';
import { fileURLToPath } from 'node:url';

import type { AgentClusterSim } from './dispatch.test-support.js';
import { eventually } from './dispatch.test-support.js';

// A provider's side as processes of their own, the way it runs for real: pve-sim, and the proxmox-operator
// watching the agent cluster (kube-sim). An app never imports another, so both are children.

// tsx as a loader rather than its CLI: the CLI would run each in a grandchild that a kill would miss.
const TSX_LOADER = new URL('../../../../../node_modules/tsx/dist/loader.mjs', import.meta.url).href;
const REPO_ROOT = fileURLToPath(new URL('../../../../../', import.meta.url));
const PVE_SIM = join(REPO_ROOT, 'sim/pve-sim/src/main.ts');
const OPERATOR = join(REPO_ROOT, 'apps/operator/src/main.ts');
const STARTUP_MS = 30_000;
const TOKEN_ID = 'root@pam!operator';

interface Child {
  readonly process: ChildProcess;
  output(): string;
}

export interface SimulatedProvider {
  readonly pveUrl: string;
  /** The node names pve-sim serves (`pve1`, …). */
  readonly pveNodes: readonly string[];
  /** Everything the operator and pve-sim printed, for failure messages. */
  output(): string;
  /** GET on pve-sim's API with the operator's token, over TLS pinned to pve-sim's certificate. */
  pveGet<T>(path: string): Promise<T>;
  /** pve-sim's test control (`/sim/…`: faults, what a VM's cloud-init reads), not part of Proxmox VE. */
  sim<T>(method: string, path: string, body?: unknown): Promise<T>;
  /** The names of pve-sim's guests. */
  guestNames(): Promise<string[]>;
  /** Runs the operator on the agent's namespace, with pve-sim's credentials in `proxmox-system`. */
  startOperator(agentId: string): Promise<void>;
  close(): Promise<void>;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
}

export async function startSimulatedProvider(
  kube: AgentClusterSim,
  options: { readonly nodes?: number; readonly taskMs?: number } = {},
): Promise<SimulatedProvider> {
  const children: Child[] = [];
  const workDir = mkdtempSync(join(tmpdir(), 'simulated-provider-'));
  const run = (script: string, args: readonly string[]): Child => {
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
  };
  const waitFor = (child: Child, pattern: RegExp) =>
    eventually(
      () => {
        if (child.process.exitCode !== null) throw new Error(`exited early:\n${child.output()}`);
        const match = pattern.exec(child.output());
        if (match === null) throw new Error(`not started yet:\n${child.output()}`);
        return match;
      },
      STARTUP_MS,
      100,
    );
  const close = async () => {
    for (const child of children) if (child.process.exitCode === null) child.process.kill('SIGKILL');
    await Promise.all(children.map((c) => exited(c.process)));
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    const secret = randomBytes(16).toString('hex');
    const nodes = options.nodes ?? 1;
    const pve = run(PVE_SIM, [
      '--listen',
      '127.0.0.1:0',
      '--nodes',
      String(nodes),
      '--task-ms',
      String(options.taskMs ?? 20),
      '--token',
      `${TOKEN_ID}=${secret}`,
    ]);
    const [, pveUrl = ''] = await waitFor(pve, /listening on (https:\/\/\S+)/);
    const [, fingerprint = ''] = await waitFor(pve, /fingerprint: (\S+)/);
    const token = `${TOKEN_ID}=${secret}`;
    const pveGet = <T>(path: string) =>
      callJson<T>('GET', new URL(`/api2/json${path}`, pveUrl), token, fingerprint);
    return {
      pveUrl,
      pveNodes: Array.from({ length: nodes }, (_, i) => `pve${String(i + 1)}`),
      output: () => children.map((c) => c.output()).join('\n'),
      pveGet,
      sim: (method, path, body) => callJson(method, new URL(`/sim${path}`, pveUrl), token, fingerprint, body),
      guestNames: async () =>
        (await pveGet<{ name?: string }[]>('/cluster/resources?type=vm')).map((g) => g.name ?? ''),
      async startOperator(agentId) {
        await kube.admin.secrets.create({
          metadata: {
            namespace: 'proxmox-system',
            name: `proxmox-${agentId}`,
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
        const adminKubeconfig = join(workDir, `kubeconfig-${agentId}`);
        await kube.sim.writeKubeconfig(adminKubeconfig);
        const operator = run(OPERATOR, [
          '--kubeconfig',
          adminKubeconfig,
          '--watch-namespace',
          `${agentId}-operator`,
          '--operator-namespace',
          'proxmox-system',
          '--no-leader-election',
          '--metrics-listen',
          '127.0.0.1:0',
        ]);
        await waitFor(operator, /"operator started"/);
      },
      close,
    };
  } catch (e: unknown) {
    await close();
    throw e;
  }
}

function callJson<T>(
  method: string,
  url: URL,
  token: string,
  fingerprint: string,
  body?: unknown,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { authorization: `PVEAPIToken=${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    // A connection of its own each time: on a resumed TLS session (the default agent caches them) there
    // is no peer certificate to pin.
    const req = request(url, { method, headers, rejectUnauthorized: false, agent: false }, (res) => {
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
        const text = Buffer.concat(chunks).toString('utf8');
        if (res.statusCode !== 200) {
          reject(new Error(`${method} ${url.pathname} answered ${String(res.statusCode)}: ${text}`));
          return;
        }
        resolve((JSON.parse(text) as { data: T }).data);
      });
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}
