import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, open, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

import type { ApiResource, KubeClient, KubeObject, Secret } from '@noderings/kube';

import { catalogueEntry, TSX_LOADER, type CatalogueEntry } from './catalogue.js';
import {
  ENDPOINTS_ENV,
  podLogPath,
  serviceEndpointsPath,
  type K3sLayout,
  type ServiceEndpoints,
} from './layout.js';
import { materialiseVolumes, mountedArgs } from './pod-volumes.js';
import { ContainerConfigError, containerEnv, loopbackListenArgs, type Workload } from './workload.js';

const run = promisify(execFile);

const apps = (kind: string, plural: string): ApiResource<Workload> => ({
  group: 'apps',
  version: 'v1',
  kind,
  plural,
  namespaced: true,
  hasStatus: true,
});
const DEPLOYMENTS = apps('Deployment', 'deployments');
const DAEMON_SETS = apps('DaemonSet', 'daemonsets');
const CONFIG_MAPS: ApiResource<KubeObject & { data?: Record<string, string> }> = {
  group: '',
  version: 'v1',
  kind: 'ConfigMap',
  plural: 'configmaps',
  namespaced: true,
  hasStatus: false,
};

interface Service extends KubeObject {
  spec?: {
    selector?: Record<string, string>;
    ports?: { name?: string; port: number }[];
  };
}
const SERVICES: ApiResource<Service> = {
  group: '',
  version: 'v1',
  kind: 'Service',
  plural: 'services',
  namespaced: true,
  hasStatus: true,
};

const POLL_MS = 300;
const RESTART_BACKOFF_MS = 2000;
/** Service account tokens the runner hands out last as long as a simulated host is likely to run. */
const TOKEN_DURATION = '720h';

type Phase = 'starting' | 'running' | 'failed';

interface Running {
  readonly key: string;
  readonly resource: ApiResource<Workload>;
  readonly namespace: string;
  readonly name: string;
  /** The pod template's hash: a new one replaces the process, as a rollout would. */
  readonly templateHash: string;
  generation: number;
  phase: Phase;
  /** When `phase` last changed: the Available condition's lastTransitionTime. */
  since: string;
  message: string;
  child?: ChildProcess;
  restarts: number;
  /** Its environment could not be built yet (a Secret it names is missing): retried every pass. */
  needsLaunch?: boolean;
  restartTimer?: NodeJS.Timeout;
  log?: FileHandle;
  /** The status last written, so that an unchanged one is not written again. */
  written?: string;
  /** The pod template's labels, which Services select. */
  labels: Readonly<Record<string, string>>;
  /** The `host:port` its process bound, from its started line. */
  address?: string;
}

/**
 * The kubelet and workload controllers of a simulated k3s, as small as they can be: every Deployment and
 * DaemonSet gets one process (whatever its replicas) when its image is in the catalogue, its environment
 * built from the Secrets and ConfigMaps it names and a kubeconfig for its service account, and its
 * status written as the controllers would once the process says it serves. Its Secret, ConfigMap and
 * emptyDir volumes are files under `/var/lib/kubelet/pods/<namespace>_<name>/volumes/`, and arguments
 * naming a path under a mount point there. A Service selecting a serving process is published in
 * `/run/k3s/endpoints/` with the loopback address the process bound (`K3S_SIM_ENDPOINTS_DIR` tells every
 * process where). Output goes to `/var/log/pods/<namespace>_<name>.log`.
 */
export class PodRunner {
  private readonly running = new Map<string, Running>();
  private timer?: NodeJS.Timeout;
  private stopped = false;
  private pass = Promise.resolve();
  /** The endpoints files written, by path, with their text. */
  private readonly endpointsWritten = new Map<string, string>();

  constructor(
    private readonly admin: KubeClient,
    private readonly layout: K3sLayout,
    /** Writes a kubeconfig for this server with another identity (kube-sim's own writer). */
    private readonly writeAccountKubeconfig: (
      path: string,
      token: string,
      namespace: string,
    ) => Promise<void>,
  ) {}

  start(): void {
    const tick = () => {
      this.pass = this.reconcile()
        .catch((e: unknown) => {
          process.stderr.write(`k3s-sim: pod runner: ${e instanceof Error ? e.message : String(e)}\n`);
        })
        .finally(() => {
          if (!this.stopped) this.timer = setTimeout(tick, POLL_MS);
        });
    };
    tick();
  }

