import type { BaseLogger } from 'pino';

import { PeriodicTask } from '../../periodic-task.js';
import type { ProxmoxInventoryReading } from './proxmox-inventory.js';
import type { AgentToRead, ProxmoxInventoryRepository } from './proxmox-inventory.repository.js';

/** How soon an agent whose operator has not reported yet is read again: a new agent shows up quickly. */
const UNREPORTED_RETRY_SECONDS = 2;

/**
 * Copies every reachable agent's ProxmoxInventory into the database on an interval (and for one agent
 * at once on `request`, e.g. after its kubeconfig is uploaded), so that forms and preflight check
 * against it without dialling a cluster. A change re-runs the organisation's preflight.
 */
export class ProxmoxInventorySync {
  readonly #task: PeriodicTask;

  constructor(
    private readonly deps: {
      readonly inventories: Pick<ProxmoxInventoryRepository, 'agentsToRead' | 'save'>;
      readonly kubeconfigOf: (agentId: string) => Promise<string>;
      readonly read: (agentId: string, kubeconfig: string) => Promise<ProxmoxInventoryReading>;
      readonly changed: (organizationId: string) => void;
      readonly intervalSeconds: number;
      readonly now: () => Date;
      readonly logger: Pick<BaseLogger, 'error'>;
    },
  ) {
    const tick = Math.min(deps.intervalSeconds, UNREPORTED_RETRY_SECONDS);
    this.#task = new PeriodicTask(() => this.#sweep(), tick * 1000);
  }

  start(): void {
    if (this.deps.intervalSeconds <= 0) return;
    this.#task.start();
    void this.#sweep();
  }

  stop(): Promise<void> {
    return this.#task.stop();
  }

  /** Reads one agent's inventory now. */
  async syncAgent(agentId: string, organizationId: string): Promise<void> {
    try {
      const reading = await this.deps.read(agentId, await this.deps.kubeconfigOf(agentId));
      if (await this.deps.inventories.save(agentId, reading, this.deps.now()))
        this.deps.changed(organizationId);
    } catch (e: unknown) {
      this.deps.logger.error({ err: e, agentId }, 'proxmox inventory sync failed');
    }
  }

  async #sweep(): Promise<void> {
    try {
      for (const agent of await this.deps.inventories.agentsToRead()) {
        if (this.#due(agent)) await this.syncAgent(agent.agentId, agent.organizationId);
      }
    } catch (e: unknown) {
      this.deps.logger.error({ err: e }, 'proxmox inventory sweep failed');
    }
  }

  /** Read every interval, and sooner while the agent has not reported. */
  #due(agent: AgentToRead): boolean {
    if (agent.readAt === undefined) return true;
    const ageSeconds = (this.deps.now().getTime() - agent.readAt.getTime()) / 1000;
    return ageSeconds >= (agent.reported ? this.deps.intervalSeconds : UNREPORTED_RETRY_SECONDS);
  }
}
