import { describe, expect, test } from 'vitest';

import { nonNrFamilies } from './non-nr-families.js';
import { readResources } from './pve-resource.js';

const GiB = 1024 ** 3;

function guest(id: string, fields: Record<string, unknown>) {
  const [type, vmid] = id.split('/');
  return { id, type, vmid: Number(vmid), status: 'running', template: 0, disk: 0, ...fields };
}

function sums(resources: unknown[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const family of nonNrFamilies(readResources(resources))) {
    out[family.name] = Object.fromEntries(family.samples.map((s) => [s.labels.node ?? '', s.value]));
  }
  return out;
}

describe('non_nr_* sums', () => {
  test('sum the provider guests per node; templates count for disk only; NR guests not at all', () => {
    const result = sums([
      {
        id: 'node/pve1',
        type: 'node',
        node: 'pve1',
        maxmem: 64 * GiB,
        maxcpu: 16,
        maxdisk: 100 * GiB,
        disk: GiB,
      },
      guest('qemu/100', {
        name: 'lab-1',
        node: 'pve1',
        maxmem: 4 * GiB,
        maxcpu: 2,
        maxdisk: 32 * GiB,
        disk: GiB,
      }),
      guest('lxc/101', {
        name: 'ct-1',
        node: 'pve1',
        maxmem: GiB,
        maxcpu: 1,
        maxdisk: 8 * GiB,
        disk: 2 * GiB,
      }),
      guest('qemu/9000', {
        name: 'ubuntu',
        node: 'pve1',
        template: 1,
        maxmem: GiB,
        maxcpu: 1,
        maxdisk: 3 * GiB,
      }),
      guest('qemu/200', {
        name: 'NR-3f2a',
        node: 'pve1',
        maxmem: 8 * GiB,
        maxcpu: 4,
        maxdisk: 50 * GiB,
        disk: GiB,
      }),
      { id: 'storage/pve1/local', type: 'storage', node: 'pve1', maxdisk: 100 * GiB, disk: 6 * GiB },
    ]);
    expect(result).toEqual({
      non_nr_pve_memory_size_bytes: { pve1: 5 * GiB },
      non_nr_pve_cpu_usage_limit: { pve1: 3 },
      non_nr_pve_disk_size_bytes: { pve1: 43 * GiB },
      non_nr_pve_disk_usage_bytes: { pve1: 3 * GiB },
    });
  });

  test('a node whose sums are zero gets no series: templates only leave CPU and memory out', () => {
    const result = sums([
      guest('qemu/9002', {
        name: 'debian',
        node: 'pve2',
        template: 1,
        maxmem: GiB,
        maxcpu: 1,
        maxdisk: 3 * GiB,
      }),
      guest('qemu/300', { name: 'NR-aa', node: 'pve3', maxmem: GiB, maxcpu: 1, maxdisk: GiB }),
    ]);
    expect(result).toEqual({
      non_nr_pve_memory_size_bytes: {},
      non_nr_pve_cpu_usage_limit: {},
      non_nr_pve_disk_size_bytes: { pve2: 3 * GiB },
      non_nr_pve_disk_usage_bytes: {},
    });
  });

  test('a guest without a name yet counts as not ours; missing fields count as zero', () => {
    const result = sums([
      guest('qemu/400', { node: 'pve1', status: 'unknown', maxmem: 2 * GiB }),
      guest('qemu/401', { name: 'nr-lowercase', node: 'pve1', maxcpu: 2 }),
    ]);
    expect(result.non_nr_pve_memory_size_bytes).toEqual({ pve1: 2 * GiB });
    expect(result.non_nr_pve_cpu_usage_limit).toEqual({ pve1: 2 });
  });

  test('nodes appear in the order their first provider guest does', () => {
    const result = sums([
      guest('qemu/101', { name: 'b', node: 'pve2', maxcpu: 1 }),
      guest('qemu/100', { name: 'a', node: 'pve1', maxcpu: 1 }),
    ]);
    expect(Object.keys(result.non_nr_pve_cpu_usage_limit ?? {})).toEqual(['pve2', 'pve1']);
  });
});
