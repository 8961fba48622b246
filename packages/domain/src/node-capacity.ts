import { NO_OVERALLOCATION_PERCENT, type NodeComputeType } from './node-settings.js';

/**
 * Whether one more VM may be sold on a node (DESIGN §4 invariant 2, seed 003). For each of CPU, memory and
 * disk the request must fit the node's physical capacity on its own, and everything sold there, the request
 * included, must stay within what is left beside guests NodeRings did not create, times the node's
 * overallocation percentage:
 *
 *     request ≤ physical   and   sold + request ≤ (physical − used by other guests) × percent / 100
 *
 * OpenStack Placement's `used + requested ≤ (total − reserved) × ratio` with the ratio as a percentage.
 * Pinned (DEDICATED) cores are never oversold, whatever the CPU percentage says. Everything is counted in
 * BigInt (cores and bytes), so no rounding can let one byte too many through.
 */

export const CAPACITY_RESOURCES = ['cpu', 'memory', 'disk'] as const;
export type CapacityResource = (typeof CAPACITY_RESOURCES)[number];

/** An amount of each resource: CPU in cores (vCPUs), memory and disk in bytes. */
export type ResourceAmounts = Readonly<Record<CapacityResource, bigint>>;

export interface NodeCapacityState {
  readonly computeType: NodeComputeType;
  /** What the hypervisor reports the node has; zero where it has reported nothing yet. */
  readonly physical: ResourceAmounts;
  /** What guests NodeRings did not create use on the node. */
  readonly usedByOthers: ResourceAmounts;
  /** What the node's active claims hold. */
  readonly sold: ResourceAmounts;
  /** The node's overallocation percentages (100 sells exactly what is there). */
  readonly overallocatePercent: Readonly<Record<CapacityResource, number>>;
}

/** Why a resource refuses the request. */
export type CapacityProblem =
  /** The node has not reported this resource: nothing can be sold on it yet. */
  | 'CAPACITY_UNREPORTED'
  /** The request alone is larger than the node: no overallocation makes it fit. */
  | 'CAPACITY_EXCEEDS_PHYSICAL'
  /** The request would take what is sold past what may be sold. */
  | 'CAPACITY_OVERSOLD';

export interface CapacityShortfall {
  readonly resource: CapacityResource;
  readonly problem: CapacityProblem;
  readonly requested: bigint;
  readonly physical: bigint;
  /** What may be sold in total: (physical − used by others) × percent / 100, rounded down, at least 0. */
  readonly sellable: bigint;
  readonly sold: bigint;
  /** One line for a preflight note or an error message, like `memory: 6 of 8 GiB sellable is sold, …`. */
  readonly note: string;
}

export type CapacityFit =
  { readonly fits: true } | { readonly fits: false; readonly shortfalls: readonly CapacityShortfall[] };

const BYTES_PER_GIB = 1024n ** 3n;
const PERCENT = 100n;

/** A plan's specs (whole vCPUs and GiB, as plans store them) as amounts. */
export function requestedAmounts(specs: {
  readonly vcpus: number;
  readonly ramGb: number;
  readonly diskGb: number;
}): ResourceAmounts {
  return {
    cpu: BigInt(specs.vcpus),
    memory: BigInt(specs.ramGb) * BYTES_PER_GIB,
    disk: BigInt(specs.diskGb) * BYTES_PER_GIB,
  };
}

/** The percentage that applies: pinned cores are sold one VM core per physical core. */
function effectiveOverallocatePercent(
  node: Pick<NodeCapacityState, 'computeType' | 'overallocatePercent'>,
  resource: CapacityResource,
): number {
  return resource === 'cpu' && node.computeType === 'NODE_COMPUTE_TYPE_DEDICATED'
    ? NO_OVERALLOCATION_PERCENT
    : node.overallocatePercent[resource];
}

/** What may be sold of one resource in total, sold or not. */
export function sellableAmount(node: NodeCapacityState, resource: CapacityResource): bigint {
  const percent = BigInt(effectiveOverallocatePercent(node, resource));
  const left = node.physical[resource] - node.usedByOthers[resource];
  return left <= 0n ? 0n : (left * percent) / PERCENT;
}

export function nodeCapacityFit(node: NodeCapacityState, request: ResourceAmounts): CapacityFit {
  const shortfalls = CAPACITY_RESOURCES.flatMap((resource) => {
    const shortfall = shortfallOf(node, request, resource);
    return shortfall === undefined ? [] : [shortfall];
  });
  return shortfalls.length === 0 ? { fits: true } : { fits: false, shortfalls };
}

function shortfallOf(
  node: NodeCapacityState,
  request: ResourceAmounts,
  resource: CapacityResource,
): CapacityShortfall | undefined {
  const requested = request[resource];
  const physical = node.physical[resource];
  const sold = node.sold[resource];
  const sellable = sellableAmount(node, resource);
  const percent = BigInt(effectiveOverallocatePercent(node, resource));
  const facts = { resource, requested, physical, sellable, sold };
  if (physical <= 0n && requested > 0n)
    return { ...facts, problem: 'CAPACITY_UNREPORTED', note: `${resource}: not reported by the node yet` };
  if (requested > physical) {
    const note = `${resource}: ${amount(resource, requested)} requested, more than the node's ${amount(resource, physical)}`;
    return { ...facts, problem: 'CAPACITY_EXCEEDS_PHYSICAL', note };
  }
  // Compared multiplied out rather than against the rounded-down sellable, which says the same exactly.
  const left = physical - node.usedByOthers[resource];
  if ((sold + requested) * PERCENT <= left * percent) return undefined;
  const note =
    `${resource}: ${amount(resource, sold)} of ${amount(resource, sellable)} sellable is sold, ` +
    `${amount(resource, requested)} more does not fit (${amount(resource, physical)} at ${percent} %, ` +
    `${amount(resource, node.usedByOthers[resource])} used by other guests)`;
  return { ...facts, problem: 'CAPACITY_OVERSOLD', note };
}

/** For notes only: cores as they are, bytes in GiB to one decimal. */
function amount(resource: CapacityResource, value: bigint): string {
  if (resource === 'cpu') return `${value} vCPU`;
  const tenths = (value * 10n) / BYTES_PER_GIB;
  return `${tenths / 10n}.${tenths % 10n} GiB`;
}