  /** Stops every process it started (SIGTERM, then SIGKILL after 5 s). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.pass;
    await Promise.all([...this.running.values()].map((r) => this.kill(r)));
    this.running.clear();
  }

  private async reconcile(): Promise<void> {
    const seen = new Set<string>();
    for (const resource of [DEPLOYMENTS, DAEMON_SETS]) {
      const { items } = await this.admin.resource(resource).list();
      for (const workload of items) {
        const namespace = workload.metadata?.namespace ?? 'default';
        const name = workload.metadata?.name ?? '';
        if (workload.metadata?.deletionTimestamp !== undefined) continue;
        const key = `${resource.kind}/${namespace}/${name}`;
        seen.add(key);
        const templateHash = hashOf(workload.spec?.template ?? {});
        let entry = this.running.get(key);
        if (entry !== undefined && entry.templateHash !== templateHash) {
          await this.kill(entry);
          entry = undefined;
        }
        if (entry === undefined) {
          entry = {
            key,
            resource,
            namespace,
            name,
            templateHash,
            generation: workload.metadata?.generation ?? 1,
            phase: 'starting',
            since: timestamp(),
            message: '',
            restarts: 0,
            labels: workload.spec?.template?.metadata?.labels ?? {},
          };
          this.running.set(key, entry);
          await this.launch(entry, workload);
        } else if (entry.needsLaunch === true) {
          await this.launch(entry, workload);
        }
        entry.generation = workload.metadata?.generation ?? entry.generation;
        await this.writeStatus(entry, workload);
      }
    }
    for (const [key, entry] of this.running) {
      if (seen.has(key)) continue;
      this.running.delete(key);
      await this.kill(entry);
    }
    await this.publishEndpoints();
  }

  /** Every Service whose selector matches a serving process, with that process's address. */
  private async publishEndpoints(): Promise<void> {
    const { items } = await this.admin.resource(SERVICES).list();
    const wanted = new Map<string, string>();
    for (const service of items) {
      const namespace = service.metadata?.namespace ?? 'default';
      const selector = Object.entries(service.spec?.selector ?? {});
      if (selector.length === 0) continue;
      const backend = [...this.running.values()].find(
        (r) =>
          r.namespace === namespace &&
          r.phase === 'running' &&
          r.address !== undefined &&
          selector.every(([k, v]) => r.labels[k] === v),
      );
      if (backend?.address === undefined) continue;
      const address = backend.address;
      // One process serves every port of the Service, whichever targetPort each names.
      const ports: Record<string, string> = {};
      for (const port of service.spec?.ports ?? []) {
        ports[String(port.port)] = address;
        if (port.name !== undefined) ports[port.name] = address;
      }
      const endpoints: ServiceEndpoints = { ports };
      wanted.set(
        serviceEndpointsPath(this.layout.endpoints, namespace, service.metadata?.name ?? ''),
        `${JSON.stringify(endpoints)}\n`,
      );
    }
    for (const path of this.endpointsWritten.keys())
      if (!wanted.has(path)) {
        await rm(path, { force: true });
        this.endpointsWritten.delete(path);
      }
    for (const [path, text] of wanted) {
      if (this.endpointsWritten.get(path) === text) continue;
      await mkdir(this.layout.endpoints, { recursive: true });
      await writeFile(path, text);
      this.endpointsWritten.set(path, text);
    }
  }

  private async launch(entry: Running, workload: Workload): Promise<void> {
    const container = workload.spec?.template?.spec?.containers?.[0];
    const image = container?.image ?? '';
    const program = catalogueEntry(image);
    if (container === undefined || program === undefined) {
      // No process for this image: a stand-in that is available at once.
      setPhase(entry, 'running', `k3s-sim runs no process for image ${image}; reported available`);
      return;
    }
    let env: Record<string, string>;
    let args: string[];
    try {
      const lookup = (kind: 'Secret' | 'ConfigMap', name: string) => this.dataOf(kind, entry.namespace, name);
      env = await containerEnv(container, lookup);
      const mounts = await materialiseVolumes(
        join(this.layout.pods, `${entry.namespace}_${entry.name}`),
        workload.spec?.template?.spec?.volumes ?? [],
        container,
        lookup,
      );
      args = mountedArgs(container.args ?? [], mounts);
    } catch (e: unknown) {
      if (!(e instanceof ContainerConfigError)) throw e;
      // The kubelet retries until the Secret appears; the next pass tries again.
      setPhase(entry, 'failed', `CreateContainerConfigError: ${e.message}`);
      entry.needsLaunch = true;
      return;
    }
    entry.needsLaunch = false;
    const account = workload.spec?.template?.spec?.serviceAccountName ?? 'default';
    const kubeconfig = await this.accountKubeconfig(entry.namespace, account);
    await this.spawnProcess(
      entry,
      program,
      [...loopbackListenArgs(args), ...(program.kubeconfigFlag ? ['--kubeconfig', kubeconfig] : [])],
      { ...env, KUBECONFIG: kubeconfig, [ENDPOINTS_ENV]: this.layout.endpoints },
    );
  }

