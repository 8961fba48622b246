/**
 * Small builders of kubelet answers for the tests: `/stats/summary` and `/pods` JSON, and `/metrics/cadvisor`
 * text shaped like a real kubelet's (HELP and TYPE lines, pod-level and pause rows, cgroup paths of the
 * systemd driver, millisecond timestamps, families the agent does not read).
 */

export const NODE = 'node-a';
export const T0 = Date.parse('2026-08-01T10:00:00Z');
export const MINUTE = 60_000;

/** RFC 3339 with one-second precision, as the kubelet writes `time` fields. */
export function kubeletTime(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

// ---- /stats/summary ----

interface SummaryContainerFixture {
  name: string;
  cpuNs?: number;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
  rootfsBytes?: number;
  logsBytes?: number;
}

export interface SummaryPodFixture {
  uid: string;
  name: string;
  namespace?: string;
  cpuNs?: number;
  usageBytes?: number;
  workingSetBytes?: number;
  rssBytes?: number;
  rxBytes?: number;
  txBytes?: number;
  containers?: SummaryContainerFixture[];
}

export interface SummaryNodeFixture {
  cpuNs?: number;
  workingSetBytes?: number;
  usageBytes?: number;
  availableBytes?: number;
  rssBytes?: number;
  fsUsedBytes?: number;
  fsAvailableBytes?: number;
  rxBytes?: number;
  txBytes?: number;
}

export function summaryDocument(timeMs: number, node: SummaryNodeFixture, pods: SummaryPodFixture[]): object {
  const time = kubeletTime(timeMs);
  return {
    node: {
      nodeName: NODE,
      startTime: kubeletTime(T0 - 86_400_000),
      cpu: { time, usageNanoCores: 123, usageCoreNanoSeconds: node.cpuNs },
      memory: {
        time,
        availableBytes: node.availableBytes,
        usageBytes: node.usageBytes,
        workingSetBytes: node.workingSetBytes,
        rssBytes: node.rssBytes,
        pageFaults: 1,
      },
      network: {
        time,
        name: 'eth0',
        rxBytes: node.rxBytes,
        txBytes: node.txBytes,
        interfaces: [{ name: 'eth0', rxBytes: node.rxBytes, txBytes: node.txBytes }],
      },
      fs: { time, availableBytes: node.fsAvailableBytes, capacityBytes: 1e11, usedBytes: node.fsUsedBytes },
      systemContainers: [{ name: 'kubelet', startTime: time }],
    },
    pods: pods.map((pod) => ({
      podRef: { name: pod.name, namespace: pod.namespace ?? 'shop', uid: pod.uid },
      startTime: kubeletTime(T0 - 3_600_000),
      containers: (pod.containers ?? []).map((container) => ({
        name: container.name,
        startTime: kubeletTime(T0 - 3_600_000),
        cpu: { time, usageCoreNanoSeconds: container.cpuNs },
        memory: {
          time,
          usageBytes: container.usageBytes,
          workingSetBytes: container.workingSetBytes,
          rssBytes: container.rssBytes,
        },
        rootfs: { time, usedBytes: container.rootfsBytes, inodesUsed: 12 },
        logs: { time, usedBytes: container.logsBytes },
      })),
      cpu: { time, usageCoreNanoSeconds: pod.cpuNs },
      memory: {
        time,
        usageBytes: pod.usageBytes,
        workingSetBytes: pod.workingSetBytes,
        rssBytes: pod.rssBytes,
      },
      network: { time, name: 'eth0', rxBytes: pod.rxBytes, txBytes: pod.txBytes },
      volume: [{ name: 'data', time, usedBytes: 1e9 }],
      process_stats: { process_count: 7 },
    })),
  };
}

export function summaryBody(timeMs: number, node: SummaryNodeFixture, pods: SummaryPodFixture[]): string {
  return JSON.stringify(summaryDocument(timeMs, node, pods));
}

// ---- /pods ----

interface ContainerStatusFixture {
  name: string;
  restartCount?: number;
  /** The waiting reason; running when absent. */
  waiting?: string;
  lastTerminationReason?: string;
}

export interface PodItemFixture {
  uid: string;
  name: string;
  namespace?: string;
  phase?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  owner?: { kind: string; name: string };
  containers?: ContainerStatusFixture[];
  initContainers?: ContainerStatusFixture[];
}

export function podItem(pod: PodItemFixture): object {
  return {
    metadata: {
      name: pod.name,
      namespace: pod.namespace ?? 'shop',
      uid: pod.uid,
      labels: pod.labels,
      annotations: { 'kubernetes.io/config.source': 'api', ...pod.annotations },
      ownerReferences:
        pod.owner === undefined
          ? undefined
          : [
              {
                apiVersion: 'apps/v1',
                kind: pod.owner.kind,
                name: pod.owner.name,
                uid: 'owner-uid',
                controller: true,
              },
            ],
    },
    spec: { nodeName: NODE, containers: (pod.containers ?? []).map(({ name }) => ({ name, image: 'img' })) },
    status: {
      phase: pod.phase ?? 'Running',
      containerStatuses: (pod.containers ?? []).map(containerStatus),
      initContainerStatuses: pod.initContainers?.map(containerStatus),
    },
  };
}

function containerStatus(status: ContainerStatusFixture): object {
  return {
    name: status.name,
    ready: status.waiting === undefined,
    restartCount: status.restartCount ?? 0,
    image: 'img',
    containerID: 'containerd://abc',
    state:
      status.waiting === undefined
        ? { running: { startedAt: kubeletTime(T0) } }
        : { waiting: { reason: status.waiting, message: 'back-off restarting failed container' } },
    lastState:
      status.lastTerminationReason === undefined
        ? {}
        : {
            terminated: { reason: status.lastTerminationReason, exitCode: 137, finishedAt: kubeletTime(T0) },
          },
  };
}

export function podListBody(pods: PodItemFixture[]): string {
  return JSON.stringify({ kind: 'PodList', apiVersion: 'v1', metadata: {}, items: pods.map(podItem) });
}

// ---- /metrics/cadvisor ----

export interface CadvisorContainerFixture {
  uid: string;
  pod: string;
  container: string;
  namespace?: string;
  /** Distinguishes cgroups of successive runs of the container. */
  containerId?: string;
  cfs?: { periods: number; throttledPeriods: number };
  oomEvents?: number;
  fs?: { device: string; readBytes: number; writeBytes: number }[];
}

export function cgroupPath(uid: string, containerId: string): string {
  const slice = `kubepods-burstable-pod${uid.replaceAll('-', '_')}.slice`;
  return `/kubepods.slice/kubepods-burstable.slice/${slice}${containerId === '' ? '' : `/cri-containerd-${containerId}.scope`}`;
}

interface CadvisorRow {
  labels: string;
  value: number;
}

/** A cAdvisor answer with every line stamped `timestampMs`; `machineCpuCores` null leaves the line out. */
export function cadvisorBody(
  timestampMs: number,
  containers: CadvisorContainerFixture[],
  machineCpuCores: number | null = 8,
): string {
  const families = new Map<string, { type: string; help: string; rows: CadvisorRow[] }>();
  const add = (family: string, type: string, labels: string, value: number) => {
    let entry = families.get(family);
    if (entry === undefined) {
      entry = { type, help: `Cumulative ${family.replaceAll('_', ' ')}.`, rows: [] };
      families.set(family, entry);
    }
    entry.rows.push({ labels, value });
  };
  if (machineCpuCores !== null) {
    add('machine_cpu_cores', 'gauge', 'boot_id="0b7c",machine_id="5f0e",system_uuid="ec2a"', machineCpuCores);
  }
  add('container_cpu_usage_seconds_total', 'counter', rowLabels('/', '', '', '', ',cpu="total"'), 9_000);
  add('container_memory_usage_bytes', 'gauge', rowLabels('/system.slice/kubelet.service', '', '', ''), 2e8);
  for (const c of containers) {
    const id = cgroupPath(c.uid, c.containerId ?? '1f2e3d');
    const podLevel = rowLabels(cgroupPath(c.uid, ''), '', c.namespace ?? 'shop', c.pod);
    const pause = rowLabels(cgroupPath(c.uid, 'pause0'), 'POD', c.namespace ?? 'shop', c.pod);
    const own = rowLabels(id, c.container, c.namespace ?? 'shop', c.pod);
    for (const labels of [podLevel, pause, own]) {
      add('container_cpu_usage_seconds_total', 'counter', `${labels},cpu="total"`, 12.5);
      add('container_memory_usage_bytes', 'gauge', labels, 3.5e8);
      add('container_memory_working_set_bytes', 'gauge', labels, 3.1e8);
      add('container_spec_cpu_shares', 'gauge', labels, 1024);
      add('container_start_time_seconds', 'gauge', labels, 1.785e9);
      add('container_network_receive_bytes_total', 'counter', `${labels},interface="eth0"`, 1e6);
    }
    if (c.cfs !== undefined) {
      add('container_cpu_cfs_periods_total', 'counter', podLevel, c.cfs.periods * 2);
      add('container_cpu_cfs_periods_total', 'counter', own, c.cfs.periods);
      add('container_cpu_cfs_throttled_periods_total', 'counter', podLevel, c.cfs.throttledPeriods * 2);
      add('container_cpu_cfs_throttled_periods_total', 'counter', own, c.cfs.throttledPeriods);
    }
    add('container_oom_events_total', 'counter', podLevel, 40);
    add('container_oom_events_total', 'counter', pause, 50);
    if (c.oomEvents !== undefined) add('container_oom_events_total', 'counter', own, c.oomEvents);
    for (const fs of c.fs ?? []) {
      add('container_fs_reads_bytes_total', 'counter', `${own},device="${fs.device}"`, fs.readBytes);
      add('container_fs_writes_bytes_total', 'counter', `${own},device="${fs.device}"`, fs.writeBytes);
      add('container_fs_reads_bytes_total', 'counter', `${podLevel},device="${fs.device}"`, 7e9);
    }
  }
  const lines: string[] = [];
  for (const [name, family] of families) {
    lines.push(`# HELP ${name} ${family.help}`, `# TYPE ${name} ${family.type}`);
    for (const row of family.rows)
      lines.push(`${name}{${row.labels}} ${formatValue(row.value)} ${timestampMs}`);
  }
  return `${lines.join('\n')}\n`;
}

function rowLabels(id: string, container: string, namespace: string, pod: string, extra = ''): string {
  const image =
    container === 'POD' ? 'registry.k8s.io/pause:3.10' : container === '' ? '' : `shop/${container}:1.4.2`;
  const name = container === '' ? '' : `${'9c3a7e'.repeat(10)}dead`;
  return `container="${container}",id="${id}",image="${image}",name="${name}",namespace="${namespace}",pod="${pod}"${extra}`;
}

/** cAdvisor prints large values in exponent notation. */
function formatValue(value: number): string {
  return value >= 1e6 ? value.toExponential() : String(value);
}
