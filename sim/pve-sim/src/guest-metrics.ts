import type { ClusterState, SimVm } from './cluster-state.js';
import { parseDrive, DRIVE_KEY_RE, isCdrom, isCloudInit } from './drive.js';
import { parseSize } from './pve-formats.js';

export interface GuestStats {
  uptime: number;
  /** Fraction of the guest's vCPUs in use, 0–1. */
  cpu: number;
  mem: number;
  netin: number;
  netout: number;
  diskread: number;
  diskwrite: number;
}

export interface GuestMaxima {
  cpus: number;
  maxmem: number;
  maxdisk: number;
}

/**
 * Usage of a guest since its QEMU process started: counters grow while it runs and start again from
 * zero at the next start, as PVE's do. Rates differ per VMID so that charts are not all alike.
 */
export function guestStats(vm: SimVm, maxima: GuestMaxima, now = Date.now()): GuestStats {
  if (!vm.running || vm.startedAt === undefined) {
    return { uptime: 0, cpu: 0, mem: 0, netin: 0, netout: 0, diskread: 0, diskwrite: 0 };
  }
  const seconds = Math.max(0, (now - vm.startedAt) / 1000);
  const seed = (vm.vmid * 2654435761) % 1000;
  const wave = (1 + Math.sin(now / 20_000 + seed)) / 2;
  return {
    uptime: Math.floor(seconds),
    cpu: Number((0.02 + 0.25 * wave * (0.5 + (seed % 50) / 100)).toFixed(4)),
    mem: Math.floor(maxima.maxmem * (0.25 + 0.2 * wave)),
    netin: Math.floor(seconds * (12_000 + seed * 40)),
    netout: Math.floor(seconds * (4_000 + seed * 25)),
    diskread: Math.floor(seconds * (90_000 + seed * 100)),
    diskwrite: Math.floor(seconds * (30_000 + seed * 60)),
  };
}

export function guestMaxima(state: ClusterState, vm: SimVm): GuestMaxima {
  const config = { ...vm.config };
  const cores = Number(config.cores ?? 1);
  const sockets = Number(config.sockets ?? 1);
  const memoryMiB = Number((config.memory ?? '512').replace('current=', ''));
  return {
    cpus: Number(config.vcpus ?? cores * sockets),
    maxmem: memoryMiB * 1024 * 1024,
    maxdisk: bootDiskSize(state, vm),
  };
}

/** The size of the first non-CD-ROM disk, as PVE reports `maxdisk`. */
function bootDiskSize(_state: ClusterState, vm: SimVm): number {
  for (const [key, value] of Object.entries(vm.config)) {
    if (!DRIVE_KEY_RE.test(key)) continue;
    try {
      const drive = parseDrive(key, value);
      if (isCdrom(drive) || isCloudInit(drive)) continue;
      return parseSize(drive.options.get('size') ?? '0') ?? 0;
    } catch {
      continue;
    }
  }
  return 0;
}
