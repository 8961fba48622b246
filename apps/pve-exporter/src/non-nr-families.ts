import { gauge } from '@noderings/prom';
import type { MetricFamily } from '@noderings/prom';
import { optionalString, sampleValue } from './pve-record.js';
import { isGuest } from './pve-resource.js';
import type { PveResource } from './pve-resource.js';

/** Guests NodeRings created are named `NR-{uuid}`; every other guest is the provider's own. */
const NR_GUEST_NAME_PREFIX = 'NR-';

interface NodeSums {
  maxmem: number;
  maxcpu: number;
  maxdisk: number;
  disk: number;
}

/**
 * What the provider's own guests (those not named `NR-…`) take on each node, for overallocation
 * accounting once the forwarding rules have dropped their per-guest series (the NodeRings fork's
 * families). Templates never run, so they count for disk but not for CPU and memory. A node gets a
 * series only when its sum is above zero.
 */
export function nonNrFamilies(resources: readonly PveResource[]): MetricFamily[] {
  const sums = new Map<string, NodeSums>();
  for (const resource of resources) {
    if (!isGuest(resource)) continue;
    if ((optionalString(resource.fields, 'name') ?? '').startsWith(NR_GUEST_NAME_PREFIX)) continue;
    const node = optionalString(resource.fields, 'node');
    if (node === undefined) continue;
    const sum = sums.get(node) ?? { maxmem: 0, maxcpu: 0, maxdisk: 0, disk: 0 };
    sums.set(node, sum);
    const field = (key: keyof NodeSums): number => {
      const raw = resource.fields[key];
      return raw === undefined || raw === null
        ? 0
        : sampleValue(raw, `/cluster/resources ${resource.id} ${key}`);
    };
    const template = resource.fields.template === 1 || resource.fields.template === true;
    if (!template) {
      sum.maxmem += field('maxmem');
      sum.maxcpu += field('maxcpu');
    }
    sum.maxdisk += field('maxdisk');
    sum.disk += field('disk');
  }

  const families = [
    [
      'maxmem',
      gauge(
        'non_nr_pve_memory_size_bytes',
        'Sum of memory size in bytes for non-NR non-template qemu/lxc per node.',
      ),
    ],
    [
      'maxcpu',
      gauge('non_nr_pve_cpu_usage_limit', 'Sum of vCPUs for non-NR non-template qemu/lxc per node.'),
    ],
    [
      'maxdisk',
      gauge(
        'non_nr_pve_disk_size_bytes',
        'Sum of disk size in bytes for non-NR qemu/lxc per node (includes templates).',
      ),
    ],
    [
      'disk',
      gauge(
        'non_nr_pve_disk_usage_bytes',
        'Sum of disk usage in bytes for non-NR qemu/lxc per node (includes templates).',
      ),
    ],
  ] as const;
  for (const [node, sum] of sums) {
    for (const [key, family] of families) {
      if (sum[key] > 0) family.samples.push({ labels: { node }, value: sum[key] });
    }
  }
  return families.map(([, family]) => family);
}
