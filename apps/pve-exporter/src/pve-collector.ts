import { PveNotFoundError, ProxmoxError } from '@noderings/proxmox';
import type { CallOptions, ProxmoxClient } from '@noderings/proxmox';

import {
  backupFamilies,
  clusterInfoFamilies,
  isClustered,
  localNodeName,
  nodeInfoFamilies,
  qdeviceFamilies,
  readClusterStatus,
  upFamily,
  versionFamily,
} from './cluster-families.js';
import { mapConcurrently } from './concurrent-map.js';
import { ExporterError } from './exporter-error.js';
import type { MetricFamily } from '@noderings/prom';
import { onbootFamily, replicationFamilies, subscriptionFamilies } from './node-families.js';
import type { GuestConfig, ReplicationJob } from './node-families.js';
import { nonNrFamilies } from './non-nr-families.js';
import { expectRecord, readRecords, requireString, vmidOf } from './pve-record.js';
import type { PveRecord } from './pve-record.js';
import { guestLabelsById, readResources } from './pve-resource.js';
import { resourceFamilies } from './resource-families.js';

/** The Proxmox reads a collection makes: a ProxmoxClient, or anything with these methods. */
export type PveReader = Pick<
  ProxmoxClient,
  | 'getClusterStatus'
  | 'getClusterResources'
  | 'getVersion'
  | 'getGuestsNotBackedUp'
  | 'getQdeviceStatus'
  | 'getVms'
  | 'getContainers'
  | 'getVmConfig'
  | 'getContainerConfig'
  | 'getReplicationJobs'
  | 'getReplicationJobStatus'
  | 'getSubscription'
>;

export interface CollectOptions {
  /**
   * The cluster-wide families (`cluster=1`): status, resources, node, cluster and version info, backup
   * coverage, QDevice, and NodeRings' `non_nr_*` sums. Default true.
   */
  cluster?: boolean;
  /** The families of the node that answers (`node=1`): subscription, onboot, replication. Default true. */
  node?: boolean;
  /** Aborting it abandons every read in flight; the collection rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Guest config reads (one per guest of the node, for onboot) in flight at once. Default 4. */
  configConcurrency?: number;
}

const DEFAULT_CONFIG_CONCURRENCY = 4;

/**
 * Reads Proxmox the way prometheus-pve-exporter 3.10 does and returns its metric families, in its
 * order, plus NodeRings' additions. Independent reads run at once; any failed read fails the whole
 * collection (and abandons the others), as a scrape must not show a partial picture as complete.
 */
export async function collectPveMetrics(
  client: PveReader,
  options: CollectOptions = {},
): Promise<MetricFamily[]> {
  const cluster = options.cluster ?? true;
  const node = options.node ?? true;
  if (!cluster && !node) return [];
  const stop = new AbortController();
  const signal = options.signal === undefined ? stop.signal : AbortSignal.any([options.signal, stop.signal]);
  const concurrency = options.configConcurrency ?? DEFAULT_CONFIG_CONCURRENCY;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`configConcurrency must be a whole number ≥ 1, got ${concurrency}`);
  }
  try {
    const status = client.getClusterStatus({ signal }).then(readClusterStatus);
    const [clusterFamilies, nodeFamilies] = await Promise.all([
      cluster ? collectCluster(client, status, { signal }) : [],
      node ? collectNode(client, status, { signal }, concurrency) : [],
    ]);
    return [...clusterFamilies, ...nodeFamilies];
  } catch (e: unknown) {
    // The other reads' answers could no longer be used.
    stop.abort(e);
    throw e;
  }
}

