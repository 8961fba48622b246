import type { BaseLogger } from 'pino';

import { AgentCluster } from './agent-cluster.js';

/**
 * One AgentCluster per agent, made again when the agent's kubeconfig changes (a new upload). Work on one
 * agent takes turns, so a change replaces the client once however many dispatches notice it.
 */
export class AgentClusters {
  readonly #clusters = new Map<string, AgentCluster>();
  readonly #turns = new Map<string, Promise<unknown>>();

  constructor(
    private readonly deps: {
      readonly kubeconfigOf: (agentId: string) => Promise<string>;
      readonly logger: Pick<BaseLogger, 'info'>;
      /** Development only: lets the clusters' clients dial addresses that are not public. */
      readonly allowPrivateDestinations: boolean;
    },
  ) {}

  /** The agent's cluster with its current kubeconfig (read every time: it is how a change is noticed). */
  get(agentId: string): Promise<AgentCluster> {
    return this.#inTurn(agentId, async () => {
      const kubeconfig = await this.deps.kubeconfigOf(agentId);
      const cached = this.#clusters.get(agentId);
      if (cached?.kubeconfig === kubeconfig) return cached;
      const fresh = new AgentCluster(agentId, kubeconfig, {
        allowPrivateDestinations: this.deps.allowPrivateDestinations,
      });
      this.#clusters.set(agentId, fresh);
      if (cached !== undefined) {
        this.deps.logger.info({ agentId }, 'agent kubeconfig changed; connecting with the new one');
        await cached.close();
      }
      return fresh;
    });
  }

  /** Closes the clusters of every agent not in `agentIds`. */
  async retainOnly(agentIds: ReadonlySet<string>): Promise<void> {
    const gone = [...this.#clusters.keys()].filter((id) => !agentIds.has(id));
    await Promise.all(gone.map((agentId) => this.#inTurn(agentId, () => this.#drop(agentId))));
  }

  async closeAll(): Promise<void> {
    await Promise.all(
      [...this.#clusters.keys()].map((agentId) => this.#inTurn(agentId, () => this.#drop(agentId))),
    );
  }

  async #drop(agentId: string): Promise<void> {
    const cluster = this.#clusters.get(agentId);
    this.#clusters.delete(agentId);
    await cluster?.close();
  }

  #inTurn<T>(agentId: string, work: () => Promise<T>): Promise<T> {
    const previous = this.#turns.get(agentId) ?? Promise.resolve();
    const turn = previous.then(work, work);
    this.#turns.set(agentId, turn);
    const forget = (): void => {
      if (this.#turns.get(agentId) === turn) this.#turns.delete(agentId);
    };
    turn.then(forget, forget);
    return turn;
  }
}
