import type { KubeConfigSource } from '@noderings/kube';
import { KubeClient, LeaderElector, keyOf, type Controller } from '@noderings/kube';
import { createLogger, SecretValues, type Logger } from '@noderings/log';
import type { ProxmoxClientOptions } from '@noderings/proxmox';

import { createBackupControllers } from './backup/index.js';
import { createFirewallController } from './firewall/firewall.controller.js';
import { startHttpServer } from './http-server.js';
import { createInventoryController } from './inventory/inventory.controller.js';
import { NodeLimiter } from './node-limiter.js';
import { OperatorMetrics } from './operator-metrics.js';
import type { OperatorOptions } from './operator-options.js';
import { ProxmoxInstances } from './proxmox-instances.js';
import { createVmController } from './proxmoxvm/vm.controller.js';
import { createSnapshotController } from './snapshot/snapshot.controller.js';
import { createVncController } from './vnc/vnc.controller.js';

export const LEASE_NAME = 'proxmox-operator';

/** What the operator needs of an informer: start it, know when it has synced, stop it. */
interface CacheSource {
  start(): void;
  hasSynced(): boolean;
  stop(): Promise<void>;
}

/** What tests and embedders may set beyond the command-line options. */
export interface StartOperatorOptions extends OperatorOptions {
  /** Instead of `kubeconfig` (a file) or in-cluster credentials. */
  kube?: KubeConfigSource;
  logger?: Logger;
  /** The values `logger` masks; the operator adds every Proxmox token secret it reads. */
  secrets?: SecretValues;
  proxmoxClient?: Pick<ProxmoxClientOptions, 'timeoutMs' | 'connectTimeoutMs' | 'retries'>;
  /** How long in-flight reconciles may finish after stop. Default 30 s. */
  shutdownTimeoutMs?: number;
  lease?: { leaseDurationMs: number; renewDeadlineMs: number; retryPeriodMs: number };
  taskTimeoutMs?: number;
  /** Longest wait for a lock of our own operations before a backup fails. Default 30 minutes. */
  lockWaitMs?: number;
  /** How often each instance's ProxmoxInventory is read from Proxmox again. Default 1 minute. */
  inventoryRefreshMs?: number;
}

export interface RunningOperator {
  /** Base URL of /metrics, /healthz and /readyz. */
  url: string;
  isLeader(): boolean;
  stop(): Promise<void>;
}

/** Wires the kube client, Proxmox instances, controllers, leader election and the HTTP server. */
export async function startOperator(options: StartOperatorOptions): Promise<RunningOperator> {
  const secrets = options.secrets ?? new SecretValues();
  const logger = options.logger ?? createLogger({ name: 'operator', secrets });
  const kube = new KubeClient(
    options.kube ??
      (options.kubeconfig === undefined ? { inCluster: true } : { kubeconfigPath: options.kubeconfig }),
  );
  const metrics = new OperatorMetrics();
  const stopping = new AbortController();
  let enqueueInstance: (instance: string) => void = () => undefined;
  const instances = new ProxmoxInstances(kube, {
    namespace: options.operatorNamespace,
    limiter: new NodeLimiter(options.nodeConcurrency),
    metrics,
    logger,
    secrets,
    ...(options.proxmoxClient === undefined ? {} : { client: options.proxmoxClient }),
    onChange: (instance) => {
      enqueueInstance(instance);
    },
  });
  // What every controller is built with; each takes the parts it needs.
  const shared = {
    kube,
    namespace: options.watchNamespace,
    workers: options.workers,
    logger,
    metrics,
    instances,
    ...(options.shutdownTimeoutMs === undefined ? {} : { shutdownTimeoutMs: options.shutdownTimeoutMs }),
    ...(options.taskTimeoutMs === undefined ? {} : { taskTimeoutMs: options.taskTimeoutMs }),
    ...(options.lockWaitMs === undefined ? {} : { lockWaitMs: options.lockWaitMs }),
  };
  const vms = createVmController(shared);
  enqueueInstance = (instance) => {
    for (const vm of vms.informer.list()) {
      if ((vm.spec.instance ?? 'default') === instance) vms.controller.enqueue(keyOf(vm));
    }
  };
  const firewalls = createFirewallController({ ...shared, vms });
  const snapshots = createSnapshotController({ ...shared, vmInformer: vms.informer });
  const consoles = createVncController(shared);
  const inventory = createInventoryController({
    ...shared,
    credentials: instances.informer,
    ...(options.inventoryRefreshMs === undefined ? {} : { refreshMs: options.inventoryRefreshMs }),
  });
  // Every controller of the operator: each entry is one `create…Controller(…)` result.
  const controllers: { controller: Controller; informers: CacheSource[] }[] = [
    { controller: vms.controller, informers: [vms.informer] },
    { controller: firewalls.controller, informers: [firewalls.informer] },
    { controller: snapshots.controller, informers: [snapshots.informer] },
    { controller: consoles.controller, informers: [consoles.informer] },
    { controller: inventory, informers: [] },
    ...createBackupControllers(shared),
  ];
  const informers: CacheSource[] = [instances.informer, ...controllers.flatMap((c) => c.informers)];
  for (const informer of informers) informer.start();

  const runControllers = async (signal: AbortSignal): Promise<void> => {
    logger.info({ identity: options.identity }, 'reconciling');
    const results = await Promise.all(controllers.map((c) => c.controller.run(signal)));
    const abandoned = results.flatMap((r) => r.abandoned);
    if (abandoned.length > 0) logger.warn({ keys: abandoned }, 'reconciles abandoned at shutdown');
  };
  const elector = options.leaderElection
    ? new LeaderElector({
        leases: kube.leases,
        namespace: options.operatorNamespace,
        name: LEASE_NAME,
        identity: options.identity,
        ...options.lease,
        onStartedLeading: runControllers,
        onNewLeader: (identity) => {
          logger.info({ leader: identity }, 'leader observed');
        },
        onError: (e: unknown) => {
          logger.error({ error: e }, 'leader election error');
        },
      })
    : undefined;
  const running = elector === undefined ? runControllers(stopping.signal) : elector.run(stopping.signal);
  const done = running.catch((e: unknown) => {
    logger.error({ error: e }, 'operator stopped on error');
  });

  const http = await startHttpServer(
    options.metricsListen,
    metrics.registry,
    () => informers.every((i) => i.hasSynced()) && !stopping.signal.aborted,
  );
  logger.info(
    {
      watchNamespace: options.watchNamespace,
      operatorNamespace: options.operatorNamespace,
      metrics: http.url,
      leaderElection: options.leaderElection,
    },
    'operator started',
  );

  return {
    url: http.url,
    isLeader: () => (elector === undefined ? true : elector.isLeader()),
    async stop() {
      if (stopping.signal.aborted) return;
      stopping.abort();
      await done;
      await Promise.all(informers.map((i) => i.stop()));
      await Promise.all([http.close(), instances.close(), kube.close()]);
      logger.info('operator stopped');
    },
  };
}

/** Runs until SIGTERM or SIGINT, then stops gracefully. */
export async function runOperator(options: OperatorOptions): Promise<void> {
  const operator = await startOperator(options);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await operator.stop();
}
