import type { ClusterReach } from './agent-health.js';

/** How long a check of an agent cluster stands before the next read of the agent checks again. */
export const CLUSTER_CHECK_TTL_MS = 30_000;

/**
 * Whether the control plane reaches each agent's cluster, checked when an agent is read and kept for
 * `CLUSTER_CHECK_TTL_MS`. The first read of an agent waits for its check; later ones answer with the last
 * result at once and check again in the background when it has aged, so a slow or silent cluster never
 * holds up the agents page for longer than once. One check per agent at a time. Each control plane
 * replica checks for itself: the question is whether this one reaches the cluster.
 */
export class ClusterReachability {
  readonly #results = new Map<string, ClusterReach>();
  readonly #checking = new Map<string, Promise<ClusterReach>>();

  constructor(
    private readonly deps: {
      /** Tries the cluster (as the peering check does): an empty error when it answered. */
      readonly check: (agentId: string) => Promise<{ reachable: boolean; error: string }>;
      readonly now: () => Date;
    },
  ) {}

  async of(agentId: string): Promise<ClusterReach> {
    const last = this.#results.get(agentId);
    if (last !== undefined && this.deps.now().getTime() - last.checkedAt.getTime() < CLUSTER_CHECK_TTL_MS)
      return last;
    const checking = this.#check(agentId);
    return last ?? (await checking);
  }

  /** Forgets an agent (deleted, or a new kubeconfig that makes the last result meaningless). */
  forget(agentId: string): void {
    this.#results.delete(agentId);
  }

  #check(agentId: string): Promise<ClusterReach> {
    const running = this.#checking.get(agentId);
    if (running !== undefined) return running;
    const check = this.deps
      .check(agentId)
      .catch((e: unknown) => ({ reachable: false, error: e instanceof Error ? e.message : String(e) }))
      .then(({ reachable, error }) => {
        const result = { reachable, error, checkedAt: this.deps.now() };
        this.#results.set(agentId, result);
        return result;
      })
      .finally(() => this.#checking.delete(agentId));
    this.#checking.set(agentId, check);
    return check;
  }
}
