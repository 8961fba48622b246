import { PveNotFoundError, ProxmoxError } from '@noderings/proxmox';
import { describe, expect, test } from 'vitest';

import { ExporterError } from './exporter-error.js';
import { collectPveMetrics } from './pve-collector.js';
import type { PveReader } from './pve-collector.js';
import { renderTextExposition } from '@noderings/prom';

/**
 * The whole collection against recorded-style answers, compared line by line with what
 * prometheus-pve-exporter 3.10 would print for them (plus NodeRings' labels and sums).
 */

const STATUS = [
  { type: 'cluster', id: 'cluster', name: 'pvec', nodes: 2, quorate: 1, version: 2 },
  { type: 'node', id: 'node/pve1', name: 'pve1', nodeid: 1, online: 1, local: 1, ip: '10.0.0.1', level: 'c' },
  { type: 'node', id: 'node/pve2', name: 'pve2', nodeid: 2, online: 0, local: 0, ip: '10.0.0.2', level: '' },
];

const RESOURCES = [
  {
    id: 'node/pve1',
    type: 'node',
    node: 'pve1',
    status: 'online',
    cpu: 0.0512,
    maxcpu: 8,
    mem: 4294967296,
    maxmem: 17179869184,
    disk: 5368709120,
    maxdisk: 107374182400,
    uptime: 864000,
    level: 'c',
  },
  {
    id: 'qemu/100',
    type: 'qemu',
    vmid: 100,
    node: 'pve1',
    name: 'NR-7c1e',
    status: 'running',
    template: 0,
    cpu: 0.1234,
    maxcpu: 2,
    mem: 1073741824,
    maxmem: 2147483648,
    disk: 0,
    maxdisk: 34359738368,
    uptime: 86400,
    netin: 123456789,
    netout: 987654321,
    diskread: 5555555,
    diskwrite: 4444444,
    tags: 'nr',
    hastate: 'started',
  },
  {
    id: 'lxc/101',
    type: 'lxc',
    vmid: 101,
    node: 'pve2',
    name: 'ct-lab',
    status: 'stopped',
    template: 0,
    maxcpu: 1,
    maxmem: 536870912,
    disk: 1073741824,
    maxdisk: 8589934592,
    lock: 'backup',
  },
  {
    id: 'storage/pve1/local',
    type: 'storage',
    storage: 'local',
    node: 'pve1',
    status: 'available',
    disk: 5368709120,
    maxdisk: 107374182400,
    shared: 0,
    content: 'vztmpl,iso,backup',
    plugintype: 'dir',
  },
];

interface Answers {
  status: unknown[];
  qdevice: Record<string, string> | Error;
  configs: Record<number, Record<string, unknown> | Error>;
}

function reader(overrides: Partial<Answers> = {}) {
  const answers: Answers = {
    status: STATUS,
    qdevice: {},
    configs: { 100: { digest: 'd', name: 'NR-7c1e', onboot: 1 } },
    ...overrides,
  };
  const calls: string[] = [];
  const answer = <T>(call: string, value: T | Error): Promise<T> => {
    calls.push(call);
    return value instanceof Error ? Promise.reject(value) : Promise.resolve(value);
  };
  const client: PveReader = {
    getClusterStatus: () => answer('status', answers.status as never),
    getClusterResources: () => answer('resources', RESOURCES as never),
    getVersion: () => answer('version', { version: '8.4.1', release: '8.4', repoid: '2a5fa54a' }),
    getGuestsNotBackedUp: () =>
      answer('not-backed-up', [{ vmid: 101, type: 'lxc' as const, name: 'ct-lab' }]),
    getQdeviceStatus: () => answer('qdevice', answers.qdevice),
    getVms: (node) => answer(`${node} qemu`, [{ vmid: 100, name: 'NR-7c1e', status: 'running' }]),
    getContainers: (node) => answer(`${node} lxc`, []),
    getVmConfig: (node, vmid) => answer(`${node} qemu ${vmid} config`, answers.configs[vmid] as never),
    getContainerConfig: (node, vmid) => answer(`${node} lxc ${vmid} config`, answers.configs[vmid] as never),
    getSubscription: (node) =>
      answer(`${node} subscription`, { status: 'active', level: 'c', nextduedate: '2027-01-01' }),
    getReplicationJobs: (node) =>
      answer(`${node} replication`, [
        {
          id: '100-0',
          jobnum: 0,
          guest: 100,
          vmtype: 'qemu' as const,
          type: 'local',
          source: 'pve1',
          target: 'pve2',
        },
      ]),
    getReplicationJobStatus: (node, id) =>
      answer(`${node} replication ${id}`, {
        id,
        jobnum: 0,
        guest: 100,
        vmtype: 'qemu' as const,
        type: 'local',
        target: 'pve2',
        duration: 3.5,
        last_sync: 1700000000,
        last_try: 1700000000,
        next_sync: 1700000900,
        fail_count: 0,
      }),
  };
  return { client, calls };
}