  private async spawnProcess(
    entry: Running,
    program: CatalogueEntry,
    args: string[],
    env: Record<string, string>,
  ): Promise<void> {
    await mkdir(this.layout.podLogs, { recursive: true });
    entry.log ??= await open(podLogPath(this.layout, entry.namespace, entry.name), 'a');
    const log = entry.log;
    const child = spawn(process.execPath, ['--import', TSX_LOADER, program.main, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    entry.child = child;
    setPhase(entry, 'starting', `started ${program.main}`);
    let recent = '';
    const read = (chunk: Buffer) => {
      void log.write(chunk).catch(() => undefined);
      if (entry.phase !== 'starting') return;
      recent = (recent + chunk.toString('utf8')).slice(-8192);
      const started = program.started.exec(recent);
      if (started !== null) {
        entry.address = started[1];
        setPhase(entry, 'running', 'serving');
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', (code, signal) => {
      if (entry.child !== child) return;
      entry.child = undefined;
      setPhase(entry, 'failed', `exited (${signal ?? `code ${String(code)}`}); restarting`);
      if (this.stopped || !this.running.has(entry.key)) return;
      entry.restarts++;
      entry.restartTimer = setTimeout(() => {
        if (this.stopped || this.running.get(entry.key) !== entry) return;
        void this.spawnProcess(entry, program, args, env);
      }, RESTART_BACKOFF_MS);
    });
  }

  private async kill(entry: Running): Promise<void> {
    clearTimeout(entry.restartTimer);
    const child = entry.child;
    entry.child = undefined;
    if (child?.exitCode === null && child.signalCode === null) {
      const exited = new Promise<void>((resolve) => {
        child.once('exit', () => {
          resolve();
        });
      });
      child.kill('SIGTERM');
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
      }, 5000);
      await exited;
      clearTimeout(timer);
    }
    await entry.log?.close();
    entry.log = undefined;
  }

  private async dataOf(
    kind: 'Secret' | 'ConfigMap',
    namespace: string,
    name: string,
  ): Promise<Record<string, string> | undefined> {
    if (kind === 'Secret') {
      const secret: Secret | undefined = await this.admin.secrets.find({ namespace, name });
      if (secret === undefined) return undefined;
      return Object.fromEntries(
        Object.entries(secret.data ?? {}).map(([k, v]) => [k, Buffer.from(v, 'base64').toString('utf8')]),
      );
    }
    return (await this.admin.resource(CONFIG_MAPS).find({ namespace, name }))?.data ?? undefined;
  }

  /** A kubeconfig for the service account, as the token a pod gets mounted (`kubectl create token`). */
  private async accountKubeconfig(namespace: string, account: string): Promise<string> {
    const { stdout } = await run('kubectl', [
      ...['--kubeconfig', this.layout.kubeconfig, '-n', namespace],
      ...['create', 'token', account, `--duration=${TOKEN_DURATION}`],
    ]);
    const path = join(this.layout.podKubeconfigs, `${namespace}_${account}.yaml`);
    await this.writeAccountKubeconfig(path, stdout.trim(), namespace);
    return path;
  }

  private async writeStatus(entry: Running, workload: Workload): Promise<void> {
    const ready = entry.phase === 'running' ? 1 : 0;
    const status =
      entry.resource === DEPLOYMENTS
        ? deploymentStatus(entry, ready, workload.spec?.replicas ?? 1)
        : daemonSetStatus(entry, ready);
    const text = JSON.stringify(status);
    if (entry.written === text) return;
    await this.admin
      .resource(entry.resource)
      .mergePatchStatus({ namespace: entry.namespace, name: entry.name }, { status });
    entry.written = text;
  }
}

function deploymentStatus(entry: Running, ready: number, desired: number): Record<string, unknown> {
  const available = ready > 0;
  return {
    observedGeneration: entry.generation,
    replicas: 1,
    updatedReplicas: 1,
    readyReplicas: ready,
    availableReplicas: ready,
    unavailableReplicas: Math.max(desired - ready, 0),
    conditions: [
      {
        type: 'Available',
        status: available ? 'True' : 'False',
        reason: available ? 'MinimumReplicasAvailable' : 'MinimumReplicasUnavailable',
        message: entry.message,
        lastUpdateTime: entry.since,
        lastTransitionTime: entry.since,
      },
    ],
  };
}

function daemonSetStatus(entry: Running, ready: number): Record<string, unknown> {
  return {
    observedGeneration: entry.generation,
    desiredNumberScheduled: 1,
    currentNumberScheduled: 1,
    updatedNumberScheduled: 1,
    numberReady: ready,
    numberAvailable: ready,
    numberUnavailable: 1 - ready,
    numberMisscheduled: 0,
  };
}

function setPhase(entry: Running, phase: Phase, message: string): void {
  if (entry.phase !== phase) entry.since = timestamp();
  entry.phase = phase;
  entry.message = message;
}

function timestamp(): string {
  return new Date().toISOString().replace(/\.\d+Z$/, 'Z');
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}
