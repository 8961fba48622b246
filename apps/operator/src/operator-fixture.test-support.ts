import { request } from 'node:https';

import type { ProxmoxVM } from '@noderings/kube';
import { CRD_API_VERSION, Informer, KubeClient, PROXMOX_INSTANCE_LABEL, installCrds } from '@noderings/kube';
import { startKubeSim } from '@noderings/kube-sim';
import type { Logger, SecretValues } from '@noderings/log';
import { captureLogs } from '@noderings/log/log-capture';
import { startPveSim } from '@noderings/pve-sim';
import type { PveSimOptions } from '@noderings/pve-sim';
import { createProxmoxClient, type ProxmoxClient } from '@noderings/proxmox';

import { startOperator } from './operator.js';
import type { RunningOperator, StartOperatorOptions } from './operator.js';

export const TOKEN_SECRET = 'f3b1c2d4-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
const OPERATOR_NAMESPACE = 'proxmox-system';
const WATCH_NAMESPACE = '7d2c9e4a-1b3f-4c5d-8e6f-9a0b1c2d3e4f-operator';

/** The namespace flags of an operator run as a child process against an env. */
export const OPERATOR_NAMESPACE_FLAGS = [
  '--watch-namespace',
  WATCH_NAMESPACE,
  '--operator-namespace',
  OPERATOR_NAMESPACE,
] as const;

type KubeSim = Awaited<ReturnType<typeof startKubeSim>>;
type PveSim = Awaited<ReturnType<typeof startPveSim>>;

export interface Env {
  kubeSim: KubeSim;
  pve: PveSim;
  kube: KubeClient;
  /** Everything every operator of this env logged, one line each. */
  logs: string[];
  /** The logger every operator of this env writes `logs` with, and the values it masks. */
  logger: Logger;
  secrets: SecretValues;
  operators: RunningOperator[];
  startOperator(extra?: Partial<StartOperatorOptions>): Promise<RunningOperator>;
  sim<T>(method: string, path: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

/** kube-sim and pve-sim on port 0, the CRDs, both namespaces and the instance Secret. */
export async function startEnv(pveOptions: Partial<PveSimOptions> = {}): Promise<Env> {
  const kubeSim = await startKubeSim({ listen: '127.0.0.1:0' });
  const pve = await startPveSim({
    taskMs: 20,
    tokens: [{ id: 'root@pam!operator', secret: TOKEN_SECRET }],
    ...pveOptions,
  });
  const kube = new KubeClient({ kubeconfigYaml: kubeSim.kubeconfigYaml });
  const { logger, secrets, raw: logs } = captureLogs({ name: 'operator' });
  const operators: RunningOperator[] = [];
  const env: Env = {
    kubeSim,
    pve,
    kube,
    logs,
    logger,
    secrets,
    operators,
    async startOperator(extra = {}) {
      const operator = await startOperator({
        watchNamespace: WATCH_NAMESPACE,
        operatorNamespace: OPERATOR_NAMESPACE,
        workers: 4,
        nodeConcurrency: 4,
        metricsListen: { host: '127.0.0.1', port: 0 },
        leaderElection: false,
        identity: `test-${operators.length}`,
        kube: { kubeconfigYaml: kubeSim.kubeconfigYaml },
        logger,
        secrets,
        shutdownTimeoutMs: 100,
        proxmoxClient: { timeoutMs: 2_000 },
        ...extra,
      });
      operators.push(operator);
      return operator;
    },
    sim: (method, path, body) => simRequest(pve, method, path, body),
    async close() {
      await Promise.allSettled(operators.map((o) => o.stop()));
      await Promise.allSettled([kube.close(), kubeSim.close(), pve.close()]);
    },
  };
  try {
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
        PROXMOX_URL: pve.url,
        PROXMOX_USERNAME: 'root@pam',
        PROXMOX_TOKEN_ID: 'operator',
        PROXMOX_TOKEN_SECRET: TOKEN_SECRET,
        PROXMOX_TLS_FINGERPRINT: pve.fingerprint,
      },
    });
  } catch (e: unknown) {
    await env.close();
    throw e;
  }
  return env;
}

function simRequest<T>(pve: PveSim, method: string, path: string, body?: unknown): Promise<T> {
  const url = new URL(path, pve.url);
  return new Promise<T>((resolve, reject) => {
    const req = request(
      url,
      { method, ca: pve.certPem, headers: { 'content-type': 'application/json' } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: T; error?: string };
          if (res.statusCode !== 200)
            reject(new Error(`${method} ${path}: ${parsed.error ?? String(res.statusCode)}`));
          else resolve(parsed.data as T);
        });
      },
    );
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

