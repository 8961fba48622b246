import { randomBytes, randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startControlPlane, type ControlPlane } from '@noderings/control-plane';
import { installCrds, KubeClient } from '@noderings/kube';
import { startKubeSim, type KubeSim } from '@noderings/kube-sim';
import { startPveExporter } from '@noderings/pve-exporter';
import { createProxmoxClient } from '@noderings/proxmox';
import { startPveSim, type PveSim } from '@noderings/pve-sim';

import { applyProxmoxCredentials, prepareAgentCluster, writeOperatorKubeconfig } from './agent-cluster.js';
import { ControlPlaneClient, type Caller } from './control-plane-client.js';
import { formatListenAddress, type ListenAddress } from './listen-address.js';
import { waitForMarketplaceReady } from './marketplace-readiness.js';
import { startMetricsForwardingLoop } from './metrics-forwarding-loop.js';
import type { ProxmoxTemplate } from './offer-seed.js';
import { startOperatorProcess } from './operator-process.js';
import type { Account } from './provider-seed.js';
import { openSandboxDataDir, type SandboxDataDir } from './sandbox-data-dir.js';
import { SandboxLog, type LogSink } from './sandbox-log.js';
import { writeSandboxPlatformVersions } from './sandbox-platform-versions.js';
import {
  CUSTOMER_EMAIL,
  DEMO_PASSWORD,
  PROVIDER_EMAIL,
  seedSandbox,
  STAFF_EMAIL,
  type SeededSandbox,
} from './sandbox-seed.js';
import { reuseSeed } from './seed-reuse.js';
import { newSeedRecord, type SeedRecord } from './seed-record.js';
import { ShutdownStack } from './shutdown-stack.js';

export interface SandboxOptions {
  /**
   * Where the sandbox is kept between starts: the embedded database, pve-sim's and kube-sim's state, the
   * control plane's key and what was seeded (see sandbox-data-dir.ts). A start reuses a seeded folder
   * instead of seeding again. Without it, everything is in memory and gone at close.
   */
  readonly dataDir?: string;
  /** Empties `dataDir` first, for a fresh seed. */
  readonly reset?: boolean;
  /** The control plane's address; port 0 picks a free one (the default, as for the four below). */
  readonly listen?: ListenAddress;
  readonly pveListen?: ListenAddress;
  readonly kubeListen?: ListenAddress;
  /** The agent's pve-exporter. */
  readonly exporterListen?: ListenAddress;
  /** The proxmox-operator's `/metrics` and `/healthz`. */
  readonly operatorMetricsListen?: ListenAddress;
  /** The control plane's pino level (default `warn`: request logs stay quiet). */
  readonly logLevel?: string;
  /**
   * Forward pve-sim's metrics to the control plane every `intervalMs` as the agent's Alloy would (default
   * on, every 30 s); false leaves that to the caller (a test running a real Prometheus in agent mode), and
   * the sandbox is then ready without waiting for the plans to reach the marketplace, which needs them.
   */
  readonly forwardMetrics?: false | { readonly intervalMs: number };
  /** The built dashboard (`apps/dashboard/dist`), served by the control plane from `/`. */
  readonly dashboardDir?: string;
  /** The one log stream, a line at a time (default: standard output). */
  readonly log?: LogSink;
  /** Aborting it stops the start at its next step (everything started is closed, and it rejects). */
  readonly signal?: AbortSignal;
  /**
   * Nodes pve-sim has beyond the three the seed registers (default none): a Proxmox node the provider has
   * not put on sale yet, as `pve4`, `pve5`, ….
   */
  readonly spareProxmoxNodes?: number;
}

