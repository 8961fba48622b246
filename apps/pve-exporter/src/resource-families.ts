import { counter, gauge } from '@noderings/prom';
import type { MetricFamily } from '@noderings/prom';
import { labelText, sampleValue } from './pve-record.js';
import { guestIdentityLabels, isGuest } from './pve-resource.js';
import type { PveResource } from './pve-resource.js';

/** Families with one sample per resource that has the field, under upstream's names and HELP texts. */
const GAUGES: readonly (readonly [field: string, name: string, help: string])[] = [
  [
    'maxdisk',
    'pve_disk_size_bytes',
    "Storage size in bytes (for type 'storage'), root image size for VMs (for types 'qemu' and 'lxc').",
  ],
  [
    'disk',
    'pve_disk_usage_bytes',
    "Used disk space in bytes (for type 'storage'), used root image space for VMs (for types 'qemu' and 'lxc').",
  ],
  [
    'maxmem',
    'pve_memory_size_bytes',
    "Number of available memory in bytes (for types 'node', 'qemu' and 'lxc').",
  ],
  ['mem', 'pve_memory_usage_bytes', "Used memory in bytes (for types 'node', 'qemu' and 'lxc')."],
  [
    'netout',
    'pve_network_transmit_bytes',
    "The amount of traffic in bytes that was sent from the guest over the network since it was started. (for types 'qemu' and 'lxc') DEPRECATED: Use pve_network_transmit_bytes_total instead.",
  ],
  [
    'netin',
    'pve_network_receive_bytes',
    "The amount of traffic in bytes that was sent to the guest over the network since it was started. (for types 'qemu' and 'lxc') DEPRECATED: Use pve_network_receive_bytes_total instead.",
  ],
  [
    'diskwrite',
    'pve_disk_write_bytes',
    "The amount of bytes the guest wrote to its block devices since the guest was started. This info is not available for all storage types. (for types 'qemu' and 'lxc') DEPRECATED: Use pve_disk_written_bytes_total instead.",
  ],
  [
    'diskread',
    'pve_disk_read_bytes',
    "The amount of bytes the guest read from its block devices since the guest was started. This info is not available for all storage types. (for types 'qemu' and 'lxc') DEPRECATED: Use pve_disk_read_bytes_total instead.",
  ],
  ['cpu', 'pve_cpu_usage_ratio', "CPU utilization (for types 'node', 'qemu' and 'lxc')."],
  ['maxcpu', 'pve_cpu_usage_limit', "Number of available CPUs (for types 'node', 'qemu' and 'lxc')."],
  [
    'uptime',
    'pve_uptime_seconds',
    "Uptime of node or virtual guest in seconds (for types 'node', 'qemu' and 'lxc').",
  ],
  ['shared', 'pve_storage_shared', 'Whether or not the storage is shared among cluster nodes'],
];

const COUNTERS: readonly (readonly [field: string, name: string, help: string])[] = [
  [
    'netout',
    'pve_network_transmit_bytes_total',
    "The amount of traffic in bytes that was sent from the guest over the network since it was started. (for types 'qemu' and 'lxc')",
  ],
  [
    'netin',
    'pve_network_receive_bytes_total',
    "The amount of traffic in bytes that was sent to the guest over the network since it was started. (for types 'qemu' and 'lxc')",
  ],
  [
    'diskwrite',
    'pve_disk_written_bytes_total',
    "The amount of bytes the guest wrote to its block devices since the guest was started. This info is not available for all storage types. (for types 'qemu' and 'lxc')",
  ],
  [
    'diskread',
    'pve_disk_read_bytes_total',
    "The amount of bytes the guest read from its block devices since the guest was started. This info is not available for all storage types. (for types 'qemu' and 'lxc')",
  ],
];

/** Every HA state upstream enumerates per resource type: one 0/1 series each. */
const GUEST_HA_STATES = [
  'stopped',
  'request_stop',
  'request_start',
  'request_start_balance',
  'started',
  'fence',
  'recovery',
  'migrate',
  'relocate',
  'freeze',
  'error',
] as const;
const HA_STATES: Readonly<Record<string, readonly string[]>> = {
  lxc: GUEST_HA_STATES,
  qemu: GUEST_HA_STATES,
  node: ['online', 'maintenance', 'unknown', 'fence', 'gone'],
};

/** Every config lock upstream enumerates for guests: one 0/1 series each. */
const LOCK_STATES = [
  'backup',
  'clone',
  'create',
  'migrate',
  'rollback',
  'snapshot',
  'snapshot-delete',
  'suspended',
  'suspending',
] as const;

const GUEST_INFO_LABELS = ['id', 'node', 'name', 'type', 'template', 'tags'] as const;
const STORAGE_INFO_LABELS = ['id', 'node', 'storage', 'plugintype'] as const;

/**
 * The families upstream builds from `/cluster/resources`: usage gauges, I/O counters, HA and lock
 * state, guest and storage info, in upstream's order. Per-guest series also carry the guest's `name`,
 * `node` and `type` (NodeRings).
 */
export function resourceFamilies(resources: readonly PveResource[]): MetricFamily[] {
  const gauges = GAUGES.map(([field, name, help]) => ({ field, family: gauge(name, help) }));
  const counters = COUNTERS.map(([field, name, help]) => ({ field, family: counter(name, help) }));
  const ha = gauge('pve_ha_state', 'HA service status (for HA managed VMs).');
  const lock = gauge('pve_lock_state', "The guest's current config lock (for types 'qemu' and 'lxc')");
  const guestInfo = gauge('pve_guest_info', 'VM/CT info');
  const storageInfo = gauge('pve_storage_info', 'Storage info');

  for (const resource of resources) {
    const labels = { id: resource.id, ...(isGuest(resource) ? guestIdentityLabels(resource) : {}) };
    for (const { field, family } of [...gauges, ...counters]) {
      const raw = resource.fields[field];
      if (raw === undefined) continue;
      family.samples.push({ labels, value: sampleValue(raw, `/cluster/resources ${resource.id} ${field}`) });
    }
    for (const state of HA_STATES[resource.type] ?? []) {
      ha.samples.push({ labels: { ...labels, state }, value: resource.fields.hastate === state ? 1 : 0 });
    }
    if (isGuest(resource)) {
      for (const state of LOCK_STATES) {
        lock.samples.push({ labels: { ...labels, state }, value: resource.fields.lock === state ? 1 : 0 });
      }
      guestInfo.samples.push({ labels: infoLabels(resource, GUEST_INFO_LABELS), value: 1 });
    } else if (resource.type === 'storage') {
      storageInfo.samples.push({ labels: storageLabels(resource), value: 1 });
    }
  }
  return [...gauges.map((g) => g.family), ...counters.map((c) => c.family), ha, lock, guestInfo, storageInfo];
}

function infoLabels(resource: PveResource, keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.map((key) => [key, labelText(resource.fields[key])]));
}

function storageLabels(resource: PveResource): Record<string, string> {
  // Proxmox lists the content types in no stable order; sorted, the label does not churn between scrapes.
  const content = labelText(resource.fields.content).split(',').sort().join(',');
  return { ...infoLabels(resource, STORAGE_INFO_LABELS), content };
}
