import { describe, expect, it } from 'vitest';

import type { HypervisorNode, ProviderVirtualMachine } from '../../api/api-resources.js';
import { capacityBars, describeCapacity, soldOnNode } from './node-capacity.js';

const GIB = 1024 ** 3;

function defined<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value');
  return value;
}

function node(over: Partial<HypervisorNode> = {}): HypervisorNode {
  return {
    id: 'n1',
    name: 'pve1',
    computeType: 'NODE_COMPUTE_TYPE_SHARED',
    cpuOverallocatePercent: 200,
    memoryOverallocatePercent: 100,
    storageOverallocatePercent: 100,
    vmStorageDestination: 'local-lvm',
    inventory: {
      cpuCores: 8,
      memoryBytes: 64 * GIB,
      storagePools: [{ storageId: 'local-lvm', totalBytes: 800 * GIB, allocatedBytes: 40 * GIB }],
    },
    ...over,
  } as HypervisorNode;
}

const vm = (over: Partial<ProviderVirtualMachine>) =>
  ({
    nodeId: 'n1',
    provisioningState: 'RUNNING',
    cpu: 2,
    memory: 4096,
    storage: 40,
    ...over,
  }) as ProviderVirtualMachine;

describe('node capacity', () => {
  it('adds up what live VMs on the node hold, in cores and bytes', () => {
    const sold = soldOnNode('n1', [
      vm({}),
      vm({ cpu: 4, memory: 8192, storage: 80 }),
      vm({ nodeId: 'n2' }),
      vm({ provisioningState: 'DELETED' }),
    ]);
    expect(sold).toEqual({ cpu: 6, memory: 12 * GIB, storage: 120 * GIB });
  });

  it('sells (physical − others) × overallocation, the bar spanning the larger of physical and sellable', () => {
    const [cpu, memory, storage] = capacityBars(node(), { cpu: 6, memory: 12 * GIB, storage: 120 * GIB });
    expect(cpu).toMatchObject({
      physical: 8,
      sellable: 16,
      sold: 6,
      oversold: false,
      physicalMark: 50,
      sellableMark: 100,
    });
    expect(cpu?.soldShare).toBeCloseTo(37.5);
    expect(memory).toMatchObject({ sellable: 64 * GIB, physicalMark: 100 });
    expect(storage).toMatchObject({ label: 'Storage (local-lvm)', physical: 800 * GIB });
  });

  it('never oversells dedicated cores, whatever the CPU percentage says', () => {
    const [cpu] = capacityBars(node({ computeType: 'NODE_COMPUTE_TYPE_DEDICATED' }), {
      cpu: 10,
      memory: 0,
      storage: 0,
    });
    expect(cpu).toMatchObject({ overallocatePercent: 100, sellable: 8, oversold: true });
    expect(describeCapacity(defined(cpu))).toMatch(/oversold/);
  });

  it('takes what other guests use off the top before overallocating', () => {
    const n = node({ inventory: { ...node().inventory, nonNrCpuCores: 2 } });
    const [cpu] = capacityBars(n, { cpu: 0, memory: 0, storage: 0 });
    expect(cpu).toMatchObject({ sellable: 12, usedByOthers: 2 });
    expect(describeCapacity(defined(cpu))).toBe(
      'CPU: 0 vCPU sold of 12 vCPU sellable (8 vCPU physical at 200 %, 2 vCPU used by guests NodeRings did not create).',
    );
  });

  it('says when the hypervisor has not reported a resource', () => {
    const n = node({
      inventory: {
        cpuCores: 0,
        cpuCoresAllocated: 0,
        memoryBytes: 0,
        memoryAllocatedBytes: 0,
        nonNrCpuCores: 0,
        nonNrMemoryBytes: 0,
        nonNrDiskBytes: 0,
        storagePools: [],
        syncedAt: null,
      },
    });
    const bars = capacityBars(n, { cpu: 0, memory: 0, storage: 0 });
    expect(bars.every((b) => !b.reported)).toBe(true);
    expect(describeCapacity(defined(bars[2]))).toBe(
      'Storage (local-lvm): not reported by the hypervisor yet.',
    );
  });
});