export interface Sandbox {
  /** Like http://127.0.0.1:8080: the API (its description at `/openapi.json`) and the dashboard if served. */
  readonly controlPlaneUrl: string;
  /** Like https://127.0.0.1:8006, the simulated provider's Proxmox VE. */
  readonly pveUrl: string;
  /** SHA-256 fingerprint of pve-sim's self-signed certificate (new at every start). */
  readonly pveFingerprint: string;
  /** An admin API token: `Authorization: PVEAPIToken={id}={secret}` (new at every start). */
  readonly pveToken: { readonly id: string; readonly secret: string };
  /** The simulated agent cluster's Kubernetes API. */
  readonly kubeUrl: string;
  /** The agent's pve-exporter: `${exporterUrl}/pve?target=…` serves pve-sim's metrics. */
  readonly exporterUrl: string;
  /**
   * The document `GET /v1/platform-versions` serves: its k3s is a small file in the data folder (or a
   * temporary one), pinned by a `file:` URL and its SHA-256, for `nr cluster register` to fetch and check.
   */
  readonly platformVersionsFile: string;
  /**
   * For trying `nr` against the sandbox on a simulated host: a config folder, the host's folder and a
   * Proxmox instances file (0600) with pve-sim's current token, written at every start.
   */
  readonly nrTrial: { readonly configDir: string; readonly hostDir: string; readonly instancesFile: string };
  /** The data folder, if any, and kube-sim's admin kubeconfig in it. */
  readonly dataDir: string | undefined;
  readonly kubeconfigPath: string | undefined;
  /** Whether this start took up the data folder's earlier seed rather than seeding. */
  readonly reused: boolean;
  /** The process id of the proxmox-operator, and where it serves `/metrics`. */
  readonly operatorPid: number;
  readonly operatorMetricsUrl: string;
  readonly credentials: {
    /** Its password is new at each fresh seed and kept with the data. */
    readonly staff: Account;
    readonly provider: Account & { readonly organizationId: string };
    readonly customer: Account & { readonly organizationId: string };
  };
  readonly seeded: SeededSandbox;
  /** Stops the metrics, the operator, the control plane, then the simulators (which save their state). */
  close(): Promise<void>;
}

const ANY_PORT: ListenAddress = { host: '127.0.0.1', port: 0 };
const PVE_TOKEN_ID = 'root@pam!sandbox';
/** As `npm run pve-sim` runs it: tasks take as long as small ones on a real host, and a 401 is held back. */
const PVE_TASK_MS = 250;
const PVE_AUTH_FAIL_DELAY_MS = 3000;
/** The Proxmox nodes the seed registers and sells. */
const SEEDED_PVE_NODES = 3;

function proxmoxNodeCount(options: SandboxOptions): number {
  return SEEDED_PVE_NODES + (options.spareProxmoxNodes ?? 0);
}
/** As the agent stack's Alloy scrapes. */
const METRICS_INTERVAL_MS = 30_000;
/** Preflight re-evaluates as soon as the first metrics arrive; this is only the limit. */
const MARKETPLACE_READY_TIMEOUT_MS = 60_000;

/** Where the state of a start lives: the data folder, or a temporary folder for what must be a file. */
interface Storage {
  readonly dataDir: SandboxDataDir | undefined;
  readonly operatorKubeconfig: string;
  /** Where the platform versions document and the simulated k3s it pins are written. */
  readonly platformVersionsDir: string;
  /** Where `nr` can be tried against the sandbox. */
  readonly nrTrialDir: string;
  readonly secretKey: Buffer;
  readonly seedRecord: SeedRecord | undefined;
}

