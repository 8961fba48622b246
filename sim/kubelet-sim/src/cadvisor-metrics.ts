import { cadvisorRows, escapeLabel, type CadvisorRow } from './cadvisor-rows.js';
import { formatGoFloat } from './go-float.js';
import type { SimulatedNode } from './simulated-node.js';

const SECTOR = 512;
const BLOCK_MAJOR = '259';
const BLOCK_MINOR = '0';
const BLOCK_DEVICE = '/dev/nvme0n1';
const ULIMIT_NOFILE = 1_048_576;

/** The lines of one exposition, built into an array and joined once. */
class Exposition {
  readonly lines: string[] = [];

  family(name: string, type: 'counter' | 'gauge', help: string): void {
    this.lines.push(`# HELP ${name} ${help}`, `# TYPE ${name} ${type}`);
  }

  sample(prefix: string, labels: string, value: number, timestamp: string): void {
    this.lines.push(`${prefix}{${labels}} ${formatGoFloat(value)}${timestamp}`);
  }
}

interface Family {
  name: string;
  type: 'counter' | 'gauge';
  help: string;
  render(rows: readonly CadvisorRow[], out: Exposition): void;
}

/** A family with the six container labels and one sample per row that has it. */
function perRow(
  name: string,
  type: Family['type'],
  help: string,
  value: (r: CadvisorRow) => number | undefined,
): Family {
  return {
    name,
    type,
    help,
    render(rows, out) {
      for (const r of rows) {
        const v = value(r);
        if (v !== undefined) out.sample(name, r.base, v, r.timestamp);
      }
    },
  };
}

/** A filesystem family: the container labels plus `device`. */
function perDevice(
  name: string,
  type: Family['type'],
  help: string,
  value: (r: CadvisorRow) => number | undefined,
  device: (r: CadvisorRow) => string | undefined = () => BLOCK_DEVICE,
): Family {
  return {
    name,
    type,
    help,
    render(rows, out) {
      for (const r of rows) {
        const v = value(r);
        const d = device(r);
        if (v === undefined || d === undefined) continue;
        out.sample(
          name,
          `${r.container},device="${d}",${r.idImage},${r.nameNamespace},${r.pod}`,
          v,
          r.timestamp,
        );
      }
    },
  };
}

/** A network family: one sample per interface the cgroup's network namespace has. */
function perInterface(name: string, help: string, value: (s: CadvisorRow['sample']) => number): Family {
  return {
    name,
    type: 'counter',
    help,
    render(rows, out) {
      for (const r of rows) {
        for (const i of r.interfaces) {
          out.sample(
            name,
            `${r.container},${r.idImage},interface="${i.name}",${r.nameNamespace},${r.pod}`,
            value(i.sample),
            r.timestamp,
          );
        }
      }
    },
  };
}

const cpuSeconds = (r: CadvisorRow): number => Math.round(r.sample.cpuSeconds * 1e6) / 1e6;
const userSeconds = (r: CadvisorRow): number => Math.round(r.sample.cpuSeconds * 0.79 * 1e6) / 1e6;
const readSeconds = (r: CadvisorRow): number => r.sample.fsReads * 0.00042;
const writeSeconds = (r: CadvisorRow): number => r.sample.fsWrites * 0.00095;
const ioSeconds = (r: CadvisorRow): number => (readSeconds(r) + writeSeconds(r)) * 0.7;
const cfs = (r: CadvisorRow, v: number): number | undefined => (r.cpuQuotaUs === undefined ? undefined : v);
const ofContainer = (r: CadvisorRow, v: number): number | undefined =>
  r.kind === 'container' || r.kind === 'pause' ? v : undefined;

