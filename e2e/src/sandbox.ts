import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';

import { startControlPlane } from '@noderings/control-plane';
import { installCrds, KubeClient } from '@noderings/kube';
import { startKubeSim } from '@noderings/kube-sim';
import { startPveExporter } from '@noderings/pve-exporter';
import { createProxmoxClient } from '@noderings/proxmox';
import { startPveSim } from '@noderings/pve-sim';

import { prepareAgentCluster } from './agent-cluster.js';
import { ControlPlaneClient } from './control-plane-client.js';
import { formatListenAddress, type ListenAddress } from './listen-address.js';
import { startMetricsForwardingLoop } from './metrics-forwarding-loop.js';
import { seedProvider, type Account, type SeededProvider } from './provider-seed.js';
import { resetSandboxDataDir } from './sandbox-data-dir.js';
import { ShutdownStack } from './shutdown-stack.js';

export interface SandboxOptions {
  /**
   * A folder for the embedded database (emptied first: every start is a fresh seed, and the folder also
   * gets kube-sim's admin kubeconfig), or a database in memory.
   */
  readonly database: { readonly dataDir: string } | { readonly inMemory: true };
  /** The control plane's address; port 0 picks a free one (the default, as for the two below). */
  readonly listen?: ListenAddress;
  readonly pveListen?: ListenAddress;
  readonly kubeListen?: ListenAddress;
  /** The control plane's pino level (default `warn`: request logs stay quiet). */
  readonly logLevel?: string;
  /**
   * Forward pve-sim's metrics to the control plane every `intervalMs` as the agent's Alloy would (default
   * on, every 30 s); false leaves that to the caller (a test running a real Prometheus in agent mode).
   */
  readonly forwardMetrics?: false | { readonly intervalMs: number };
}

export interface Sandbox {
  /** Like http://127.0.0.1:8080; the OpenAPI document is at `/openapi.json`. */
  readonly controlPlaneUrl: string;
  /** Like https://127.0.0.1:8006, the simulated provider's Proxmox VE. */
  readonly pveUrl: string;
  /** SHA-256 fingerprint of pve-sim's self-signed certificate. */
  readonly pveFingerprint: string;
  /** An admin API token: `Authorization: PVEAPIToken={id}={secret}`. */
  readonly pveToken: { readonly id: string; readonly secret: string };
  /** The simulated agent cluster's Kubernetes API. */
  readonly kubeUrl: string;
  /** The agent's pve-exporter: `${exporterUrl}/pve?target=…` serves pve-sim's metrics. */
  readonly exporterUrl: string;
  /** kube-sim's admin kubeconfig, written into the data folder (undefined with a database in memory). */
  readonly kubeconfigPath: string | undefined;
  /** The staff account and the seeded provider's owner; the passwords are new at every start. */
  readonly credentials: {
    readonly staff: Account;
    readonly provider: Account & { readonly organizationId: string };
  };
  readonly seeded: SeededProvider;
  /** Stops the control plane, then the simulators. */
  close(): Promise<void>;
}

const ANY_PORT: ListenAddress = { host: '127.0.0.1', port: 0 };
const STAFF_EMAIL = 'staff@sandbox.test';
const PROVIDER_EMAIL = 'provider@sandbox.test';
const PVE_TOKEN_ID = 'root@pam!sandbox';
/** As `npm run pve-sim` runs it: tasks take as long as small ones on a real host, and a 401 is held back. */
const PVE_TASK_MS = 250;
const PVE_AUTH_FAIL_DELAY_MS = 3000;
/** As the agent stack's Alloy scrapes. */
const METRICS_INTERVAL_MS = 30_000;

/**
 * Starts a simulated provider (pve-sim with three nodes, kube-sim as its agent cluster) and the control
 * plane on an embedded database, then seeds a verified provider through the API. If anything fails,
 * everything started so far is closed before the error is thrown.
 */