/**
 * Starts the whole system on one machine: a simulated provider (pve-sim with three nodes, kube-sim as its
 * agent cluster, the proxmox-operator, the pve-exporter and a metrics forwarding loop) and the control
 * plane on an embedded database, seeded through the API (or reusing the data folder's seed) until a
 * customer can buy every plan. The control plane's /readyz answers 503 until then. If anything fails,
 * everything started so far is closed before the error is thrown.
 */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const log = new SandboxLog(options.log ?? writeToStdout);
  const started = new ShutdownStack();
  const step = (text: string) => {
    options.signal?.throwIfAborted();
    log.progress(text);
  };
  let ready = false;
  try {
    const storage = await openStorage(options, started);
    const paths = storage.dataDir?.paths;
    const previous = storage.seedRecord;

    step('starting pve-sim…');
    const pveToken = { id: PVE_TOKEN_ID, secret: randomUUID() };
    const pve = await startPveSim({
      listen: formatListenAddress(listenAgain(options.pveListen, previous?.pveUrl)),
      tokens: [pveToken],
      nodes: proxmoxNodeCount(options),
      taskMs: PVE_TASK_MS,
      authFailDelayMs: PVE_AUTH_FAIL_DELAY_MS,
      ...(paths !== undefined && { statePath: paths.pveState }),
    });
    started.push(() => pve.close());
    step('starting kube-sim…');
    const kube = await startKubeSim({
      listen: formatListenAddress(listenAgain(options.kubeListen, previous?.kubeUrl)),
      ...(paths !== undefined && { statePath: paths.kubeState }),
    });
    started.push(() => kube.close());
    const kubeAdmin = new KubeClient({ kubeconfigYaml: kube.kubeconfigYaml });
    started.push(() => kubeAdmin.close());
    await installCrds(kubeAdmin.customResourceDefinitions);
    if (paths !== undefined) await kube.writeKubeconfig(paths.adminKubeconfig);

    step('starting the control plane…');
    const platformVersions = await writeSandboxPlatformVersions(storage.platformVersionsDir);
    const nrTrial = await writeNrTrial(storage.nrTrialDir, {
      url: pve.url,
      token: pveToken,
      fingerprint: pve.fingerprint,
    });
    const staff = { email: STAFF_EMAIL, password: previous?.staffPassword ?? newPassword() };
    const controlPlane = await startControlPlane({
      database: paths === undefined ? { inMemory: true } : { dataDir: paths.database },
      secretKey: storage.secretKey,
      listen: options.listen ?? ANY_PORT,
      logLevel: options.logLevel ?? 'warn',
      logDestination: log.lineWriter('control-plane'),
      admin: staff,
      peeringApiServerUrl: kube.url,
      // Everything runs on this machine: kube-sim on 127.0.0.1, the agent at a documentation address.
      allowPrivateDestinations: true,
      ...(options.dashboardDir !== undefined && { dashboardDir: options.dashboardDir }),
      platformVersionsFile: platformVersions.file,
      readiness: () => ready,
    });
    started.push(() => controlPlane.close());
    log.progress(`control plane on ${controlPlane.url} (/readyz answers 503 until the sandbox is ready)`);

    const api = new ControlPlaneClient(controlPlane.url);
    const { seeded, providerSession, metricsToken } = await seedOrReuse({
      api,
      previous,
      staff,
      pve,
      kube,
      kubeAdmin,
      dataDir: storage.dataDir?.dir ?? '',
      step,
      log,
    });
    const agentId = seeded.provider.agent.id;

    step('starting the proxmox-operator…');
    await applyProxmoxCredentials(kubeAdmin, agentId, {
      url: pve.url,
      tokenId: pveToken.id,
      tokenSecret: pveToken.secret,
      fingerprint: pve.fingerprint,
    });
    await writeOperatorKubeconfig(kube, storage.operatorKubeconfig);
    const operator = await startOperatorProcess({
      kubeconfigPath: storage.operatorKubeconfig,
      agentId,
      metricsListen: options.operatorMetricsListen ?? ANY_PORT,
      log,
    });
    started.push(() => operator.close());
    log.progress(`operator started (pid ${String(operator.pid)})`);

    const exporterUrl = await startMetrics({
      options,
      started,
      log,
      pve,
      pveToken,
      controlPlane,
      agentId,
      metricsToken,
    });
    if (options.forwardMetrics !== false) {
      step('waiting for preflight to pass the plans…');
      await waitForMarketplaceReady(
        api,
        providerSession,
        seeded.offer.plans.map((p) => p.id),
        { timeoutMs: MARKETPLACE_READY_TIMEOUT_MS, signal: options.signal },
      );
    }
    await storage.dataDir?.writeSeedRecord(
      newSeedRecord({
        seededAt: previous?.seededAt ?? new Date().toISOString(),
        staffPassword: staff.password,
        metricsToken,
        pveUrl: pve.url,
        kubeUrl: kube.url,
        seeded,
      }),
    );
    ready = true;
    log.progress(`ready on ${controlPlane.url}`);
    return {
      controlPlaneUrl: controlPlane.url,
      pveUrl: pve.url,
      pveFingerprint: pve.fingerprint,
      pveToken,
      kubeUrl: kube.url,
      exporterUrl,
      platformVersionsFile: platformVersions.file,
      nrTrial,
      dataDir: storage.dataDir?.dir,
      kubeconfigPath: paths?.adminKubeconfig,
      reused: previous !== undefined,
      operatorPid: operator.pid,
      operatorMetricsUrl: operator.metricsUrl,
      credentials: {
        staff,
        provider: {
          email: PROVIDER_EMAIL,
          password: DEMO_PASSWORD,
          organizationId: seeded.provider.organizationId,
        },
        customer: {
          email: CUSTOMER_EMAIL,
          password: DEMO_PASSWORD,
          organizationId: seeded.customer.organizationId,
        },
      },
      seeded,
      close: () => started.close(),
    };
  } catch (e: unknown) {
    // The failure to start is the one worth reporting; one while cleaning up after it would hide it.
    await started.close().catch(() => undefined);
    throw e;
  }
}