const NR_LABELS = { id: 'qemu/100', name: 'NR-7c1e', node: 'pve1', type: 'qemu' };
const LAB_LABELS = { id: 'lxc/101', name: 'ct-lab', node: 'pve2', type: 'lxc' };
const NR = 'id="qemu/100",name="NR-7c1e",node="pve1",type="qemu"';
const LAB = 'id="lxc/101",name="ct-lab",node="pve2",type="lxc"';

function family(name: string, help: string, type: string, ...samples: string[]): string[] {
  return [`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`, ...samples];
}

/** One 0/1 series per state, labels written sorted as the exposition writes them. */
function states(
  name: string,
  labels: Record<string, string>,
  all: readonly string[],
  current?: string,
  stateLabel = 'state',
): string[] {
  return all.map((state) => {
    const sorted = Object.entries({ ...labels, [stateLabel]: state }).sort(([a], [b]) => (a < b ? -1 : 1));
    const text = sorted.map(([k, v]) => `${k}="${v}"`).join(',');
    return `${name}{${text}} ${state === current ? '1.0' : '0.0'}`;
  });
}

const GUEST_HA = ['stopped', 'request_stop', 'request_start', 'request_start_balance', 'started', 'fence'];
const GUEST_HA_REST = ['recovery', 'migrate', 'relocate', 'freeze', 'error'];
const LOCKS = [
  'backup',
  'clone',
  'create',
  'migrate',
  'rollback',
  'snapshot',
  'snapshot-delete',
  'suspended',
  'suspending',
];
const GUEST_TEXT = "(for types 'qemu' and 'lxc')";
const STORAGE_ID = 'id="storage/pve1/local"';

