import type { NodeComputeType } from './node-settings.js';
import type { ComputeCategory, PlanCodeParts } from './plan-code.js';

const BYTES_PER_GIB = 1024 ** 3;

/** A node's physical capacity as its hypervisor reports it; zero where nothing has been reported yet. */
export interface NodeCapacity {
  readonly cpuCores: number;
  readonly memoryBytes: number;
  /** The size of the storage new VM disks go to. */
  readonly vmStorageBytes: number;
}

/**
 * Whether one VM of a plan can ever run on a node (seed 003: overallocation bounds what is sold in total,
 * never the size of one plan). A resource the node has not reported is unknown rather than assumed to
 * fit or not: the plan may be assigned, and preflight decides once inventory arrives.
 */
export type PlanNodeFit =
  | { readonly kind: 'fits' }
  | { readonly kind: 'unknown'; readonly unreported: readonly ('cpu' | 'memory' | 'storage')[] }
  | { readonly kind: 'exceeds'; readonly problem: string };

type Specs = Pick<PlanCodeParts, 'vcpus' | 'ramGb' | 'diskGb'>;

function gib(bytes: number): string {
  return (bytes / BYTES_PER_GIB).toFixed(1);
}

export function planNodeFit(specs: Specs, capacity: NodeCapacity): PlanNodeFit {
  const checks = [
    {
      resource: 'cpu',
      known: capacity.cpuCores > 0,
      fits: specs.vcpus <= capacity.cpuCores,
      problem: `has ${capacity.cpuCores} CPU cores, fewer than the plan's ${specs.vcpus} vCPUs`,
    },
    {
      resource: 'memory',
      known: capacity.memoryBytes > 0,
      fits: specs.ramGb * BYTES_PER_GIB <= capacity.memoryBytes,
      problem: `has ${gib(capacity.memoryBytes)} GiB of memory, less than the plan's ${specs.ramGb} GiB`,
    },
    {
      resource: 'storage',
      known: capacity.vmStorageBytes > 0,
      fits: specs.diskGb * BYTES_PER_GIB <= capacity.vmStorageBytes,
      problem: `has ${gib(capacity.vmStorageBytes)} GiB of VM storage, less than the plan's ${specs.diskGb} GiB disk`,
    },
  ] as const;
  const exceeded = checks.filter((c) => c.known && !c.fits);
  if (exceeded.length > 0) return { kind: 'exceeds', problem: exceeded.map((c) => c.problem).join('; ') };
  const unreported = checks.filter((c) => !c.known).map((c) => c.resource);
  return unreported.length > 0 ? { kind: 'unknown', unreported } : { kind: 'fits' };
}

/** Shared plans run on shared nodes, dedicated plans on nodes whose cores are pinned. */
export function nodeComputeTypeFor(category: ComputeCategory): NodeComputeType {
  return category === 'COMPUTE_CATEGORY_DEDICATED_COMPUTE'
    ? 'NODE_COMPUTE_TYPE_DEDICATED'
    : 'NODE_COMPUTE_TYPE_SHARED';
}
