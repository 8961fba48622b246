import { Backoff } from '@noderings/retry';
import type { BaseLogger } from 'pino';

import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/database.js';
import { cloudInitAssociatedData } from '../virtual-machines/index.js';
import type { AgentCluster } from './agent-cluster.js';
import { AgentClusters } from './agent-clusters.js';
import { CloudInitUnreadableError, describeFailure, StillDeletingError } from './dispatch-failure.js';
import { DispatchRepository } from './dispatch.repository.js';
import { ResourceDispatcher } from './resource-dispatcher.js';
import { StatusWatch } from './status-watch.js';
import { vmResourceKinds } from './vm-resource-kinds.js';
import { VmStatusReconciler } from './vm-status.reconciler.js';
import { parseCloudInit, proxmoxVmOf, type VmNetworkPolicy, type WantedVm } from './vm-order.js';

export interface DispatcherOptions {
  /** How often due VMs are looked for besides `kick`s (retries come due this way). Default 5 s. */
  readonly pollIntervalMs?: number;
  /**
   * How long a leased VM is this replica's alone. A dispatch is given half of it, so that its requests
   * have ended before another replica may take the VM over. Default 60 s.
   */
  readonly leaseMs?: number;
  /** The wait after a first failure; it doubles per further failure, with jitter. Default 1 s. */
  readonly retryBaseMs?: number;
  /** The longest wait between tries. Default 5 min. */
  readonly maxBackoffMs?: number;
  /**
   * How often the agents with VMs are gone over: watches started and stopped, VMs whose ProxmoxVM the
   * watch never saw checked, orphan cloud-init Secrets deleted. Default 30 s.
   */
  readonly resyncIntervalMs?: number;
  /** VMs leased at once. Default 16. */
  readonly batchSize?: number;
}

export interface DispatcherDeps {
  readonly db: Db;
  /** Opens VMs' cloud-init; seals what console sessions answer. */
  readonly secretBox: Pick<SecretBox, 'open' | 'seal'>;
  /** The agent cluster's kubeconfig in clear (`AgentService.inboundKubeconfig`). */
  readonly kubeconfigOf: (agentId: string) => Promise<string>;
  /** Development only: lets requests and watches into agent clusters dial addresses that are not public. */
  readonly allowPrivateDestinations: boolean;
  /** Gives back the VM's claim (`ClaimService.release`); called again after a crash, so it must be idempotent. */
  readonly releaseClaim: (claimId: string) => Promise<unknown>;
  /**
   * Places an order that failed on its node on another (`VirtualMachineService.placeAgain`), called once
   * the failed guest is gone: 'nowhere' fails the order for good, as does leaving this out.
   */
  readonly placeAgain?: (vmId: string) => Promise<'moved' | 'nowhere' | 'settled'>;
  /** The VM's outbound SMTP decision and compiled firewall rules; the order's own flag and none without it. */
  readonly networkPolicyOf?: (vmId: string) => Promise<VmNetworkPolicy>;
  readonly now: () => Date;
  readonly logger: Pick<BaseLogger, 'info' | 'warn' | 'error'>;
  /** This replica's name on its leases; random per process, so a restarted process holds none of them. */
  readonly owner: string;
  readonly options?: DispatcherOptions;
}

const DEFAULTS: Required<DispatcherOptions> = {
  pollIntervalMs: 5_000,
  leaseMs: 60_000,
  retryBaseMs: 1_000,
  maxBackoffMs: 5 * 60_000,
  resyncIntervalMs: 30_000,
  batchSize: 16,
};
const BACKOFF_JITTER = 0.5;

