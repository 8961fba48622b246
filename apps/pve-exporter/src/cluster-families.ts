import { gauge } from '@noderings/prom';
import type { MetricFamily } from '@noderings/prom';
import {
  expectRecord,
  labelText,
  malformed,
  optionalString,
  requireString,
  sampleValue,
} from './pve-record.js';
import type { PveRecord } from './pve-record.js';
import { guestIdentityLabels, isGuest } from './pve-resource.js';
import type { PveResource } from './pve-resource.js';

/** `/cluster/status`: one `cluster` entry when clustered, one `node` entry per node. */
export function readClusterStatus(data: readonly unknown[]): PveRecord[] {
  return data.map((entry, index) => {
    const record = expectRecord(entry, `/cluster/status[${index}]`);
    requireString(record, 'type', `/cluster/status[${index}]`);
    return record;
  });
}

function clusterEntry(status: readonly PveRecord[]): PveRecord | undefined {
  return status.find((entry) => entry.type === 'cluster');
}

function clusterId(cluster: PveRecord): string {
  return `cluster/${requireString(cluster, 'name', '/cluster/status cluster entry')}`;
}

/** The node answering the API: the one whose status entry says `local`. */
export function localNodeName(status: readonly PveRecord[]): string | undefined {
  const local = status.find((entry) => entry.type === 'node' && Boolean(entry.local));
  return local === undefined ? undefined : requireString(local, 'name', '/cluster/status local node');
}

/** `pve_up`: nodes online, the cluster quorate, guests running, storages available, in upstream's order. */
export function upFamily(status: readonly PveRecord[], resources: readonly PveResource[]): MetricFamily {
  const up = gauge('pve_up', 'Node/VM/CT-Status is online/running');
  for (const entry of status) {
    if (entry.type === 'node') {
      const id = requireString(entry, 'id', '/cluster/status node entry');
      up.samples.push({ labels: { id }, value: sampleValue(entry.online, `/cluster/status ${id} online`) });
    } else if (entry.type === 'cluster') {
      const id = clusterId(entry);
      up.samples.push({ labels: { id }, value: sampleValue(entry.quorate, `/cluster/status ${id} quorate`) });
    } else {
      throw malformed(`/cluster/status: unexpected entry type ${labelText(entry.type)}`);
    }
  }
  for (const guest of resources.filter(isGuest)) {
    const value = guest.fields.status === 'running' ? 1 : 0;
    up.samples.push({ labels: { id: guest.id, ...guestIdentityLabels(guest) }, value });
  }
  for (const storage of resources.filter((r) => r.type === 'storage')) {
    up.samples.push({ labels: { id: storage.id }, value: storage.fields.status === 'available' ? 1 : 0 });
  }
  return up;
}

const NODE_INFO_LABELS = ['id', 'level', 'name', 'nodeid'] as const;

/** `pve_node_info`, when the status lists any node. */
export function nodeInfoFamilies(status: readonly PveRecord[]): MetricFamily[] {
  const nodes = status.filter((entry) => entry.type === 'node');
  if (nodes.length === 0) return [];
  const info = gauge('pve_node_info', 'Node info');
  for (const node of nodes) {
    info.samples.push({
      labels: Object.fromEntries(NODE_INFO_LABELS.map((key) => [key, labelText(node[key])])),
      value: 1,
    });
  }
  return [info];
}

/** `pve_cluster_info`, when clustered: every field of the cluster entry but its type, the name in `id`. */
export function clusterInfoFamilies(status: readonly PveRecord[]): MetricFamily[] {
  const cluster = clusterEntry(status);
  if (cluster === undefined) return [];
  const info = gauge('pve_cluster_info', 'Cluster info');
  const labels = Object.fromEntries(
    Object.entries(cluster)
      .filter(([key]) => key !== 'type' && key !== 'name')
      .map(([key, value]) => [key, labelText(value)]),
  );
  info.samples.push({ labels: { ...labels, id: clusterId(cluster) }, value: 1 });
  return [info];
}

const VERSION_LABELS = ['release', 'repoid', 'version'] as const;

export function versionFamily(version: PveRecord): MetricFamily {
  const info = gauge('pve_version_info', 'Proxmox VE version info');
  const labels = VERSION_LABELS.filter((key) => key in version).map(
    (key) => [key, labelText(version[key])] as const,
  );
  info.samples.push({ labels: Object.fromEntries(labels), value: 1 });
  return info;
}

/**
 * `pve_not_backed_up_total` (for the cluster, or the local node when standalone) and one
 * `pve_not_backed_up_info` per guest that no backup job covers.
 */
export function backupFamilies(
  notBackedUp: readonly unknown[],
  status: readonly PveRecord[],
  guestLabels: ReadonlyMap<string, Record<string, string>>,
): MetricFamily[] {
  const total = gauge('pve_not_backed_up_total', 'Total number of guests not covered by any backup job.');
  const info = gauge('pve_not_backed_up_info', 'Present if guest is not covered by any backup job.');
  for (const [index, entry] of notBackedUp.entries()) {
    const guest = expectRecord(entry, `/cluster/backup-info/not-backed-up[${index}]`);
    const type = requireString(guest, 'type', `/cluster/backup-info/not-backed-up[${index}]`);
    const id = `${type}/${labelText(guest.vmid)}`;
    const name = optionalString(guest, 'name');
    const labels = guestLabels.get(id) ?? { ...(name === undefined ? {} : { name }), type };
    info.samples.push({ labels: { id, ...labels }, value: 1 });
  }
  const cluster = clusterEntry(status);
  const totalId = cluster === undefined ? `node/${localNodeName(status) ?? ''}` : clusterId(cluster);
  total.samples.push({ labels: { id: totalId }, value: notBackedUp.length });
  return [total, info];
}

/** QDevice status keys and the label each becomes. */
const QDEVICE_LABELS = [
  ['Model', 'model'],
  ['Algorithm', 'algorithm'],
  ['QNetd host', 'qnetd_host'],
  ['Tie-breaker', 'tie_breaker'],
  ['State', 'state'],
] as const;

/** `pve_qdevice_up` and `pve_qdevice_info`, for a cluster with a QDevice (`qdevice` non-empty). */
export function qdeviceFamilies(
  status: readonly PveRecord[],
  qdevice: PveRecord | undefined,
): MetricFamily[] {
  const cluster = clusterEntry(status);
  if (cluster === undefined || qdevice === undefined || Object.keys(qdevice).length === 0) return [];
  const id = clusterId(cluster);
  const up = gauge('pve_qdevice_up', 'Proxmox VE QDevice is connected (1) or not (0)');
  up.samples.push({ labels: { id }, value: qdevice.State === 'Connected' ? 1 : 0 });
  const info = gauge('pve_qdevice_info', 'Proxmox VE QDevice info (1 if configured)');
  const labels = QDEVICE_LABELS.map(([key, label]) => [label, labelText(qdevice[key] ?? '')] as const);
  info.samples.push({ labels: { id, ...Object.fromEntries(labels) }, value: 1 });
  return [up, info];
}

/** Whether the cluster status has a cluster entry: upstream asks for the QDevice only then. */
export function isClustered(status: readonly PveRecord[]): boolean {
  return clusterEntry(status) !== undefined;
}
