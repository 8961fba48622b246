/**
 * How a provider's VMs are spread over the nodes that can take them: one strategy by default, another for
 * some regions. The choice is made only among nodes that qualify (online, capacity left: node-capacity.ts);
 * strategies never decide whether a node may take a VM, only which of those that may does.
 */

export const NODE_PLACEMENT_STRATEGIES = [
  /** Always the oldest qualifying node: fills nodes one after another. */
  'NODE_PLACEMENT_STRATEGY_FIRST_STABLE',
  /** The qualifying node after the one chosen last, oldest first, wrapping around. */
  'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN',
  /** The qualifying node holding the fewest VMs, the oldest among equals. */
  'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS',
  /** Any qualifying node, uniformly. */
  'NODE_PLACEMENT_STRATEGY_RANDOM',
] as const;
export type NodePlacementStrategy = (typeof NODE_PLACEMENT_STRATEGIES)[number];

/** What an organisation that never set a policy gets. */
export const DEFAULT_NODE_PLACEMENT_STRATEGY: NodePlacementStrategy = 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE';

export interface PlacementPolicy {
  readonly defaultStrategy: NodePlacementStrategy;
  /** At most one per region. */
  readonly regionOverrides: readonly {
    readonly regionId: string;
    readonly strategy: NodePlacementStrategy;
  }[];
}

export function isNodePlacementStrategy(value: string): value is NodePlacementStrategy {
  return (NODE_PLACEMENT_STRATEGIES as readonly string[]).includes(value);
}

/** The region's override when there is one, the default otherwise. */
export function strategyForRegion(policy: PlacementPolicy, regionId: string): NodePlacementStrategy {
  return policy.regionOverrides.find((o) => o.regionId === regionId)?.strategy ?? policy.defaultStrategy;
}

export interface PlacementCandidate {
  readonly nodeId: string;
  /** How many VMs the node holds now (its active claims). */
  readonly assignedVms: number;
}

export interface PlacementContext {
  /**
   * Every node the VM could go to, qualifying or not, oldest first: the stable order strategies break ties
   * by, and the circle ROUND_ROBIN walks (a node that does not qualify now keeps its place in it).
   */
  readonly stableOrder: readonly string[];
  /** ROUND_ROBIN: the node chosen last time, if any. */
  readonly lastNodeId?: string | undefined;
  /** RANDOM: a uniformly random integer from 0 up to, not including, `bound`. */
  readonly randomIndex: (bound: number) => number;
}

/** The node to place on among the qualifying `candidates`; undefined when there is none. */
export function chooseNode<C extends PlacementCandidate>(
  strategy: NodePlacementStrategy,
  candidates: readonly C[],
  context: PlacementContext,
): C | undefined {
  const rank = new Map(context.stableOrder.map((id, i) => [id, i]));
  const rankOf = (c: PlacementCandidate) => rank.get(c.nodeId) ?? Number.MAX_SAFE_INTEGER;
  const ordered = [...candidates].sort((a, b) => rankOf(a) - rankOf(b) || compare(a.nodeId, b.nodeId));
  switch (strategy) {
    case 'NODE_PLACEMENT_STRATEGY_FIRST_STABLE':
      return ordered[0];
    case 'NODE_PLACEMENT_STRATEGY_ROUND_ROBIN': {
      const last = context.lastNodeId === undefined ? undefined : rank.get(context.lastNodeId);
      if (last === undefined) return ordered[0];
      return ordered.find((c) => rankOf(c) > last) ?? ordered[0];
    }
    case 'NODE_PLACEMENT_STRATEGY_LEAST_ASSIGNED_VMS':
      return ordered.reduce<C | undefined>(
        (best, c) => (best === undefined || c.assignedVms < best.assignedVms ? c : best),
        undefined,
      );
    case 'NODE_PLACEMENT_STRATEGY_RANDOM': {
      if (ordered.length === 0) return undefined;
      const index = context.randomIndex(ordered.length);
      if (!Number.isInteger(index) || index < 0 || index >= ordered.length)
        throw new RangeError(`randomIndex(${ordered.length}) answered ${index}`);
      return ordered[index];
    }
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