const EXPECTED = [
  ...family(
    'pve_up',
    'Node/VM/CT-Status is online/running',
    'gauge',
    'pve_up{id="cluster/pvec"} 1.0',
    'pve_up{id="node/pve1"} 1.0',
    'pve_up{id="node/pve2"} 0.0',
    `pve_up{${NR}} 1.0`,
    `pve_up{${LAB}} 0.0`,
    `pve_up{${STORAGE_ID}} 1.0`,
  ),
  ...family(
    'pve_disk_size_bytes',
    "Storage size in bytes (for type 'storage'), root image size for VMs (for types 'qemu' and 'lxc').",
    'gauge',
    'pve_disk_size_bytes{id="node/pve1"} 1.073741824e+11',
    `pve_disk_size_bytes{${NR}} 3.4359738368e+10`,
    `pve_disk_size_bytes{${LAB}} 8.589934592e+09`,
    `pve_disk_size_bytes{${STORAGE_ID}} 1.073741824e+11`,
  ),
  ...family(
    'pve_disk_usage_bytes',
    "Used disk space in bytes (for type 'storage'), used root image space for VMs (for types 'qemu' and 'lxc').",
    'gauge',
    'pve_disk_usage_bytes{id="node/pve1"} 5.36870912e+09',
    `pve_disk_usage_bytes{${NR}} 0.0`,
    `pve_disk_usage_bytes{${LAB}} 1.073741824e+09`,
    `pve_disk_usage_bytes{${STORAGE_ID}} 5.36870912e+09`,
  ),
  ...family(
    'pve_memory_size_bytes',
    "Number of available memory in bytes (for types 'node', 'qemu' and 'lxc').",
    'gauge',
    'pve_memory_size_bytes{id="node/pve1"} 1.7179869184e+10',
    `pve_memory_size_bytes{${NR}} 2.147483648e+09`,
    `pve_memory_size_bytes{${LAB}} 5.36870912e+08`,
  ),
  ...family(
    'pve_memory_usage_bytes',
    "Used memory in bytes (for types 'node', 'qemu' and 'lxc').",
    'gauge',
    'pve_memory_usage_bytes{id="node/pve1"} 4.294967296e+09',
    `pve_memory_usage_bytes{${NR}} 1.073741824e+09`,
  ),
  ...family(
    'pve_network_transmit_bytes',
    `The amount of traffic in bytes that was sent from the guest over the network since it was started. ${GUEST_TEXT} DEPRECATED: Use pve_network_transmit_bytes_total instead.`,
    'gauge',
    `pve_network_transmit_bytes{${NR}} 9.87654321e+08`,
  ),
  ...family(
    'pve_network_receive_bytes',
    `The amount of traffic in bytes that was sent to the guest over the network since it was started. ${GUEST_TEXT} DEPRECATED: Use pve_network_receive_bytes_total instead.`,
    'gauge',
    `pve_network_receive_bytes{${NR}} 1.23456789e+08`,
  ),
  ...family(
    'pve_disk_write_bytes',
    `The amount of bytes the guest wrote to its block devices since the guest was started. This info is not available for all storage types. ${GUEST_TEXT} DEPRECATED: Use pve_disk_written_bytes_total instead.`,
    'gauge',
    `pve_disk_write_bytes{${NR}} 4.444444e+06`,
  ),
  ...family(
    'pve_disk_read_bytes',
    `The amount of bytes the guest read from its block devices since the guest was started. This info is not available for all storage types. ${GUEST_TEXT} DEPRECATED: Use pve_disk_read_bytes_total instead.`,
    'gauge',
    `pve_disk_read_bytes{${NR}} 5.555555e+06`,
  ),
  ...family(
    'pve_cpu_usage_ratio',
    "CPU utilization (for types 'node', 'qemu' and 'lxc').",
    'gauge',
    'pve_cpu_usage_ratio{id="node/pve1"} 0.0512',
    `pve_cpu_usage_ratio{${NR}} 0.1234`,
  ),
  ...family(
    'pve_cpu_usage_limit',
    "Number of available CPUs (for types 'node', 'qemu' and 'lxc').",
    'gauge',
    'pve_cpu_usage_limit{id="node/pve1"} 8.0',
    `pve_cpu_usage_limit{${NR}} 2.0`,
    `pve_cpu_usage_limit{${LAB}} 1.0`,
  ),
  ...family(
    'pve_uptime_seconds',
    "Uptime of node or virtual guest in seconds (for types 'node', 'qemu' and 'lxc').",
    'gauge',
    'pve_uptime_seconds{id="node/pve1"} 864000.0',
    `pve_uptime_seconds{${NR}} 86400.0`,
  ),
  ...family(
    'pve_storage_shared',
    'Whether or not the storage is shared among cluster nodes',
    'gauge',
    `pve_storage_shared{${STORAGE_ID}} 0.0`,
  ),
  ...family(
    'pve_network_transmit_bytes_total',
    `The amount of traffic in bytes that was sent from the guest over the network since it was started. ${GUEST_TEXT}`,
    'counter',
    `pve_network_transmit_bytes_total{${NR}} 9.87654321e+08`,
  ),
  ...family(
    'pve_network_receive_bytes_total',
    `The amount of traffic in bytes that was sent to the guest over the network since it was started. ${GUEST_TEXT}`,
    'counter',
    `pve_network_receive_bytes_total{${NR}} 1.23456789e+08`,
  ),
  ...family(
    'pve_disk_written_bytes_total',
    `The amount of bytes the guest wrote to its block devices since the guest was started. This info is not available for all storage types. ${GUEST_TEXT}`,
    'counter',
    `pve_disk_written_bytes_total{${NR}} 4.444444e+06`,
  ),
  ...family(
    'pve_disk_read_bytes_total',
    `The amount of bytes the guest read from its block devices since the guest was started. This info is not available for all storage types. ${GUEST_TEXT}`,
    'counter',
    `pve_disk_read_bytes_total{${NR}} 5.555555e+06`,
  ),
  ...family(
    'pve_ha_state',
    'HA service status (for HA managed VMs).',
    'gauge',
    ...states('pve_ha_state', { id: 'node/pve1' }, ['online', 'maintenance', 'unknown', 'fence', 'gone']),
    ...states('pve_ha_state', NR_LABELS, [...GUEST_HA, ...GUEST_HA_REST], 'started'),
    ...states('pve_ha_state', LAB_LABELS, [...GUEST_HA, ...GUEST_HA_REST]),
  ),
  ...family(
    'pve_lock_state',
    "The guest's current config lock (for types 'qemu' and 'lxc')",
    'gauge',
    ...states('pve_lock_state', NR_LABELS, LOCKS),
    ...states('pve_lock_state', LAB_LABELS, LOCKS, 'backup'),
  ),
  ...family(
    'pve_guest_info',
    'VM/CT info',
    'gauge',
    'pve_guest_info{id="qemu/100",name="NR-7c1e",node="pve1",tags="nr",template="0",type="qemu"} 1.0',
    'pve_guest_info{id="lxc/101",name="ct-lab",node="pve2",tags="",template="0",type="lxc"} 1.0',
  ),
  ...family(
    'pve_storage_info',
    'Storage info',
    'gauge',
    'pve_storage_info{content="backup,iso,vztmpl",id="storage/pve1/local",node="pve1",plugintype="dir",storage="local"} 1.0',
  ),
  ...family(
    'non_nr_pve_memory_size_bytes',
    'Sum of memory size in bytes for non-NR non-template qemu/lxc per node.',
    'gauge',
    'non_nr_pve_memory_size_bytes{node="pve2"} 5.36870912e+08',
  ),
  ...family(
    'non_nr_pve_cpu_usage_limit',
    'Sum of vCPUs for non-NR non-template qemu/lxc per node.',
    'gauge',
    'non_nr_pve_cpu_usage_limit{node="pve2"} 1.0',
  ),
  ...family(
    'non_nr_pve_disk_size_bytes',
    'Sum of disk size in bytes for non-NR qemu/lxc per node (includes templates).',
    'gauge',
    'non_nr_pve_disk_size_bytes{node="pve2"} 8.589934592e+09',
  ),
  ...family(
    'non_nr_pve_disk_usage_bytes',
    'Sum of disk usage in bytes for non-NR qemu/lxc per node (includes templates).',
    'gauge',
    'non_nr_pve_disk_usage_bytes{node="pve2"} 1.073741824e+09',
  ),
  ...family(
    'pve_node_info',
    'Node info',
    'gauge',
    'pve_node_info{id="node/pve1",level="c",name="pve1",nodeid="1"} 1.0',
    'pve_node_info{id="node/pve2",level="",name="pve2",nodeid="2"} 1.0',
  ),
  ...family(
    'pve_cluster_info',
    'Cluster info',
    'gauge',
    'pve_cluster_info{id="cluster/pvec",nodes="2",quorate="1",version="2"} 1.0',
  ),
  ...family(
    'pve_version_info',
    'Proxmox VE version info',
    'gauge',
    'pve_version_info{release="8.4",repoid="2a5fa54a",version="8.4.1"} 1.0',
  ),
  ...family(
    'pve_not_backed_up_total',
    'Total number of guests not covered by any backup job.',
    'gauge',
    'pve_not_backed_up_total{id="cluster/pvec"} 1.0',
  ),
  ...family(
    'pve_not_backed_up_info',
    'Present if guest is not covered by any backup job.',
    'gauge',
    `pve_not_backed_up_info{${LAB}} 1.0`,
  ),
  ...family(
    'pve_subscription_info',
    'Proxmox VE subscription info (1 if present)',
    'gauge',
    'pve_subscription_info{id="node/pve1",level="c"} 1.0',
  ),
  ...family(
    'pve_subscription_status',
    'Proxmox VE subscription status (1 if matches status)',
    'gauge',
    ...states(
      'pve_subscription_status',
      { id: 'node/pve1' },
      ['new', 'notfound', 'active', 'invalid', 'expired', 'suspended'],
      'active',
      'status',
    ),
  ),
  ...family(
    'pve_subscription_next_due_timestamp_seconds',
    'Subscription next due date as Unix timestamp',
    'gauge',
    'pve_subscription_next_due_timestamp_seconds{id="node/pve1"} 1.7987616e+09',
  ),
  ...family('pve_onboot_status', 'Proxmox vm config onboot value', 'gauge', `pve_onboot_status{${NR}} 1.0`),
  ...family(
    'pve_replication_duration_seconds',
    'Proxmox vm replication duration',
    'gauge',
    'pve_replication_duration_seconds{id="100-0"} 3.5',
  ),
  ...family(
    'pve_replication_last_sync_timestamp_seconds',
    'Proxmox vm replication last_sync',
    'gauge',
    'pve_replication_last_sync_timestamp_seconds{id="100-0"} 1.7e+09',
  ),
  ...family(
    'pve_replication_last_try_timestamp_seconds',
    'Proxmox vm replication last_try',
    'gauge',
    'pve_replication_last_try_timestamp_seconds{id="100-0"} 1.7e+09',
  ),
  ...family(
    'pve_replication_next_sync_timestamp_seconds',
    'Proxmox vm replication next_sync',
    'gauge',
    'pve_replication_next_sync_timestamp_seconds{id="100-0"} 1.7000009e+09',
  ),
  ...family(
    'pve_replication_failed_syncs',
    'Proxmox vm replication fail_count',
    'gauge',
    'pve_replication_failed_syncs{id="100-0"} 0.0',
  ),
  ...family(
    'pve_replication_info',
    'Proxmox vm replication info',
    'gauge',
    'pve_replication_info{guest="qemu/100",id="100-0",source="node/pve1",target="node/pve2",type="local"} 1.0',
  ),
];

