import { createHash } from 'node:crypto';
import { hasPermission } from '../access-control.js';
import { requireNode, vmName } from '../cluster-state.js';
import { guestMaxima, guestStats } from '../guest-metrics.js';
import { paramError } from '../pve-error.js';
import { requirePrivilege, type Route } from '../sim-core.js';
import { isUpid } from '../task-manager.js';
import { nodeUsage } from './cluster.routes.js';
import type { PveRelease } from '../pve-release.js';
import { NODE, VMID } from './common-params.js';

export function nodeRoutes(certFingerprint: string, release: PveRelease): Route[] {
  return [
    {
      method: 'GET',
      path: '/nodes',
      params: { properties: {} },
      handler: (core) =>
        core.state.nodes.map((n) => {
          const u = nodeUsage(core.state, n);
          return {
            node: n.name,
            id: `node/${n.name}`,
            type: 'node',
            status: 'online',
            cpu: u.cpu,
            maxcpu: n.cpus,
            mem: u.mem,
            maxmem: n.memoryBytes,
            disk: u.disk,
            maxdisk: u.maxdisk,
            uptime: u.uptime,
            level: '',
            ssl_fingerprint: certFingerprint,
          };
        }),
    },
    {
      method: 'GET',
      path: '/nodes/:node/status',
      params: { properties: { node: NODE } },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        requirePrivilege(req, `/nodes/${node.name}`, 'Sys.Audit');
        const u = nodeUsage(core.state, node);
        const load = (u.cpu * node.cpus).toFixed(2);
        return {
          cpu: u.cpu,
          loadavg: [load, load, load],
          memory: { total: node.memoryBytes, used: u.mem, free: node.memoryBytes - u.mem },
          swap: { total: 8 * 1024 ** 3, used: 0, free: 8 * 1024 ** 3 },
          rootfs: { total: u.maxdisk, used: u.disk, avail: u.maxdisk - u.disk, free: u.maxdisk - u.disk },
          cpuinfo: {
            cpus: node.cpus,
            sockets: 1,
            cores: node.cpus,
            model: 'Simulated CPU @ 3.00GHz',
            mhz: '3000.000',
            hvm: '1',
          },
          uptime: u.uptime,
          idle: 0,
          wait: 0,
          kversion: release.kernel,
          pveversion: `pve-manager/${release.version}/${release.repoid}`,
        };
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/qemu',
      params: { properties: { node: NODE, full: { type: 'boolean', optional: true } } },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        return Object.values(core.state.vms)
          .filter((vm) => vm.node === node.name && hasPermission(req.identity, `/vms/${vm.vmid}`, 'VM.Audit'))
          .map((vm) => {
            const max = guestMaxima(core.state, vm);
            const stats = guestStats(vm, max);
            return {
              vmid: vm.vmid,
              name: vmName(vm),
              status: vm.running ? 'running' : 'stopped',
              cpus: max.cpus,
              maxmem: max.maxmem,
              maxdisk: max.maxdisk,
              mem: stats.mem,
              disk: 0,
              cpu: stats.cpu,
              uptime: stats.uptime,
              netin: stats.netin,
              netout: stats.netout,
              diskread: stats.diskread,
              diskwrite: stats.diskwrite,
              ...(vm.running ? { pid: vm.pid } : {}),
              ...(vm.config.template === '1' ? { template: 1 } : {}),
              ...(vm.config.tags ? { tags: vm.config.tags } : {}),
              ...(vm.config.lock ? { lock: vm.config.lock } : {}),
            };
          });
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/lxc',
      params: { properties: { node: NODE } },
      handler: (core, req) => {
        requireNode(core.state, req.params.node as string);
        // The simulator runs no containers.
        return [];
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/replication',
      params: { properties: { node: NODE, guest: { ...VMID, optional: true } } },
      handler: (core, req) => {
        requireNode(core.state, req.params.node as string);
        // No storage replication jobs are simulated.
        return [];
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/subscription',
      params: { properties: { node: NODE } },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        // Open to every user; only the server id needs Sys.Audit on the node.
        const audit = hasPermission(req.identity, `/nodes/${node.name}`, 'Sys.Audit');
        return {
          status: 'notfound',
          message: 'There is no subscription key',
          url: SUBSCRIPTION_URL,
          ...(audit ? { serverid: serverId(core.state.name, node.name) } : {}),
        };
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/tasks/:upid/status',
      params: { properties: { node: NODE, upid: { type: 'string' } } },
      handler: (core, req) => {
        const task = findTask(core, req.params.node as string, req.params.upid as string);
        if (task.user !== req.identity.userid) requirePrivilege(req, `/nodes/${task.node}`, 'Sys.Audit');
        return {
          upid: task.upid,
          node: task.node,
          pid: task.pid,
          pstart: task.pstart,
          starttime: task.starttime,
          type: task.type,
          id: task.id,
          user: task.user,
          ...(task.tokenid !== undefined ? { tokenid: task.tokenid } : {}),
          status: task.status,
          ...(task.exitstatus !== undefined ? { exitstatus: task.exitstatus } : {}),
        };
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/tasks/:upid/log',
      params: {
        properties: {
          node: NODE,
          upid: { type: 'string' },
          start: { type: 'integer', optional: true, minimum: 0 },
          limit: { type: 'integer', optional: true, minimum: 0 },
          download: { type: 'boolean', optional: true },
        },
      },
      handler: (core, req) => {
        const task = findTask(core, req.params.node as string, req.params.upid as string);
        if (task.user !== req.identity.userid) requirePrivilege(req, `/nodes/${task.node}`, 'Sys.Audit');
        const start = (req.params.start as number | undefined) ?? 0;
        const limit = (req.params.limit as number | undefined) ?? 50;
        return task.log.slice(start, start + limit).map((t, i) => ({ n: start + i + 1, t }));
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/tasks',
      params: {
        properties: {
          node: NODE,
          vmid: { type: 'integer', optional: true },
          limit: { type: 'integer', optional: true },
        },
      },
      handler: (core, req) => {
        const node = requireNode(core.state, req.params.node as string);
        const vmid = req.params.vmid as number | undefined;
        return core.tasks
          .list(node.name)
          .filter((t) => vmid === undefined || t.id === String(vmid))
          .slice(-((req.params.limit as number | undefined) ?? 50))
          .reverse()
          .map((t) => ({
            upid: t.upid,
            node: t.node,
            pid: t.pid,
            pstart: t.pstart,
            starttime: t.starttime,
            type: t.type,
            id: t.id,
            user: t.user,
            ...(t.endtime ? { endtime: t.endtime, status: t.exitstatus } : {}),
          }));
      },
    },
    {
      method: 'POST',
      path: '/access/ticket',
      params: {
        properties: {
          username: { type: 'string', maxLength: 64 },
          password: { type: 'string' },
          realm: { type: 'string', optional: true },
          otp: { type: 'string', optional: true },
          path: { type: 'string', optional: true },
          privs: { type: 'string', optional: true },
          'new-format': { type: 'boolean', optional: true },
        },
      },
      handler: (core, req) => {
        const realm = req.params.realm as string | undefined;
        const user = req.params.username as string;
        const username = realm && !user.includes('@') ? `${user}@${realm}` : user;
        const login = core.access.login(username, req.params.password as string);
        return {
          ...login,
          cap: { vms: {}, storage: {}, access: {}, nodes: {}, dc: {}, sdn: {}, mapping: {} },
        };
      },
    },
  ];
}

/** Where PVE 8 and 9 send a node without a subscription key. */
const SUBSCRIPTION_URL = 'https://www.proxmox.com/en/proxmox-virtual-environment/pricing';

/** PVE's server id is an MD5 of the host's SSH key, 32 upper-case hex digits; here one stable per node. */
function serverId(cluster: string, node: string): string {
  return createHash('md5').update(`${cluster}/${node}`).digest('hex').toUpperCase();
}

function findTask(core: Parameters<Route['handler']>[0], node: string, upid: string) {
  if (!isUpid(upid)) throw paramError({ upid: 'unable to parse worker upid' });
  const task = core.tasks.get(upid);
  if (task?.node !== node) throw paramError({ upid: 'no such task' });
  return task;
}
