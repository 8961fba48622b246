import { hasPermission, type Identity } from '../access-control.js';
import { storageAvail, type ClusterState, type SimNode } from '../cluster-state.js';
import { guestMaxima, guestStats } from '../guest-metrics.js';
import { die, paramError } from '../pve-error.js';
import { vmidFormat } from '../pve-formats.js';
import { requirePrivilege, type ApiRequest, type Route, type SimCore } from '../sim-core.js';
import type { ResourceSnapshots } from '../resource-snapshots.js';
import type { PveRelease } from '../pve-release.js';

const NEXTID_RANGE = { lower: 100, upper: 1_000_000 };

export function clusterRoutes(snapshots: ResourceSnapshots, release: PveRelease): Route[] {
  return [
    {
      method: 'GET',
      path: '/version',
      params: { properties: {} },
      handler: () => ({ version: release.version, release: release.release, repoid: release.repoid }),
    },
    {
      method: 'GET',
      path: '/cluster/status',
      params: { properties: {} },
      handler: (core) => clusterStatus(core.state),
    },
    {
      method: 'GET',
      path: '/cluster/resources',
      params: {
        properties: { type: { type: 'string', optional: true, enum: ['vm', 'storage', 'node', 'sdn'] } },
      },
      handler: (core, req) => clusterResources(core, req, snapshots),
    },
    {
      method: 'GET',
      path: '/cluster/backup-info/not-backed-up',
      params: { properties: {} },
      handler: (core, req) => {
        requirePrivilege(req, '/', 'Sys.Audit');
        return notBackedUp(core.state, req.identity);
      },
    },
    {
      method: 'GET',
      path: '/cluster/config/qdevice',
      params: { properties: {} },
      handler: (_core, req) => {
        requirePrivilege(req, '/', 'Sys.Audit');
        // PVE answers corosync-qdevice's status lines, or nothing when its socket is absent: no QDevice here.
        return {};
      },
    },
    {
      method: 'GET',
      path: '/cluster/nextid',
      params: { properties: { vmid: { type: 'integer', optional: true, format: vmidFormat } } },
      handler: (core, req) => nextId(core.state, req.params.vmid as number | undefined),
    },
  ];
}

function clusterStatus(state: ClusterState): unknown[] {
  return [
    {
      type: 'cluster',
      id: 'cluster',
      name: state.name,
      nodes: state.nodes.length,
      quorate: 1,
      version: state.nodes.length + 2,
    },
    ...state.nodes.map((n, i) => ({
      type: 'node',
      id: `node/${n.name}`,
      name: n.name,
      nodeid: n.nodeid,
      online: 1,
      local: i === 0 ? 1 : 0,
      ip: n.ip,
      level: '',
    })),
  ];
}

/**
 * Guests that no backup job includes: every guest the caller may audit, since the simulator has no
 * backup jobs (templates too: PVE does not leave them out). The name comes from the config.
 */
function notBackedUp(state: ClusterState, identity: Identity): unknown[] {
  return Object.values(state.vms)
    .filter((vm) => hasPermission(identity, `/vms/${vm.vmid}`, 'VM.Audit'))
    .map((vm) => ({
      vmid: vm.vmid,
      type: 'qemu',
      ...(vm.config.name !== undefined ? { name: vm.config.name } : {}),
    }));
}

/** `/cluster/nextid`: the lowest free VMID, as a JSON string. Not a reservation. */
function nextId(state: ClusterState, wanted: number | undefined): string {
  if (wanted !== undefined) {
    if (state.vms[wanted]) throw paramError({ vmid: `VM ${wanted} already exists` });
    return String(wanted);
  }
  for (let id = NEXTID_RANGE.lower; id < NEXTID_RANGE.upper; id++) if (!state.vms[id]) return String(id);
  throw die('unable to get any free VMID in range [100, 1000000]');
}

export function nodeUsage(state: ClusterState, node: SimNode, now = Date.now()) {
  let cpuCores = 0.15;
  let mem = 3.2 * 1024 ** 3;
  for (const vm of Object.values(state.vms)) {
    if (vm.node !== node.name || !vm.running) continue;
    const max = guestMaxima(state, vm);
    const stats = guestStats(vm, max, now);
    cpuCores += stats.cpu * max.cpus;
    mem += stats.mem + 64 * 1024 ** 2;
  }
  const root = node.storages.find((s) => s.type === 'dir');
  return {
    cpu: Math.min(1, cpuCores / node.cpus),
    mem: Math.min(node.memoryBytes, Math.round(mem)),
    disk: root ? root.totalBytes - storageAvail(state, node.name, root) : 0,
    maxdisk: root?.totalBytes ?? 0,
    uptime: Math.floor((now - node.bootedAt) / 1000),
  };
}

function clusterResources(core: SimCore, req: ApiRequest, snapshots: ResourceSnapshots): unknown[] {
  const { state } = core;
  const type = req.params.type as string | undefined;
  const out: unknown[] = [];
  const now = Date.now();
  if (type === undefined || type === 'node') {
    for (const node of state.nodes) {
      if (!hasPermission(req.identity, `/nodes/${node.name}`, 'Sys.Audit')) continue;
      const u = nodeUsage(state, node, now);
      out.push({
        id: `node/${node.name}`,
        type: 'node',
        node: node.name,
        status: 'online',
        cpu: u.cpu,
        maxcpu: node.cpus,
        mem: u.mem,
        maxmem: node.memoryBytes,
        disk: u.disk,
        maxdisk: u.maxdisk,
        uptime: u.uptime,
        level: '',
        cgroup_mode: 2,
      });
    }
  }
  if (type === undefined || type === 'vm') {
    for (const vm of Object.values(state.vms)) {
      if (!hasPermission(req.identity, `/vms/${vm.vmid}`, 'VM.Audit')) continue;
      const seen = snapshots.view(vm);
      const max = guestMaxima(state, vm);
      const stats = guestStats(vm, max, now);
      const running = seen.status === 'running';
      out.push({
        id: `qemu/${vm.vmid}`,
        type: 'qemu',
        vmid: vm.vmid,
        node: vm.node,
        status: seen.status,
        ...(seen.name !== undefined ? { name: seen.name } : {}),
        template: vm.config.template === '1' ? 1 : 0,
        maxcpu: max.cpus,
        maxmem: max.maxmem,
        maxdisk: max.maxdisk,
        cpu: running ? stats.cpu : 0,
        mem: running ? stats.mem : 0,
        disk: 0,
        uptime: running ? stats.uptime : 0,
        netin: stats.netin,
        netout: stats.netout,
        diskread: stats.diskread,
        diskwrite: stats.diskwrite,
        ...(vm.config.tags ? { tags: vm.config.tags } : {}),
        ...(vm.config.lock ? { lock: vm.config.lock } : {}),
      });
    }
  }
  if (type === undefined || type === 'storage') {
    for (const node of state.nodes) {
      for (const s of node.storages) {
        if (!hasPermission(req.identity, `/storage/${s.id}`, 'Datastore.Audit')) continue;
        out.push({
          id: `storage/${node.name}/${s.id}`,
          type: 'storage',
          storage: s.id,
          node: node.name,
          status: 'available',
          disk: s.totalBytes - storageAvail(state, node.name, s),
          maxdisk: s.totalBytes,
          shared: s.shared ? 1 : 0,
          content: s.content.join(','),
          plugintype: s.type,
        });
      }
    }
  }
  if (type === 'sdn') return [];
  return out;
}
