import type { HypervisorNode, ProviderVirtualMachine } from '../../api/api-resources.js';
import { formatBytes } from '../../format/bytes.js';

type CapacityResource = 'cpu' | 'memory' | 'storage';

const MIB = 1024 ** 2;
const GIB = 1024 ** 3;
const NO_OVERALLOCATION = 100;

/** What VMs sold on a node hold: cores and bytes. */
export interface SoldAmounts {
  readonly cpu: number;
  readonly memory: number;
  readonly storage: number;
}

/** One resource of a node, in cores (CPU) or bytes, with the shares a bar draws (percent of its width). */
export interface CapacityBar {
  readonly resource: CapacityResource;
  readonly label: string;
  /** What the hypervisor reports; 0 until the inventory sync has. */
  readonly physical: number;
  readonly sold: number;
  /** Undefined when not reported. */
  readonly usedByOthers: number | undefined;
  /** The percentage that applies (dedicated nodes never oversell CPU). */
  readonly overallocatePercent: number;
  /** What may be sold in total: (physical − used by others) × percent / 100. */
  readonly sellable: number;
  readonly reported: boolean;
  readonly soldShare: number;
  readonly othersShare: number;
  /** Where physical capacity ends on the bar, when overallocation draws the bar beyond it. */
  readonly physicalMark: number;
  readonly sellableMark: number;
  readonly oversold: boolean;
}

/** The VMs NodeRings placed on the node that still hold capacity. */
export function soldOnNode(nodeId: string, vms: readonly ProviderVirtualMachine[]): SoldAmounts {
  return vms
    .filter((vm) => vm.nodeId === nodeId && vm.provisioningState !== 'DELETED')
    .reduce(
      (sum, vm) => ({
        cpu: sum.cpu + vm.cpu,
        memory: sum.memory + vm.memory * MIB,
        storage: sum.storage + vm.storage * GIB,
      }),
      { cpu: 0, memory: 0, storage: 0 },
    );
}

function percentOf(part: number, whole: number): number {
  return whole <= 0 ? 0 : Math.min(100, (part / whole) * 100);
}

function bar(
  resource: CapacityResource,
  label: string,
  physical: number,
  sold: number,
  usedByOthers: number | undefined,
  overallocatePercent: number,
): CapacityBar {
  const left = Math.max(0, physical - (usedByOthers ?? 0));
  const sellable = (left * overallocatePercent) / 100;
  // The bar spans whatever is largest, so nothing it shows falls off its end.
  const scale = Math.max(physical, sellable, sold + (usedByOthers ?? 0));
  return {
    resource,
    label,
    physical,
    sold,
    usedByOthers,
    overallocatePercent,
    sellable,
    reported: physical > 0,
    soldShare: percentOf(sold, scale),
    othersShare: percentOf(usedByOthers ?? 0, scale),
    physicalMark: percentOf(physical, scale),
    sellableMark: percentOf(sellable, scale),
    oversold: sold > sellable,
  };
}

/**
 * The node's CPU, memory and VM storage as the placement rule counts them (seed 003): sold against
 * (physical − used by other guests) × overallocation. Storage is the pool new VM disks go to.
 */
export function capacityBars(node: HypervisorNode, sold: SoldAmounts): CapacityBar[] {
  const { inventory } = node;
  const pool = inventory.storagePools.find((p) => p.storageId === node.vmStorageDestination);
  const cpuPercent =
    node.computeType === 'NODE_COMPUTE_TYPE_DEDICATED' ? NO_OVERALLOCATION : node.cpuOverallocatePercent;
  return [
    bar('cpu', 'CPU', inventory.cpuCores, sold.cpu, inventory.nonNrCpuCores, cpuPercent),
    bar(
      'memory',
      'Memory',
      inventory.memoryBytes,
      sold.memory,
      inventory.nonNrMemoryBytes,
      node.memoryOverallocatePercent,
    ),
    bar(
      'storage',
      `Storage (${node.vmStorageDestination})`,
      pool?.totalBytes ?? 0,
      sold.storage,
      inventory.nonNrDiskBytes,
      node.storageOverallocatePercent,
    ),
  ];
}

function formatAmount(resource: CapacityResource, amount: number): string {
  if (resource === 'cpu') return `${Number.isInteger(amount) ? amount : amount.toFixed(1)} vCPU`;
  return formatBytes(amount);
}

/** The bar in one sentence: "CPU: 6 vCPU sold of 32 vCPU sellable (16 vCPU physical at 200 %)." */
export function describeCapacity(b: CapacityBar): string {
  if (!b.reported) return `${b.label}: not reported by the hypervisor yet.`;
  const f = (n: number) => formatAmount(b.resource, n);
  const others =
    b.usedByOthers === undefined ? '' : `, ${f(b.usedByOthers)} used by guests NodeRings did not create`;
  return (
    `${b.label}: ${f(b.sold)} sold of ${f(b.sellable)} sellable ` +
    `(${f(b.physical)} physical at ${b.overallocatePercent} %${others})${b.oversold ? ': oversold.' : '.'}`
  );
}