/**
 * Carries every VM's wanted state into its agent cluster, level-based: a VM whose `generation` is ahead
 * of `dispatched_generation` is leased (one replica at a time, by a row lease in the database), re-read
 * and written as a cloud-init Secret and a ProxmoxVM (or the ProxmoxVM's deletion), and marked dispatched
 * only if nothing changed meanwhile. Failures wait with exponential backoff and say why on the row.
 * Status sync watches each agent's ProxmoxVMs and writes what they report to the rows; a deletion is
 * finished (Secret deleted, claim released, `deleted_at` set, in that order) once the ProxmoxVM is gone.
 * Every step is idempotent, so a replica killed at any point leaves work the next pass redoes.
 */
export class Dispatcher {
  readonly #repo: DispatchRepository;
  readonly #clusters: AgentClusters;
  /** The VMs' snapshots, backups and console sessions, dispatched the same way. */
  readonly #resources: ResourceDispatcher;
  readonly #backoff: Backoff;
  readonly #options: Required<DispatcherOptions>;
  readonly #dispatchTimeoutMs: number;
  #pollTimer: NodeJS.Timeout | undefined;
  #resyncTimer: NodeJS.Timeout | undefined;
  #run: Promise<void> | undefined;
  #again = false;
  #resync: Promise<void> | undefined;
  #stopped = false;