async function render(
  client: PveReader,
  options: Parameters<typeof collectPveMetrics>[1] = {},
): Promise<string[]> {
  return renderTextExposition(await collectPveMetrics(client, options))
    .split('\n')
    .slice(0, -1);
}

describe('collectPveMetrics', () => {
  test("prints upstream's families in upstream's order, guests labelled with name, node and type", async () => {
    expect(await render(reader().client)).toEqual(EXPECTED);
  });

  test('cluster=0 reads only what the node families need; node=0 leaves them out', async () => {
    const nodeOnly = reader();
    const lines = await render(nodeOnly.client, { cluster: false });
    expect(lines).toEqual(
      EXPECTED.slice(
        EXPECTED.indexOf('# HELP pve_subscription_info Proxmox VE subscription info (1 if present)'),
      ),
    );
    expect(nodeOnly.calls).not.toContain('resources');
    const clusterOnly = reader();
    const clusterLines = await render(clusterOnly.client, { node: false });
    expect(clusterLines).toEqual(
      EXPECTED.slice(
        0,
        EXPECTED.indexOf('# HELP pve_subscription_info Proxmox VE subscription info (1 if present)'),
      ),
    );
    expect(clusterOnly.calls.filter((c) => c.startsWith('pve1'))).toEqual([]);
    expect(await render(reader().client, { cluster: false, node: false })).toEqual([]);
  });

  test('a QDevice shows up and info; a refused QDevice read shows none', async () => {
    const qdevice = {
      Model: 'Net',
      Algorithm: 'Fifty-Fifty split',
      'QNetd host': '10.0.0.9:5403',
      'Tie-breaker': 'Node with lowest node ID',
      State: 'Connected',
    };
    const lines = await render(reader({ qdevice }).client, { node: false });
    expect(lines.slice(-6)).toEqual([
      '# HELP pve_qdevice_up Proxmox VE QDevice is connected (1) or not (0)',
      '# TYPE pve_qdevice_up gauge',
      'pve_qdevice_up{id="cluster/pvec"} 1.0',
      '# HELP pve_qdevice_info Proxmox VE QDevice info (1 if configured)',
      '# TYPE pve_qdevice_info gauge',
      'pve_qdevice_info{algorithm="Fifty-Fifty split",id="cluster/pvec",model="Net",qnetd_host="10.0.0.9:5403",state="Connected",tie_breaker="Node with lowest node ID"} 1.0',
    ]);
    const refused = new ProxmoxError({ pveMessage: 'Permission check failed (/, Sys.Audit)', status: 403 });
    expect((await render(reader({ qdevice: refused }).client)).join('\n')).not.toContain('qdevice');
  });

  test('standalone: no cluster info or QDevice read, the backup total counts for the local node', async () => {
    const standalone = reader({ status: STATUS.slice(1) });
    const lines = await render(standalone.client);
    expect(lines).toContain('pve_not_backed_up_total{id="node/pve1"} 1.0');
    expect(lines.join('\n')).not.toContain('pve_cluster_info');
    expect(standalone.calls).not.toContain('qdevice');
  });

  test('a guest gone between the list and its config read is left out, not a failure', async () => {
    const gone = new PveNotFoundError({
      pveMessage: "Configuration file 'nodes/pve1/qemu-server/100.conf' does not exist",
    });
    const lines = await render(reader({ configs: { 100: gone } }).client);
    expect(lines.filter((l) => l.startsWith('pve_onboot_status'))).toEqual([]);
  });

  test('any other failed read fails the collection with that error', async () => {
    const down = new ProxmoxError({ pveMessage: 'proxy loop', status: 596 });
    await expect(collectPveMetrics(reader({ configs: { 100: down } }).client)).rejects.toBe(down);
  });

  test('answers of the wrong shape are MALFORMED_ANSWER errors naming what was wrong', async () => {
    const error = await collectPveMetrics(reader({ status: [{ id: 'node/x' }] }).client).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ExporterError);
    expect((error as ExporterError).code).toBe('MALFORMED_ANSWER');
    expect((error as ExporterError).message).toBe(
      'malformed answer from Proxmox: /cluster/status[0]: "type" is not a string: missing',
    );
  });

  test('without a local node in the status, the node families cannot be read', async () => {
    const status = STATUS.map((entry) => ({ ...entry, local: 0 }));
    const error = await collectPveMetrics(reader({ status }).client, { cluster: false }).catch(
      (e: unknown) => e,
    );
    expect((error as ExporterError).code).toBe('NO_LOCAL_NODE');
  });
});