async function collectCluster(
  client: PveReader,
  statusRead: Promise<PveRecord[]>,
  call: CallOptions,
): Promise<MetricFamily[]> {
  const [status, resourceList, version, notBackedUp, qdevice] = await Promise.all([
    statusRead,
    client.getClusterResources(undefined, call),
    client.getVersion(call),
    client.getGuestsNotBackedUp(call),
    statusRead.then((s) => (isClustered(s) ? readQdevice(client, call) : undefined)),
  ]);
  const resources = readResources(resourceList);
  return [
    upFamily(status, resources),
    ...resourceFamilies(resources),
    ...nonNrFamilies(resources),
    ...nodeInfoFamilies(status),
    ...clusterInfoFamilies(status),
    versionFamily(expectRecord(version, '/version')),
    ...backupFamilies(notBackedUp, status, guestLabelsById(resources)),
    ...qdeviceFamilies(status, qdevice),
  ];
}

/** The QDevice status, or undefined when Proxmox refuses to give one (upstream then shows none). */
async function readQdevice(client: PveReader, call: CallOptions): Promise<PveRecord | undefined> {
  try {
    return expectRecord(await client.getQdeviceStatus(call), '/cluster/config/qdevice');
  } catch (e: unknown) {
    if (e instanceof ProxmoxError && e.status !== undefined) return undefined;
    throw e;
  }
}

async function collectNode(
  client: PveReader,
  statusRead: Promise<PveRecord[]>,
  call: CallOptions,
  concurrency: number,
): Promise<MetricFamily[]> {
  const node = localNodeName(await statusRead);
  if (node === undefined) throw new ExporterError('NO_LOCAL_NODE', '/cluster/status names no local node');
  const [vms, containers, subscription, jobs] = await Promise.all([
    client.getVms(node, call),
    client.getContainers(node, call),
    client.getSubscription(node, call),
    client.getReplicationJobs(node, call),
  ]);
  const guests = [
    ...readRecords(vms, `/nodes/${node}/qemu`).map((vm) => ({
      type: 'qemu' as const,
      vmid: vmidOf(vm, `/nodes/${node}/qemu`),
    })),
    ...readRecords(containers, `/nodes/${node}/lxc`).map((ct) => ({
      type: 'lxc' as const,
      vmid: vmidOf(ct, `/nodes/${node}/lxc`),
    })),
  ];
  const configs = await mapConcurrently(
    guests,
    concurrency,
    (guest) => readGuestConfig(client, node, guest, call),
    call.signal,
  );
  const replication = await mapConcurrently(
    readRecords(jobs, `/nodes/${node}/replication`),
    concurrency,
    (job) => readReplicationStatus(client, node, job, call),
    call.signal,
  );
  return [
    ...subscriptionFamilies(node, expectRecord(subscription, `/nodes/${node}/subscription`)),
    onbootFamily(
      node,
      configs.filter((c) => c !== undefined),
    ),
    ...replicationFamilies(replication.filter((r) => r !== undefined)),
  ];
}

/** A guest's config; undefined when the guest went away between the list and this read. */
async function readGuestConfig(
  client: PveReader,
  node: string,
  guest: Omit<GuestConfig, 'config'>,
  call: CallOptions,
): Promise<GuestConfig | undefined> {
  try {
    const config =
      guest.type === 'qemu'
        ? await client.getVmConfig(node, guest.vmid, call)
        : await client.getContainerConfig(node, guest.vmid, call);
    return { ...guest, config: expectRecord(config, `${guest.type}/${guest.vmid} config`) };
  } catch (e: unknown) {
    if (e instanceof PveNotFoundError) return undefined;
    throw e;
  }
}

/** A replication job's status; undefined when the job went away between the list and this read. */
async function readReplicationStatus(
  client: PveReader,
  node: string,
  job: PveRecord,
  call: CallOptions,
): Promise<ReplicationJob | undefined> {
  const id = requireString(job, 'id', `/nodes/${node}/replication`);
  try {
    const status = await client.getReplicationJobStatus(node, id, call);
    return { job, status: expectRecord(status, `/nodes/${node}/replication/${id}/status`) };
  } catch (e: unknown) {
    if (e instanceof PveNotFoundError) return undefined;
    throw e;
  }
}