/**
 * A fresh seed through the API, or (with a seed record) the earlier one taken up again; either way the
 * provider's session and the agent's metrics credential for what starts next.
 */
async function seedOrReuse(input: {
  readonly api: ControlPlaneClient;
  readonly previous: SeedRecord | undefined;
  readonly staff: Account;
  readonly pve: PveSim;
  readonly kube: KubeSim;
  readonly kubeAdmin: KubeClient;
  readonly dataDir: string;
  readonly step: (text: string) => void;
  readonly log: SandboxLog;
}): Promise<{ seeded: SeededSandbox; providerSession: Caller; metricsToken: string }> {
  const { api, previous, pve } = input;
  const prepare = (agentId: string) => prepareAgentCluster(input.kube, input.kubeAdmin, agentId);
  if (previous !== undefined) {
    input.step(`reusing the sandbox seeded at ${previous.seededAt} (--reset seeds afresh)`);
    const providerSession = await reuseSeed(api, previous, {
      dataDir: input.dataDir,
      pveUrl: pve.url,
      kubeUrl: input.kube.url,
      prepareAgentCluster: prepare,
      log: input.log,
    });
    return {
      seeded: withPlatformEndpoint(previous.seeded, pve.url),
      providerSession,
      metricsToken: previous.metricsToken,
    };
  }
  input.step('seeding: a provider with its infrastructure and plans, and a customer…');
  const { seeded, providerSession } = await seedSandbox(api, {
    staff: input.staff,
    pveUrl: pve.url,
    pveNodes: pve.state.nodes.slice(0, SEEDED_PVE_NODES).map((n) => n.name),
    pveTemplates: templatesOf(pve),
    prepareAgentCluster: prepare,
  });
  const metricsToken = await createMetricsCredential(api, providerSession, seeded.provider.agent.id);
  input.log.progress('seeded');
  return { seeded, providerSession, metricsToken };
}

/**
 * The files `nr` is tried with against the sandbox (the summary prints the commands): an instances file
 * with pve-sim's token of this start, readable by its owner alone as register demands.
 */
async function writeNrTrial(
  dir: string,
  pve: {
    readonly url: string;
    readonly token: { readonly id: string; readonly secret: string };
    readonly fingerprint: string;
  },
): Promise<Sandbox['nrTrial']> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const instancesFile = join(dir, 'proxmox-instances.yaml');
  await writeFile(
    instancesFile,
    `# pve-sim of this sandbox start (its token is new at every start)\ninstances:\n  - id: pve-sim\n    url: ${pve.url}\n    tokenId: "${pve.token.id}"\n    tokenSecret: ${pve.token.secret}\n    tlsFingerprint: "${pve.fingerprint}"\n`,
    { mode: 0o600 },
  );
  await chmod(instancesFile, 0o600);
  return { configDir: join(dir, 'config'), hostDir: join(dir, 'host'), instancesFile };
}

/** The data folder, or (without one) a temporary folder for the operator's kubeconfig and a new key. */
async function openStorage(options: SandboxOptions, started: ShutdownStack): Promise<Storage> {
  if (options.dataDir !== undefined) {
    const dataDir = await openSandboxDataDir(options.dataDir, { reset: options.reset ?? false });
    started.push(() => dataDir.release());
    return {
      dataDir,
      operatorKubeconfig: dataDir.paths.operatorKubeconfig,
      platformVersionsDir: dataDir.paths.platformVersions,
      nrTrialDir: dataDir.paths.nrTrial,
      secretKey: dataDir.secretKey,
      seedRecord: dataDir.seedRecord,
    };
  }
  const workDir = await mkdtemp(join(tmpdir(), 'noderings-sandbox-'));
  started.push(() => rm(workDir, { recursive: true, force: true }));
  return {
    dataDir: undefined,
    operatorKubeconfig: join(workDir, 'operator-kubeconfig.yaml'),
    platformVersionsDir: join(workDir, 'platform-versions'),
    nrTrialDir: join(workDir, 'nr'),
    secretKey: randomBytes(32),
    seedRecord: undefined,
  };
}

