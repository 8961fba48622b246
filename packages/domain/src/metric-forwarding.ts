/**
 * Which Proxmox series leave the provider's network (seed 000, "Forwarded series"): once, as data, so that
 * the agent's Alloy configuration, Prometheus' relabel rules and the control plane's ingest all apply the
 * same rules. Per-guest series go only for guests NodeRings created (`NR-{uuid}`); everything not listed
 * stays home.
 */

/** A guest's name as NodeRings gives it; every other guest's series are dropped. */
export const NR_GUEST_NAME_PREFIX = 'NR-';

/** The exporter's `id` label of a guest: `qemu/100`, `lxc/101`. */
const GUEST_ID = /^(qemu|lxc)\//;

/** Families forwarded whatever they describe (cluster, nodes, storage, NR guests). */
export const FORWARDED_FAMILIES: readonly string[] = [
  'pve_up',
  'pve_cluster_info',
  'pve_node_info',
  'pve_version_info',
  'pve_guest_info',
  'pve_storage_info',
  'pve_storage_shared',
  'pve_memory_size_bytes',
  'pve_memory_usage_bytes',
  'pve_cpu_usage_limit',
  'pve_cpu_usage_ratio',
  'pve_disk_size_bytes',
  'pve_disk_usage_bytes',
  'pve_uptime_seconds',
  'pve_network_transmit_bytes',
  'pve_network_receive_bytes',
  'pve_network_transmit_bytes_total',
  'pve_network_receive_bytes_total',
  'pve_disk_write_bytes',
  'pve_disk_read_bytes',
  'pve_disk_written_bytes_total',
  'pve_disk_read_bytes_total',
  'non_nr_pve_memory_size_bytes',
  'non_nr_pve_cpu_usage_limit',
  'non_nr_pve_disk_size_bytes',
  'non_nr_pve_disk_usage_bytes',
];

/** Families forwarded by prefix (backup coverage, subscription, replication). */
export const FORWARDED_FAMILY_PREFIXES: readonly string[] = [
  'pve_not_backed_up_',
  'pve_subscription_',
  'pve_replication_',
];

/** Guests' HA and lock state: named in the seed as dropped for every `qemu/` and `lxc/` series. */
export const GUEST_DROPPED_FAMILIES: readonly string[] = ['pve_ha_state', 'pve_lock_state'];

export type ForwardingDecision =
  | { readonly forward: true }
  | {
      readonly forward: false;
      readonly reason: 'FAMILY_NOT_FORWARDED' | 'GUEST_NOT_NR' | 'GUEST_STATE_DROPPED';
    };

const FORWARDED = new Set(FORWARDED_FAMILIES);
const GUEST_DROPPED = new Set(GUEST_DROPPED_FAMILIES);

function familyForwarded(name: string): boolean {
  return (
    FORWARDED.has(name) ||
    FORWARDED_FAMILY_PREFIXES.some((prefix) => name.length > prefix.length && name.startsWith(prefix))
  );
}

/**
 * Whether one series (its metric name and labels, as the exporter serves them) may leave the provider's
 * network. Per-guest series carry the guest's `name` label (DESIGN §3.4); one without it is not known to
 * be NodeRings' and is dropped.
 */
export function forwardingDecision(
  metricName: string,
  labels: Readonly<Record<string, string | undefined>>,
): ForwardingDecision {
  const isGuest = GUEST_ID.test(labels.id ?? '');
  if (isGuest && GUEST_DROPPED.has(metricName)) return { forward: false, reason: 'GUEST_STATE_DROPPED' };
  if (!familyForwarded(metricName)) return { forward: false, reason: 'FAMILY_NOT_FORWARDED' };
  if (isGuest && !(labels.name ?? '').startsWith(NR_GUEST_NAME_PREFIX))
    return { forward: false, reason: 'GUEST_NOT_NR' };
  return { forward: true };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The same rules as RE2 patterns (anchored, as Prometheus' and Alloy's relabel rules anchor them), for
 * rendering both configurations: keep `__name__` matching `forwardedNames`; drop series whose `id` matches
 * `guestId` and whose `name` does not match `nrGuestName`. `guestDroppedNames` are dropped on guests by
 * name too (they are not forwarded anywhere), so a rule set may state the seed's line as it is.
 */
export function forwardingPatterns(): {
  readonly forwardedNames: string;
  readonly guestDroppedNames: string;
  readonly guestId: string;
  readonly nrGuestName: string;
} {
  const names = [
    ...FORWARDED_FAMILIES.map(escapeRegex),
    ...FORWARDED_FAMILY_PREFIXES.map((p) => `${escapeRegex(p)}.+`),
  ];
  return {
    forwardedNames: names.join('|'),
    guestDroppedNames: GUEST_DROPPED_FAMILIES.map(escapeRegex).join('|'),
    guestId: '(qemu|lxc)/.*',
    nrGuestName: `${escapeRegex(NR_GUEST_NAME_PREFIX)}.*`,
  };
}
