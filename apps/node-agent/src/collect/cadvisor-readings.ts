import { containerKey } from './container-key.js';
import { scanExposition } from '@noderings/prom';
import type { CfsCounters } from './throttle-ratios.js';

/** What one `/metrics/cadvisor` answer says about one container, summed over its rows. */
interface CadvisorContainer {
  namespace: string;
  pod: string;
  container: string;
  podUid: string | undefined;
  /** By cgroup id. */
  cfs: Map<string, CfsCounters>;
  /** `container_oom_events_total` by cgroup id. */
  oomEvents: Map<string, number>;
  oomTimestampMs: number;
  /** Summed over devices (and cgroups). */
  fsReadBytes: number | undefined;
  fsWriteBytes: number | undefined;
  fsTimestampMs: number;
}

export interface CadvisorReadings {
  machineCpuCores: number | undefined;
  /** By pod UID and container name, or by namespace, pod, container and cgroup id when the UID is unknown. */
  containers: Map<string, CadvisorContainer>;
}

const MACHINE_CPU_CORES = 'machine_cpu_cores';
const CFS_PERIODS = 'container_cpu_cfs_periods_total';
const CFS_THROTTLED_PERIODS = 'container_cpu_cfs_throttled_periods_total';
const OOM_EVENTS = 'container_oom_events_total';
const FS_READ_BYTES = 'container_fs_reads_bytes_total';
const FS_WRITE_BYTES = 'container_fs_writes_bytes_total';
/** The cAdvisor families the agent reads; every other family is skipped before its labels are parsed. */
export const CADVISOR_FAMILIES: ReadonlySet<string> = new Set([
  MACHINE_CPU_CORES,
  CFS_PERIODS,
  CFS_THROTTLED_PERIODS,
  OOM_EVENTS,
  FS_READ_BYTES,
  FS_WRITE_BYTES,
]);
/** The sandbox ("pause") container's name in cAdvisor rows. */
const PAUSE_CONTAINER = 'POD';

/**
 * Reads the families the agent uses from a cAdvisor answer, keeping only real containers' rows: pod-level
 * cgroups (`container=""`), pause containers and cgroups outside any pod are dropped. Rows without a
 * timestamp get `fallbackTimestampMs`. `uidOf` finds the UID of a pod whose cgroup path does not name it.
 * Throws `ExpositionError` on malformed text, before anything is returned.
 */
export function readCadvisor(
  text: string,
  fallbackTimestampMs: number,
  uidOf: (namespace: string, pod: string) => string | undefined,
): CadvisorReadings {
  const containers = new Map<string, CadvisorContainer>();
  const uidByCgroup = new Map<string, string>();
  let machineCpuCores: number | undefined;
  scanExposition(
    text,
    (name) => CADVISOR_FAMILIES.has(name),
    (name, labels, value, timestampMs) => {
      if (name === MACHINE_CPU_CORES) {
        machineCpuCores = value;
        return;
      }
      const { container, pod, namespace = '', id = '' } = labels;
      if (container === undefined || container === '' || container === PAUSE_CONTAINER) return;
      if (pod === undefined || pod === '') return;
      let uid = uidByCgroup.get(id);
      if (uid === undefined) {
        uid = podUidFromCgroup(id) ?? uidOf(namespace, pod);
        // The families repeat every cgroup; parse each path once.
        if (uid !== undefined && id !== '') uidByCgroup.set(id, uid);
      }
      const key = uid === undefined ? `${namespace}/${pod}/${container}/${id}` : containerKey(uid, container);
      let reading = containers.get(key);
      if (reading === undefined) {
        reading = emptyReading(namespace, pod, container, uid);
        containers.set(key, reading);
      }
      addRow(reading, name, id, value, timestampMs ?? fallbackTimestampMs);
    },
  );
  return { machineCpuCores, containers };
}

function emptyReading(
  namespace: string,
  pod: string,
  container: string,
  podUid: string | undefined,
): CadvisorContainer {
  return {
    namespace,
    pod,
    container,
    podUid,
    cfs: new Map(),
    oomEvents: new Map(),
    oomTimestampMs: -Infinity,
    fsReadBytes: undefined,
    fsWriteBytes: undefined,
    fsTimestampMs: -Infinity,
  };
}

function addRow(
  reading: CadvisorContainer,
  family: string,
  id: string,
  value: number,
  timestampMs: number,
): void {
  switch (family) {
    case CFS_PERIODS:
    case CFS_THROTTLED_PERIODS: {
      let counters = reading.cfs.get(id);
      if (counters === undefined) {
        counters = { periods: undefined, throttledPeriods: undefined, timestampMs };
        reading.cfs.set(id, counters);
      }
      if (family === CFS_PERIODS) counters.periods = value;
      else counters.throttledPeriods = value;
      counters.timestampMs = Math.max(counters.timestampMs, timestampMs);
      return;
    }
    case OOM_EVENTS:
      reading.oomEvents.set(id, (reading.oomEvents.get(id) ?? 0) + value);
      reading.oomTimestampMs = Math.max(reading.oomTimestampMs, timestampMs);
      return;
    case FS_READ_BYTES:
      reading.fsReadBytes = (reading.fsReadBytes ?? 0) + value;
      reading.fsTimestampMs = Math.max(reading.fsTimestampMs, timestampMs);
      return;
    case FS_WRITE_BYTES:
      reading.fsWriteBytes = (reading.fsWriteBytes ?? 0) + value;
      reading.fsTimestampMs = Math.max(reading.fsTimestampMs, timestampMs);
      return;
  }
}

/**
 * The pod UID in a container's cgroup path: `…/pod<uid>/<container id>` (cgroupfs driver) or
 * `…/kubepods-burstable-pod<uid with _ for ->.slice/…` (systemd driver). A static pod's UID is its config
 * hash, 32 hexadecimal digits without dashes.
 */
export function podUidFromCgroup(cgroupId: string): string | undefined {
  const match = POD_UID_IN_CGROUP.exec(cgroupId);
  return match?.[1]?.replaceAll('_', '-');
}

const POD_UID_IN_CGROUP =
  /[/-]pod([0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12}|[0-9a-f]{32})(?=[./]|$)/;
