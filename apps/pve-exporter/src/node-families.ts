import { gauge } from '@noderings/prom';
import type { MetricFamily } from '@noderings/prom';
import { labelText, malformed, optionalString, sampleValue } from './pve-record.js';
import type { PveRecord } from './pve-record.js';

const SUBSCRIPTION_STATUSES = ['new', 'notfound', 'active', 'invalid', 'expired', 'suspended'] as const;

/** `pve_subscription_info`, one 0/1 `pve_subscription_status` per status, and the next due date if any. */
export function subscriptionFamilies(node: string, subscription: PveRecord): MetricFamily[] {
  const id = `node/${node}`;
  const info = gauge('pve_subscription_info', 'Proxmox VE subscription info (1 if present)');
  info.samples.push({ labels: { id, level: labelText(subscription.level ?? 'unknown') }, value: 1 });
  const status = gauge('pve_subscription_status', 'Proxmox VE subscription status (1 if matches status)');
  const current = subscription.status ?? 'unknown';
  for (const candidate of SUBSCRIPTION_STATUSES) {
    status.samples.push({ labels: { id, status: candidate }, value: current === candidate ? 1 : 0 });
  }
  const nextDue = gauge(
    'pve_subscription_next_due_timestamp_seconds',
    'Subscription next due date as Unix timestamp',
  );
  const due = optionalString(subscription, 'nextduedate');
  if (due !== undefined) nextDue.samples.push({ labels: { id }, value: dateSeconds(due) });
  return [info, status, nextDue];
}

/** `YYYY-MM-DD` as the Unix time of its midnight, UTC. */
function dateSeconds(text: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  const ms = match === null ? NaN : Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  if (Number.isNaN(ms)) throw malformed(`/subscription nextduedate is not a date: ${text}`);
  return ms / 1000;
}

/** A guest of the local node with its config. */
export interface GuestConfig {
  readonly type: 'qemu' | 'lxc';
  readonly vmid: number;
  readonly config: PveRecord;
}

/** `pve_onboot_status` for every guest whose config sets `onboot`; the guest's name from its config (NodeRings). */
export function onbootFamily(node: string, guests: readonly GuestConfig[]): MetricFamily {
  const onboot = gauge('pve_onboot_status', 'Proxmox vm config onboot value');
  for (const { type, vmid, config } of guests) {
    if (config.onboot === undefined) continue;
    const id = `${type}/${vmid}`;
    const name = optionalString(config, type === 'qemu' ? 'name' : 'hostname');
    onboot.samples.push({
      labels: { id, node, type, ...(name === undefined ? {} : { name }) },
      value: sampleValue(config.onboot, `${id} config onboot`),
    });
  }
  return onboot;
}

/** A replication job of the local node with its status. */
export interface ReplicationJob {
  readonly job: PveRecord;
  readonly status: PveRecord;
}

const REPLICATION_GAUGES = [
  ['duration', 'pve_replication_duration_seconds', 'Proxmox vm replication duration'],
  ['last_sync', 'pve_replication_last_sync_timestamp_seconds', 'Proxmox vm replication last_sync'],
  ['last_try', 'pve_replication_last_try_timestamp_seconds', 'Proxmox vm replication last_try'],
  ['next_sync', 'pve_replication_next_sync_timestamp_seconds', 'Proxmox vm replication next_sync'],
  ['fail_count', 'pve_replication_failed_syncs', 'Proxmox vm replication fail_count'],
] as const;

/** The replication gauges (from each job's status) and `pve_replication_info`, even without jobs. */
export function replicationFamilies(jobs: readonly ReplicationJob[]): MetricFamily[] {
  const gauges = REPLICATION_GAUGES.map(([field, name, help]) => ({ field, family: gauge(name, help) }));
  const info = gauge('pve_replication_info', 'Proxmox vm replication info');
  for (const { job, status } of jobs) {
    const id = labelText(job.id);
    info.samples.push({
      labels: {
        id,
        type: labelText(job.type),
        source: `node/${labelText(job.source)}`,
        target: `node/${labelText(job.target)}`,
        guest: `${labelText(job.vmtype)}/${labelText(job.guest)}`,
      },
      value: 1,
    });
    for (const { field, family } of gauges) {
      if (status[field] === undefined) continue;
      family.samples.push({
        labels: { id },
        value: sampleValue(status[field], `replication ${id} ${field}`),
      });
    }
  }
  return [...gauges.map((g) => g.family), info];
}