export async function startSandbox(options: SandboxOptions): Promise<Sandbox> {
  const started = new ShutdownStack();
  try {
    const dataDir = 'dataDir' in options.database ? options.database.dataDir : undefined;
    if (dataDir !== undefined) await resetSandboxDataDir(dataDir);

    const pveToken = { id: PVE_TOKEN_ID, secret: randomUUID() };
    const pveTokenText = `${pveToken.id}=${pveToken.secret}`;
    const pve = await startPveSim({
      listen: formatListenAddress(options.pveListen ?? ANY_PORT),
      tokens: [pveToken],
      taskMs: PVE_TASK_MS,
      authFailDelayMs: PVE_AUTH_FAIL_DELAY_MS,
    });
    started.push(() => pve.close());
    const kube = await startKubeSim({ listen: formatListenAddress(options.kubeListen ?? ANY_PORT) });
    started.push(() => kube.close());
    const kubeAdmin = new KubeClient({ kubeconfigYaml: kube.kubeconfigYaml });
    started.push(() => kubeAdmin.close());
    await installCrds(kubeAdmin.customResourceDefinitions);
    const kubeconfigPath = dataDir === undefined ? undefined : join(dataDir, 'kubeconfig.yaml');
    if (kubeconfigPath !== undefined) await kube.writeKubeconfig(kubeconfigPath);

    const staff = { email: STAFF_EMAIL, password: newPassword() };
    const controlPlane = await startControlPlane({
      database: dataDir === undefined ? { inMemory: true } : { dataDir: join(dataDir, 'pglite') },
      secretKey: randomBytes(32),
      listen: options.listen ?? ANY_PORT,
      logLevel: options.logLevel ?? 'warn',
      admin: staff,
      peeringApiServerUrl: kube.url,
    });
    started.push(() => controlPlane.close());

    const provider = { email: PROVIDER_EMAIL, password: newPassword() };
    const seeded = await seedProvider(new ControlPlaneClient(controlPlane.url), {
      staff,
      provider,
      pveUrl: pve.url,
      pveNodes: pve.state.nodes.map((n) => n.name),
      prepareAgentCluster: (agentId) => prepareAgentCluster(kube, kubeAdmin, agentId),
    });
    const exporter = await startPveExporter({
      config: {
        source: 'the sandbox',
        modules: new Map([
          [
            'default',
            {
              client: { token: pveTokenText, tls: { fingerprint: pve.fingerprint } },
              secrets: [pveToken.secret],
            },
          ],
        ]),
      },
      log: () => undefined,
    });
    started.push(() => exporter.close());
    if (options.forwardMetrics !== false) {
      const api = new ControlPlaneClient(controlPlane.url);
      const signedIn = await api.call<{ token: string }>('POST', '/v1/auth/login', 200, { body: provider });
      const { token } = await api.call<{ token: string }>('POST', '/v1/metrics-credentials', 201, {
        as: { token: signedIn.token, organizationId: seeded.organizationId },
        body: { agentId: seeded.agent.id, name: 'sandbox forwarding loop' },
      });
      const pveClient = createProxmoxClient({
        baseUrl: pve.url,
        token: pveTokenText,
        tls: { fingerprint: pve.fingerprint },
      });
      started.push(() => pveClient.close());
      const loop = startMetricsForwardingLoop({
        pve: pveClient,
        agentId: seeded.agent.id,
        instance: new URL(pve.url).host,
        remoteWriteUrl: `${controlPlane.url}/api/v1/write`,
        token,
        intervalMs: options.forwardMetrics?.intervalMs ?? METRICS_INTERVAL_MS,
        onError: (e) => {
          controlPlane.logger.warn({ err: e }, 'the sandbox could not forward metrics');
        },
      });
      started.push(() => loop.close());
      // The first report, so that platform and nodes are online and synced when the sandbox is ready.
      await loop.forwardOnce();
    }
    return {
      controlPlaneUrl: controlPlane.url,
      pveUrl: pve.url,
      pveFingerprint: pve.fingerprint,
      pveToken,
      kubeUrl: kube.url,
      exporterUrl: exporter.url,
      kubeconfigPath,
      credentials: { staff, provider: { ...provider, organizationId: seeded.organizationId } },
      seeded,
      close: () => started.close(),
    };
  } catch (e: unknown) {
    // The failure to start is the one worth reporting; one while cleaning up after it would hide it.
    await started.close().catch(() => undefined);
    throw e;
  }
}

/** 16 characters from 96 random bits, above the control plane's 10-character minimum. */
function newPassword(): string {
  return randomBytes(12).toString('base64url');
}