const FAMILIES: Family[] = [
  {
    name: 'container_blkio_device_usage_total',
    type: 'counter',
    help: 'Blkio Device bytes usage',
    render(rows, out) {
      for (const r of rows) {
        for (const [operation, v] of [
          ['Read', r.sample.fsReadBytes],
          ['Write', r.sample.fsWriteBytes],
        ] as const) {
          out.sample(
            'container_blkio_device_usage_total',
            `${r.container},device="${BLOCK_DEVICE}",${r.idImage},major="${BLOCK_MAJOR}",minor="${BLOCK_MINOR}",${r.nameNamespace},operation="${operation}",${r.pod}`,
            v,
            r.timestamp,
          );
        }
      }
    },
  },
  perRow(
    'container_cpu_cfs_periods_total',
    'counter',
    'Number of elapsed enforcement period intervals.',
    (r) => cfs(r, r.sample.cfsPeriods),
  ),
  perRow(
    'container_cpu_cfs_throttled_periods_total',
    'counter',
    'Number of throttled period intervals.',
    (r) => cfs(r, r.sample.cfsThrottledPeriods),
  ),
  perRow(
    'container_cpu_cfs_throttled_seconds_total',
    'counter',
    'Total time duration the container has been throttled.',
    (r) => cfs(r, Math.round(r.sample.cfsThrottledSeconds * 1e6) / 1e6),
  ),
  perRow(
    'container_cpu_load_average_10s',
    'gauge',
    'Value of container cpu load average over the last 10 seconds.',
    () => 0,
  ),
  perRow(
    'container_cpu_system_seconds_total',
    'counter',
    'Cumulative system cpu time consumed in seconds.',
    (r) => Math.round((cpuSeconds(r) - userSeconds(r)) * 1e6) / 1e6,
  ),
  {
    name: 'container_cpu_usage_seconds_total',
    type: 'counter',
    help: 'Cumulative cpu time consumed in seconds.',
    render(rows, out) {
      for (const r of rows) {
        out.sample(
          'container_cpu_usage_seconds_total',
          `${r.container},cpu="total",${r.idImage},${r.nameNamespace},${r.pod}`,
          cpuSeconds(r),
          r.timestamp,
        );
      }
    },
  },
  perRow(
    'container_cpu_user_seconds_total',
    'counter',
    'Cumulative user cpu time consumed in seconds.',
    userSeconds,
  ),
  perRow('container_file_descriptors', 'gauge', 'Number of open file descriptors for the container.', (r) =>
    ofContainer(r, r.sample.fileDescriptors),
  ),
  perDevice(
    'container_fs_inodes_free',
    'gauge',
    'Number of available Inodes',
    (r) => r.filesystem?.inodesFree,
    (r) => r.filesystem?.device,
  ),
  perDevice(
    'container_fs_inodes_total',
    'gauge',
    'Number of Inodes',
    (r) => r.filesystem?.inodes,
    (r) => r.filesystem?.device,
  ),
  perDevice('container_fs_io_current', 'gauge', 'Number of I/Os currently in progress', () => 0),
  perDevice(
    'container_fs_io_time_seconds_total',
    'counter',
    'Cumulative count of seconds spent doing I/Os',
    ioSeconds,
  ),
  perDevice(
    'container_fs_io_time_weighted_seconds_total',
    'counter',
    'Cumulative weighted I/O time in seconds',
    (r) => ioSeconds(r) * 1.4,
  ),
  perDevice(
    'container_fs_limit_bytes',
    'gauge',
    'Number of bytes that can be consumed by the container on this filesystem.',
    (r) => r.filesystem?.limitBytes,
    (r) => r.filesystem?.device,
  ),
  perDevice(
    'container_fs_read_seconds_total',
    'counter',
    'Cumulative count of seconds spent reading',
    readSeconds,
  ),
  perDevice(
    'container_fs_reads_bytes_total',
    'counter',
    'Cumulative count of bytes read',
    (r) => r.sample.fsReadBytes,
  ),
  perDevice('container_fs_reads_merged_total', 'counter', 'Cumulative count of reads merged', (r) =>
    Math.floor(r.sample.fsReads * 0.08),
  ),
  perDevice(
    'container_fs_reads_total',
    'counter',
    'Cumulative count of reads completed',
    (r) => r.sample.fsReads,
  ),
  perDevice('container_fs_sector_reads_total', 'counter', 'Cumulative count of sector reads completed', (r) =>
    Math.floor(r.sample.fsReadBytes / SECTOR),
  ),
  perDevice(
    'container_fs_sector_writes_total',
    'counter',
    'Cumulative count of sector writes completed',
    (r) => Math.floor(r.sample.fsWriteBytes / SECTOR),
  ),
  perDevice(
    'container_fs_usage_bytes',
    'gauge',
    'Number of bytes that are consumed by the container on this filesystem.',
    (r) => r.filesystem?.usageBytes,
    (r) => r.filesystem?.device,
  ),
  perDevice(
    'container_fs_write_seconds_total',
    'counter',
    'Cumulative count of seconds spent writing',
    writeSeconds,
  ),
  perDevice(
    'container_fs_writes_bytes_total',
    'counter',
    'Cumulative count of bytes written',
    (r) => r.sample.fsWriteBytes,
  ),
  perDevice('container_fs_writes_merged_total', 'counter', 'Cumulative count of writes merged', (r) =>
    Math.floor(r.sample.fsWrites * 0.12),
  ),
  perDevice(
    'container_fs_writes_total',
    'counter',
    'Cumulative count of writes completed',
    (r) => r.sample.fsWrites,
  ),
  perRow('container_last_seen', 'gauge', 'Last time a container was seen by the exporter', (r) =>
    Math.floor(r.timeMs / 1000),
  ),
  perRow(
    'container_memory_cache',
    'gauge',
    'Number of bytes of page cache memory.',
    (r) => r.sample.cacheBytes,
  ),
  perRow('container_memory_failcnt', 'counter', 'Number of memory usage hits limits', () => 0),
  {
    name: 'container_memory_failures_total',
    type: 'counter',
    help: 'Cumulative count of memory allocation failures.',
    render(rows, out) {
      // failure_type sorts before id, so within one container label every pgfault comes first.
      for (let start = 0; start < rows.length;) {
        let end = start;
        while (end < rows.length && rows[end]?.containerName === rows[start]?.containerName) end++;
        for (const [type, value] of [
          ['pgfault', (r: CadvisorRow) => r.sample.pageFaults],
          ['pgmajfault', (r: CadvisorRow) => r.sample.majorPageFaults],
        ] as const) {
          for (const r of rows.slice(start, end)) {
            for (const scope of ['container', 'hierarchy']) {
              out.sample(
                'container_memory_failures_total',
                `${r.container},failure_type="${type}",${r.idImage},${r.nameNamespace},${r.pod},scope="${scope}"`,
                value(r),
                r.timestamp,
              );
            }
          }
        }
        start = end;
      }
    },
  },
  perRow(
    'container_memory_kernel_usage',
    'gauge',
    'Size of kernel memory allocated in bytes.',
    (r) => r.sample.kernelBytes,
  ),
  perRow(
    'container_memory_mapped_file',
    'gauge',
    'Size of memory mapped files in bytes.',
    (r) => r.sample.mappedFileBytes,
  ),
  perRow(
    'container_memory_max_usage_bytes',
    'gauge',
    'Maximum memory usage recorded in bytes',
    (r) => Math.ceil((r.sample.usageBytes * 1.08) / 4096) * 4096,
  ),
  perRow('container_memory_rss', 'gauge', 'Size of RSS in bytes.', (r) => r.sample.rssBytes),
  perRow('container_memory_swap', 'gauge', 'Container swap usage in bytes.', () => 0),
  perRow(
    'container_memory_usage_bytes',
    'gauge',
    'Current memory usage in bytes, including all memory regardless of when it was accessed',
    (r) => r.sample.usageBytes,
  ),
  perRow(
    'container_memory_working_set_bytes',
    'gauge',
    'Current working set in bytes.',
    (r) => r.sample.workingSetBytes,
  ),
  perInterface(
    'container_network_receive_bytes_total',
    'Cumulative count of bytes received',
    (s) => s.netRxBytes,
  ),
  perInterface(
    'container_network_receive_errors_total',
    'Cumulative count of errors encountered while receiving',
    () => 0,
  ),
  perInterface(
    'container_network_receive_packets_dropped_total',
    'Cumulative count of packets dropped while receiving',
    (s) => s.netRxDropped,
  ),
  perInterface(
    'container_network_receive_packets_total',
    'Cumulative count of packets received',
    (s) => s.netRxPackets,
  ),
  perInterface(
    'container_network_transmit_bytes_total',
    'Cumulative count of bytes transmitted',
    (s) => s.netTxBytes,
  ),
  perInterface(
    'container_network_transmit_errors_total',
    'Cumulative count of errors encountered while transmitting',
    () => 0,
  ),
  perInterface(
    'container_network_transmit_packets_dropped_total',
    'Cumulative count of packets dropped while transmitting',
    () => 0,
  ),
  perInterface(
    'container_network_transmit_packets_total',
    'Cumulative count of packets transmitted',
    (s) => s.netTxPackets,
  ),
  perRow(
    'container_oom_events_total',
    'counter',
    'Count of out of memory events observed for the container',
    (r) => r.oomEvents,
  ),
  perRow('container_processes', 'gauge', 'Number of processes running inside the container.', (r) =>
    r.process ? r.sample.processes : undefined,
  ),
  {
    name: 'container_scrape_error',
    type: 'gauge',
    help: '1 if there was an error while getting container metrics, 0 otherwise',
    render(rows, out) {
      out.lines.push(`container_scrape_error 0 ${rows[0]?.timeMs ?? 0}`);
    },
  },
  perRow('container_sockets', 'gauge', 'Number of open sockets for the container.', (r) =>
    ofContainer(r, r.sample.sockets),
  ),
  perRow('container_spec_cpu_period', 'gauge', 'CPU period of the container.', () => 100_000),
  perRow('container_spec_cpu_quota', 'gauge', 'CPU quota of the container.', (r) => r.cpuQuotaUs),
  perRow('container_spec_cpu_shares', 'gauge', 'CPU share of the container.', (r) => r.cpuShares),
  perRow(
    'container_spec_memory_limit_bytes',
    'gauge',
    'Memory limit for the container.',
    (r) => r.memoryLimitBytes,
  ),
  perRow(
    'container_spec_memory_reservation_limit_bytes',
    'gauge',
    'Memory reservation limit for the container.',
    () => 0,
  ),
  perRow('container_spec_memory_swap_limit_bytes', 'gauge', 'Memory swap limit for the container.', () => 0),
  perRow(
    'container_start_time_seconds',
    'gauge',
    'Start time of the container since unix epoch in seconds.',
    (r) => Math.floor(r.startTimeS),
  ),
  perRow('container_threads', 'gauge', 'Number of threads running inside the container', (r) =>
    ofContainer(r, r.sample.threads),
  ),
  perRow(
    'container_threads_max',
    'gauge',
    'Maximum number of threads allowed inside the container, infinity if value is zero',
    (r) => ofContainer(r, 0),
  ),
  {
    name: 'container_ulimits_soft',
    type: 'gauge',
    help: 'Soft ulimit values for the container root process. Unlimited if -1, except priority and nice',
    render(rows, out) {
      for (const r of rows) {
        if (r.kind !== 'container' && r.kind !== 'pause') continue;
        out.sample('container_ulimits_soft', `${r.base},ulimit="max_open_files"`, ULIMIT_NOFILE, r.timestamp);
      }
    },
  },
];