/**
 * The agent's metrics path: the pve-exporter pinned to pve-sim's certificate and, unless the caller
 * forwards metrics itself, the loop standing in for Alloy, whose first round has run when this returns
 * (the platform is online and the nodes' inventory synced). Returns the exporter's URL.
 */
async function startMetrics(input: {
  readonly options: SandboxOptions;
  readonly started: ShutdownStack;
  readonly log: SandboxLog;
  readonly pve: PveSim;
  readonly pveToken: { readonly id: string; readonly secret: string };
  readonly controlPlane: ControlPlane;
  readonly agentId: string;
  readonly metricsToken: string;
}): Promise<string> {
  const { pve, started } = input;
  const token = `${input.pveToken.id}=${input.pveToken.secret}`;
  const exporter = await startPveExporter({
    listen: formatListenAddress(input.options.exporterListen ?? ANY_PORT),
    config: {
      source: 'the sandbox',
      modules: new Map([
        [
          'default',
          { client: { token, tls: { fingerprint: pve.fingerprint } }, secrets: [input.pveToken.secret] },
        ],
      ]),
    },
    log: () => undefined,
  });
  started.push(() => exporter.close());
  const forwarding = input.options.forwardMetrics;
  if (forwarding === false) return exporter.url;
  input.log.progress('forwarding the agent’s metrics…');
  const pveClient = createProxmoxClient({
    baseUrl: pve.url,
    token,
    tls: { fingerprint: pve.fingerprint },
  });
  started.push(() => pveClient.close());
  const loop = startMetricsForwardingLoop({
    pve: pveClient,
    agentId: input.agentId,
    instance: new URL(pve.url).host,
    remoteWriteUrl: `${input.controlPlane.url}/api/v1/write`,
    token: input.metricsToken,
    intervalMs: forwarding?.intervalMs ?? METRICS_INTERVAL_MS,
    onError: (e) => {
      input.log.progress(`could not forward metrics: ${e.message}`);
    },
  });
  started.push(() => loop.close());
  await loop.forwardOnce();
  return exporter.url;
}

/** The agent's metrics write credential, as the provider creates one for its Alloy. */
async function createMetricsCredential(
  api: ControlPlaneClient,
  provider: Caller,
  agentId: string,
): Promise<string> {
  const { token } = await api.call<{ token: string }>('POST', '/v1/metrics-credentials', 201, {
    as: provider,
    body: { agentId, name: 'sandbox forwarding loop' },
  });
  return token;
}

/**
 * Where a simulator listens: where it did when the sandbox was seeded if any port will do (port 0), since
 * the control plane has stored its URL (the platform's endpoint, the agent's kubeconfig); else as asked,
 * and `reuseSeed` points the control plane at the new address.
 */
function listenAgain(requested: ListenAddress | undefined, previousUrl: string | undefined): ListenAddress {
  const wanted = requested ?? ANY_PORT;
  if (previousUrl === undefined || wanted.port !== 0) return wanted;
  const previous = new URL(previousUrl);
  const host = previous.hostname.replace(/^\[|\]$/g, '');
  return host === wanted.host ? { host, port: Number(previous.port) } : wanted;
}

/** The template VMs on pve-sim, which the provider registers as VM templates. */
function templatesOf(pve: PveSim): ProxmoxTemplate[] {
  return Object.values(pve.state.vms)
    .filter((vm) => vm.config.template === '1')
    .map((vm) => ({ node: vm.node, vmid: vm.vmid, name: vm.config.name ?? '' }))
    .sort((a, b) => a.vmid - b.vmid);
}

/** The seed with the platform where it is now (`reuseSeed` has pointed the control plane there). */
function withPlatformEndpoint(seeded: SeededSandbox, endpointUrl: string): SeededSandbox {
  return {
    ...seeded,
    provider: { ...seeded.provider, platform: { ...seeded.provider.platform, endpointUrl } },
  };
}

function writeToStdout(line: string): void {
  process.stdout.write(`${line}\n`);
}

/** 16 characters from 96 random bits, above the control plane's 10-character minimum. */
function newPassword(): string {
  return randomBytes(12).toString('base64url');
}