export interface SimCall {
  method: string;
  path: string;
  status: number;
}

export async function callsMatching(env: Env, method: string, pattern: RegExp): Promise<SimCall[]> {
  const calls = await env.sim<SimCall[]>('GET', '/sim/calls');
  return calls.filter((c) => c.method === method && pattern.test(c.path));
}

let counter = 0;

/** A ProxmoxVM order with a fresh uuid, MAC and VMID, and its cloud-init Secret created. */
export async function createVm(
  env: Env,
  patch: (vm: ProxmoxVM) => void = () => undefined,
): Promise<ProxmoxVM> {
  counter += 1;
  const uuid = `5a1e0c3b-2d4f-4e6a-8b9c-${counter.toString(16).padStart(12, '0')}`;
  const hex = counter.toString(16).toUpperCase().padStart(2, '0');
  const vm: ProxmoxVM = {
    apiVersion: CRD_API_VERSION,
    kind: 'ProxmoxVM',
    metadata: { name: `nr-${uuid}`, namespace: WATCH_NAMESPACE },
    spec: {
      vmId: uuid,
      node: 'pve1',
      vmid: 2000 + counter,
      templateVmid: 9000,
      cpu: { cores: 2, sockets: 1, type: 'host', units: 1024 },
      memoryMiB: 2048,
      disk: { storage: 'local-lvm', sizeGiB: 40 },
      network: {
        bridge: 'vmbr0',
        model: 'virtio',
        vlan: 42,
        mac: `BC:24:11:00:10:${hex}`,
        rateLimitMBps: 12,
        ipv4: { address: `203.0.113.${counter}/24`, gateway: '203.0.113.1' },
        ipv6: { address: `2001:db8::${hex.toLowerCase()}/64`, gateway: '2001:db8::1' },
        nameservers: ['203.0.113.53', '2001:db8::53'],
      },
      cloudInitSecretRef: `nr-${uuid}-cloudinit`,
      powerState: 'Running',
      tags: ['Customer-B', 'customer-a'],
    },
  };
  patch(vm);
  await env.kube.secrets.create({
    metadata: { namespace: WATCH_NAMESPACE, name: `nr-${uuid}-cloudinit` },
    stringData: { 'user-data': `#cloud-config\npassword: s3cret-${uuid}\n` },
  });
  return env.kube.proxmoxVMs.create(vm);
}

/** Polls `check` until it stops throwing, or rethrows its last error after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | Promise<T>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (e: unknown) {
      if (Date.now() > deadline) throw e;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** The operator's reconcile counter for `controller` and `result`, read from its /metrics (0 when absent). */
export async function reconcileCount(
  operator: RunningOperator,
  controller: string,
  result: string,
): Promise<number> {
  const text = await (await fetch(`${operator.url}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) =>
      l.startsWith(`noderings_operator_reconciles_total{controller="${controller}",result="${result}"}`),
    );
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

/**
 * Every message a ProxmoxVM's status showed (`status.message` and condition messages), in the order the
 * watch delivered them, so that a test sees passing states that polling could miss.
 */
export async function recordStatusMessages(
  env: Env,
): Promise<{ messages: string[]; stop: () => Promise<void> }> {
  const messages: string[] = [];
  const informer = new Informer(env.kube.proxmoxVMs, { namespace: WATCH_NAMESPACE });
  const record = (vm: ProxmoxVM): void => {
    const status = vm.status ?? {};
    for (const message of [status.message, ...(status.conditions ?? []).map((c) => c.message)]) {
      if (message !== undefined) messages.push(message);
    }
  };
  informer.addHandler({
    onAdd: record,
    onUpdate: (_old, vm) => {
      record(vm);
    },
  });
  informer.start();
  await informer.waitForSync(AbortSignal.timeout(10_000));
  return { messages, stop: () => informer.stop() };
}

/** A Proxmox client of the test's own against the env's simulator, with the instance's token. */
export function proxmoxClientFor(env: Env): ProxmoxClient {
  return createProxmoxClient({
    baseUrl: env.pve.url,
    token: `root@pam!operator=${TOKEN_SECRET}`,
    tls: { fingerprint: env.pve.fingerprint },
  });
}