/**
 * Returns what `GET /metrics/cadvisor` answers: Prometheus text format 0.0.4, every family the kubelet's
 * cAdvisor exports, a millisecond timestamp on every sample, families and series in the registry's order.
 */
export function renderCadvisorMetrics(node: SimulatedNode): string {
  const now = node.now();
  const rows = cadvisorRows(node, now);
  const out = new Exposition();
  const ts = ` ${now}`;
  const machine = `boot_id="${escapeLabel(node.bootId)}",machine_id="${escapeLabel(node.machineId)}",system_uuid="${escapeLabel(node.systemUuid)}"`;
  out.family(
    'cadvisor_version_info',
    'gauge',
    "A metric with a constant '1' value labeled by kernel version, OS version, docker version, cadvisor version & cadvisor revision.",
  );
  out.sample(
    'cadvisor_version_info',
    `cadvisorRevision="",cadvisorVersion="",dockerVersion="",kernelVersion="${node.kernelVersion}",osVersion="${node.osImage}"`,
    1,
    ts,
  );
  for (const family of FAMILIES) {
    out.family(family.name, family.type, family.help);
    family.render(rows, out);
  }
  const machineGauge = (name: string, help: string, value: number, labels = machine): void => {
    out.family(name, 'gauge', help);
    out.sample(name, labels, value, ts);
  };
  machineGauge('machine_cpu_cores', 'Number of logical CPU cores.', node.cores);
  machineGauge('machine_cpu_physical_cores', 'Number of physical CPU cores.', node.cores / 2);
  machineGauge('machine_cpu_sockets', 'Number of CPU sockets.', 1);
  machineGauge('machine_memory_bytes', 'Amount of memory installed on the machine.', node.memoryBytes);
  machineGauge('machine_nvm_avg_power_budget_watts', 'NVM power budget.', 0);
  out.family(
    'machine_nvm_capacity',
    'gauge',
    'NVM capacity value labeled by NVM mode (memory mode or app direct mode).',
  );
  for (const mode of ['app_direct_mode', 'memory_mode']) {
    out.sample('machine_nvm_capacity', machine.replace(',system_uuid', `,mode="${mode}",system_uuid`), 0, ts);
  }
  out.family(
    'machine_scrape_error',
    'gauge',
    '1 if there was an error while getting machine metrics, 0 otherwise.',
  );
  out.lines.push(`machine_scrape_error 0${ts}`);
  machineGauge('machine_swap_bytes', 'Amount of swap memory available on the machine.', 0);
  out.lines.push('');
  return out.lines.join('\n');
}