  constructor(private readonly deps: DispatcherDeps) {
    this.#options = validOptions({ ...DEFAULTS, ...deps.options });
    this.#dispatchTimeoutMs = Math.floor(this.#options.leaseMs / 2);
    this.#backoff = new Backoff({
      baseMs: this.#options.retryBaseMs,
      maxMs: this.#options.maxBackoffMs,
      jitter: BACKOFF_JITTER,
    });
    this.#repo = new DispatchRepository(deps.db);
    this.#clusters = new AgentClusters({
      kubeconfigOf: deps.kubeconfigOf,
      logger: deps.logger,
      allowPrivateDestinations: deps.allowPrivateDestinations,
    });
    this.#resources = new ResourceDispatcher({
      kinds: vmResourceKinds(deps.db, deps.secretBox),
      clusters: this.#clusters,
      backoff: this.#backoff,
      owner: deps.owner,
      leaseMs: this.#options.leaseMs,
      batchSize: this.#options.batchSize,
      dispatchTimeoutMs: this.#dispatchTimeoutMs,
      now: deps.now,
      logger: deps.logger,
      kick: () => {
        this.kick();
      },
      stopped: () => this.#stopped,
    });
  }

  /** Starts polling and resyncing, with a first pass of each now. */
  start(): void {
    if (this.#stopped || this.#pollTimer !== undefined) return;
    this.#pollTimer = setInterval(() => {
      this.kick();
    }, this.#options.pollIntervalMs);
    this.#pollTimer.unref();
    this.#resyncTimer = setInterval(() => {
      this.#startResync();
    }, this.#options.resyncIntervalMs);
    this.#resyncTimer.unref();
    this.kick();
    this.#startResync();
  }

  /** Looks for due VMs soon (after an order or a change); returns at once. */
  kick(): void {
    if (this.#stopped) return;
    if (this.#run !== undefined) {
      this.#again = true;
      return;
    }
    const run = this.#loop()
      .catch((e: unknown) => {
        this.deps.logger.error({ err: e }, 'dispatch pass failed');
      })
      .finally(() => {
        if (this.#run === run) this.#run = undefined;
        // A kick that came after the last look but before this point would otherwise wait for the poll.
        if (this.#askedAgain()) this.kick();
      });
    this.#run = run;
  }

  /** Resolves once no pass and no resync is running. */
  async settled(): Promise<void> {
    while (this.#run !== undefined || this.#resync !== undefined) {
      await Promise.all([this.#run, this.#resync]);
    }
  }

  /** Stops the timers, waits for the dispatches in flight, then stops the watches and closes the clients. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#pollTimer);
    clearInterval(this.#resyncTimer);
    await this.settled();
    await this.#clusters.closeAll();
  }

  async #loop(): Promise<void> {
    // Lets the request that kicked commit and answer first, and merges the kicks of a burst.
    await new Promise((resolve) => setImmediate(resolve));
    do {
      this.#again = false;
      await this.#drain();
      await this.#resources.drain();
    } while (this.#askedAgain() && !this.#stopped);
  }

  /** Read through a call: a kick may have set it while the pass was awaited. */
  #askedAgain(): boolean {
    return this.#again;
  }

  async #drain(): Promise<void> {
    const { leaseMs, batchSize } = this.#options;
    while (!this.#stopped) {
      let batch: WantedVm[];
      try {
        batch = await this.#repo.leaseDue(this.deps.owner, leaseMs, batchSize);
      } catch (e: unknown) {
        this.deps.logger.error({ err: e }, 'leasing VMs to dispatch failed');
        return;
      }
      if (batch.length === 0) return;
      await Promise.all(batch.map((vm) => this.#dispatch(vm)));
    }
  }

  async #dispatch(vm: WantedVm): Promise<void> {
    const signal = AbortSignal.timeout(this.#dispatchTimeoutMs);
    let cluster: AgentCluster | undefined;
    try {
      cluster = await this.#clusters.get(vm.agentId);
      if (vm.desiredState === 'PRESENT') await this.#apply(cluster, vm, signal);
      else await this.#withdraw(cluster, vm, signal);
      this.#watch(cluster);
    } catch (e: unknown) {
      await this.#failed(vm, e, signal, cluster);
    }
  }

  async #apply(cluster: AgentCluster, vm: WantedVm, signal: AbortSignal): Promise<void> {
    if (vm.reinstallPending) await this.#retireForReinstall(cluster, vm, signal);
    if (vm.mustMove) {
      await this.#placeAgain(vm);
      return;
    }
    const documents = this.#openCloudInit(vm);
    // Read after the lease took the generation: a change meanwhile bumps it, and the VM stays due.
    const policy = await this.deps.networkPolicyOf?.(vm.id);
    await cluster.applyOrder(proxmoxVmOf(vm, cluster.namespace, policy), documents, signal);
    if (policy !== undefined) await cluster.applyFirewall(vm.id, policy, signal);
    const recorded = await this.#repo.markDispatched(vm.id, this.deps.owner, vm.generation);
    this.deps.logger.info(
      { vmId: vm.id, agentId: vm.agentId, generation: vm.generation, recorded },
      'VM dispatched',
    );
  }

  /**
   * A reinstall recreates the guest with the same VMID, MAC and addresses: the old ProxmoxVM is deleted
   * (the operator's finalizer deletes the guest) and, once it is gone, recorded as retired, so that the
   * order applied next is a new guest. Until then the dispatch waits like any other (the status watch
   * makes the VM due again as soon as the old resource disappears).
   */
  async #retireForReinstall(cluster: AgentCluster, vm: WantedVm, signal: AbortSignal): Promise<void> {
    const existing = await cluster.findOrder(vm.id, signal);
    if (existing !== undefined) {
      if (existing.metadata?.deletionTimestamp === undefined) await cluster.deleteOrder(vm.id, signal);
      throw new StillDeletingError(
        vm.mustMove
          ? `placing again: waiting for the failed guest of ${vm.id} to be deleted`
          : `reinstalling: waiting for the old guest of ${vm.id} to be deleted`,
      );
    }
    await this.#repo.markReinstalled(vm.id, this.deps.owner, vm.reinstallGeneration);
  }

  /**
   * An order that failed on its node, its failed guest gone (a move is retired like a reinstall): the
   * claim moves to another node and the order goes out again there, or, with nowhere to go, it fails for
   * good and what it held is released by the withdrawal that follows. Either way the VM has a new
   * generation, which the next pass takes up once this lease is given back.
   */
  async #placeAgain(vm: WantedVm): Promise<void> {
    const outcome = (await this.deps.placeAgain?.(vm.id)) ?? 'nowhere';
    if (outcome === 'nowhere') await this.#repo.markFailed(vm.id, undefined, this.deps.now());
    await this.#repo.releaseLease(vm.id, this.deps.owner);
    this.deps.logger.info(
      { vmId: vm.id, agentId: vm.agentId, outcome },
      outcome === 'moved'
        ? 'VM order placed on another node after a failure'
        : 'VM order failed for good: no other node can take it',
    );
    this.kick();
  }

  async #withdraw(cluster: AgentCluster, vm: WantedVm, signal: AbortSignal): Promise<void> {
    if (await cluster.withdrawOrder(vm.id, signal)) {
      await this.#finish(cluster, vm.id, signal);
      return;
    }
    // The operator deletes the Proxmox guest first; status sync finishes when the ProxmoxVM goes.
    const recorded = await this.#repo.markDispatched(vm.id, this.deps.owner, vm.generation);
    this.deps.logger.info(
      { vmId: vm.id, agentId: vm.agentId, generation: vm.generation, recorded },
      'VM deletion dispatched',
    );
  }

  /**
   * Ends a deletion whose ProxmoxVM is gone, under the VM's lease. Each step is harmless to repeat, and
   * `deleted_at` comes last: until it is set, the next pass does all of them again.
   */
  async #finish(cluster: AgentCluster, vmId: string, signal: AbortSignal): Promise<void> {
    await cluster.deleteCloudInit(vmId, signal);
    await this.deps.releaseClaim(vmId);
    await this.#resources.vmFinished(vmId, this.deps.now());
    const finished = await this.#repo.markFinished(vmId, this.deps.owner, this.deps.now());
    this.deps.logger.info({ vmId, agentId: cluster.agentId, finished }, 'VM deleted and its claim released');
  }

  /** Status sync's way into `#finish`: it takes the VM's lease first, as a dispatch would. */
  async #finishObserved(cluster: AgentCluster, vmId: string, signal: AbortSignal): Promise<boolean> {
    const { owner } = this.deps;
    if (!(await this.#repo.leaseFinishable(vmId, owner, this.#options.leaseMs))) return false;
    try {
      if ((await cluster.findOrder(vmId, signal)) === undefined) await this.#finish(cluster, vmId, signal);
      else await this.#repo.releaseLease(vmId, owner);
      return true;
    } catch (e: unknown) {
      await this.#repo.releaseLease(vmId, owner).catch(() => undefined);
      throw e;
    }
  }

  async #failed(
    vm: WantedVm,
    error: unknown,
    signal: AbortSignal,
    cluster: AgentCluster | undefined,
  ): Promise<void> {
    const reason = describeFailure(error, {
      timedOut: signal.aborted,
      timeoutMs: this.#dispatchTimeoutMs,
      secrets: cluster?.credentials ?? [],
    });
    const attempts = vm.dispatchAttempts + 1;
    const retryInMs = this.#backoff.delayMs(attempts);
    try {
      await this.#repo.recordFailure(vm.id, this.deps.owner, retryInMs, reason);
    } catch (e: unknown) {
      // The lease runs out by itself; the VM is tried again then.
      this.deps.logger.error({ err: e, vmId: vm.id }, 'recording a dispatch failure failed');
    }
    this.deps.logger.warn(
      { vmId: vm.id, agentId: vm.agentId, attempts, retryInMs, reason },
      'VM dispatch failed',
    );
  }

  #openCloudInit(vm: WantedVm): ReturnType<typeof parseCloudInit> {
    try {
      return parseCloudInit(this.deps.secretBox.open(vm.cloudInitCiphertext, cloudInitAssociatedData(vm.id)));
    } catch (e: unknown) {
      throw new CloudInitUnreadableError(
        `the VM's cloud-init does not open: ${e instanceof Error ? e.message : String(e)}`,
      );
    }
  }

  /** The cluster's status watch, started the first time. */
  #watch(cluster: AgentCluster): StatusWatch | undefined {
    if (this.#stopped) return undefined;
    this.#resources.watch(cluster);
    return cluster.watch(
      (c) =>
        new StatusWatch({
          client: c.kube.proxmoxVMs,
          namespace: c.namespace,
          agentId: c.agentId,
          credentials: c.credentials,
          logger: this.deps.logger,
          reconciler: (cache) =>
            new VmStatusReconciler({
              agentId: c.agentId,
              vms: this.#repo,
              cache,
              cluster: c,
              finishDeletion: (vmId, signal) => this.#finishObserved(c, vmId, signal),
              redispatched: () => {
                this.kick();
              },
              leaseRetryMs: this.#options.leaseMs,
              now: this.deps.now,
              logger: this.deps.logger,
            }),
        }),
    );
  }

  #startResync(): void {
    if (this.#stopped) return;
    this.#resync ??= this.#resyncAgents().finally(() => (this.#resync = undefined));
  }

  async #resyncAgents(): Promise<void> {
    let agentIds: Set<string>;
    try {
      agentIds = new Set(await this.#repo.agentsWithLiveVms());
      await this.#clusters.retainOnly(agentIds);
    } catch (e: unknown) {
      this.deps.logger.error({ err: e }, 'listing agents with VMs failed');
      return;
    }
    await this.#resources.sweep().catch((e: unknown) => {
      this.deps.logger.error({ err: e }, 'sweeping VM resources failed');
    });
    // One agent after another: a resync never floods the database or the agents.
    for (const agentId of agentIds) {
      if (this.#stopped) return;
      let cluster: AgentCluster | undefined;
      const signal = AbortSignal.timeout(this.#dispatchTimeoutMs);
      try {
        cluster = await this.#clusters.get(agentId);
        await this.#resyncAgent(cluster, signal);
      } catch (e: unknown) {
        const reason = describeFailure(e, {
          timedOut: signal.aborted,
          timeoutMs: this.#dispatchTimeoutMs,
          secrets: cluster?.credentials ?? [],
        });
        this.deps.logger.warn({ agentId, reason }, 'agent cluster resync failed');
      }
    }
  }

  async #resyncAgent(cluster: AgentCluster, signal: AbortSignal): Promise<void> {
    const watch = this.#watch(cluster);
    if (watch?.synced === true) {
      // Events tell about ProxmoxVMs the watch has seen; these it has not, yet they were dispatched.
      for (const vm of await this.#repo.liveVmsOf(cluster.agentId))
        if (vm.dispatched && !watch.has(vm.id)) watch.enqueue(vm.id);
    }
    await this.#resources.resync(cluster);
    await this.#sweepCloudInit(cluster, signal);
  }

  /**
   * Deletes cloud-init Secrets left behind: the VM's deletion finished, or there is no such VM and no
   * ProxmoxVM that could still need it. A live VM's Secret stays, with or without its ProxmoxVM.
   */
  async #sweepCloudInit(cluster: AgentCluster, signal: AbortSignal): Promise<void> {
    const vmIds = await cluster.cloudInitVmIds(signal);
    const finished = await this.#repo.finishedByIds(vmIds);
    for (const vmId of vmIds) {
      const done = finished.get(vmId);
      if (done === false) continue;
      if (done === undefined && (await cluster.findOrder(vmId, signal)) !== undefined) continue;
      await cluster.deleteCloudInit(vmId, signal);
      this.deps.logger.info({ vmId, agentId: cluster.agentId }, 'orphan cloud-init Secret deleted');
    }
  }
}

function validOptions(options: Required<DispatcherOptions>): Required<DispatcherOptions> {
  for (const [name, value] of Object.entries(options))
    if (!Number.isSafeInteger(value) || value <= 0)
      throw new RangeError(`Dispatcher option ${name} must be a positive integer, not ${String(value)}`);
  if (options.maxBackoffMs < options.retryBaseMs)
    throw new RangeError('Dispatcher option maxBackoffMs must be at least retryBaseMs');
  return options;
}
