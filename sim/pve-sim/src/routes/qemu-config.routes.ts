import { getVolume, requireNode } from '../cluster-state.js';
import { DRIVE_KEY_RE, formatDrive, isCdrom, parseDrive } from '../drive.js';
import { guestMaxima, guestStats } from '../guest-metrics.js';
import type { ParamSchema } from '../param-schema.js';
import { TaskError, die } from '../pve-error.js';
import { formatSize, parseSize } from '../pve-formats.js';
import { CONFIG_PARAM_PATTERNS, CONFIG_PARAM_PROPERTIES, renderConfig } from '../qemu-config-schema.js';
import {
  requirePrivilege,
  startTask,
  type ApiRequest,
  type Route,
  type SimCore,
  requestedVm,
} from '../sim-core.js';
import { assertSpace } from '../vm-disks.js';
import { assertUnlocked } from '../vm-locks.js';
import { applyConfigChange, assertDigest, configDigest, prepareConfigChange } from '../vm-config-update.js';
import { DIGEST, NODE, OPTIONAL_BOOLEAN, OPTIONAL_STRING, VMID } from './common-params.js';

const VM_PATH = { node: NODE, vmid: VMID };

const CONFIG_UPDATE: ParamSchema = {
  properties: {
    ...VM_PATH,
    ...CONFIG_PARAM_PROPERTIES,
    digest: DIGEST,
    delete: OPTIONAL_STRING,
    revert: OPTIONAL_STRING,
    skiplock: OPTIONAL_BOOLEAN,
    background_delay: { type: 'integer', optional: true, minimum: 1, maximum: 30 },
  },
  patternProperties: CONFIG_PARAM_PATTERNS,
};

export function qemuConfigRoutes(): Route[] {
  return [
    {
      method: 'GET',
      path: '/nodes/:node/qemu/:vmid',
      params: { properties: VM_PATH },
      handler: (core, req) => {
        requestedVm(core, req);
        return [
          'config',
          'pending',
          'status',
          'firewall',
          'snapshot',
          'vncproxy',
          'vncwebsocket',
          'clone',
          'resize',
          'rrd',
        ].map((subdir) => ({ subdir }));
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/qemu/:vmid/config',
      params: { properties: { ...VM_PATH, current: OPTIONAL_BOOLEAN, snapshot: OPTIONAL_STRING } },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Audit');
        const config = req.params.current === true ? { ...vm.config } : { ...vm.config, ...vm.pending };
        if (req.params.current !== true) for (const k of vm.pendingDelete) Reflect.deleteProperty(config, k);
        return { ...renderConfig(config), digest: configDigest(vm) };
      },
    },
    {
      method: 'GET',
      path: '/nodes/:node/qemu/:vmid/pending',
      params: { properties: VM_PATH },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Audit');
        const current = renderConfig(vm.config);
        const pending = renderConfig(vm.pending);
        const keys = new Set([...Object.keys(current), ...Object.keys(pending), ...vm.pendingDelete]);
        return [...keys].sort().map((key) => ({
          key,
          ...(current[key] !== undefined ? { value: current[key] } : {}),
          ...(pending[key] !== undefined ? { pending: pending[key] } : {}),
          ...(vm.pendingDelete.includes(key) ? { delete: 1 } : {}),
        }));
      },
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/config',
      params: CONFIG_UPDATE,
      handler: async (core, req) => {
        const upid = updateConfig(core, req, true);
        const delay = req.params.background_delay as number | undefined;
        return upid === null || delay === undefined ? upid : settleWithin(core, upid, delay * 1000);
      },
    },
    {
      method: 'PUT',
      path: '/nodes/:node/qemu/:vmid/config',
      params: CONFIG_UPDATE,
      handler: (core, req) => updateConfig(core, req, false),
    },
    {
      method: 'PUT',
      path: '/nodes/:node/qemu/:vmid/resize',
      params: {
        properties: {
          ...VM_PATH,
          disk: { type: 'string', enum: driveKeys() },
          size: { type: 'string', pattern: /^\+?\d+(\.\d+)?[KMGT]?$/ },
          digest: DIGEST,
          skiplock: OPTIONAL_BOOLEAN,
        },
      },
      handler: (core, req) => resize(core, req),
    },
    {
      method: 'GET',
      path: '/nodes/:node/qemu/:vmid/status/current',
      params: { properties: VM_PATH },
      handler: (core, req) => {
        const vm = requestedVm(core, req);
        requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Audit');
        const max = guestMaxima(core.state, vm);
        const stats = guestStats(vm, max);
        return {
          vmid: vm.vmid,
          name: vm.config.name ?? `VM ${vm.vmid}`,
          status: vm.running ? 'running' : 'stopped',
          qmpstatus: vm.running ? 'running' : 'stopped',
          cpus: max.cpus,
          maxmem: max.maxmem,
          maxdisk: max.maxdisk,
          disk: 0,
          ...stats,
          ha: { managed: 0 },
          ...(vm.config.agent ? { agent: 1 } : {}),
          ...(vm.running
            ? { pid: vm.pid, 'running-machine': 'pc-i440fx-9.0+pve0', 'running-qemu': '9.0.2' }
            : {}),
          ...(vm.config.lock ? { lock: vm.config.lock } : {}),
          ...(vm.config.tags ? { tags: vm.config.tags } : {}),
          ...(vm.config.template === '1' ? { template: 1 } : {}),
        };
      },
    },
  ];
}

function driveKeys(): string[] {
  const keys: string[] = ['efidisk0', 'tpmstate0'];
  for (let n = 0; n <= 30; n++) for (const bus of ['ide', 'sata', 'scsi', 'virtio']) keys.push(`${bus}${n}`);
  return keys.filter((k) => DRIVE_KEY_RE.test(k));
}

function updateConfig(core: SimCore, req: ApiRequest, async: boolean): string | null {
  const vm = requestedVm(core, req);
  assertUnlocked(vm, req.params.skiplock === true);
  assertDigest(vm, req.params.digest as string | undefined);
  const change = prepareConfigChange(core.state, vm, req.params, req.identity);
  if (Object.keys(change.set).length === 0 && change.delete.length === 0 && req.params.revert === undefined) {
    throw die('no options specified');
  }
  for (const key of String(req.params.revert ?? '')
    .split(/[,;\s]+/)
    .filter(Boolean)) {
    Reflect.deleteProperty(vm.pending, key);
    vm.pendingDelete = vm.pendingDelete.filter((k) => k !== key);
  }
  applyConfigChange(core.state, vm, change);
  core.changed();
  if (!async) return null;
  return startTask(core, req, {
    node: vm.node,
    type: 'qmconfig',
    id: vm.vmid,
    work: (log) => {
      log(`update VM ${vm.vmid}: ${describe(req)}`);
    },
  });
}

/**
 * `background_delay`: PVE waits that long for the worker; a task that finished OK by then answers null,
 * one that failed answers its error, one still running answers its UPID.
 */
async function settleWithin(core: SimCore, upid: string, ms: number): Promise<string | null> {
  const deadline = Date.now() + ms;
  for (;;) {
    const task = core.tasks.get(upid);
    if (task?.status === 'stopped') {
      if (task.exitstatus === 'OK' || task.exitstatus?.startsWith('WARNINGS') === true) return null;
      throw die(task.exitstatus ?? 'unexpected status');
    }
    if (Date.now() >= deadline) return upid;
    await new Promise((r) => setTimeout(r, 10));
  }
}

function describe(req: ApiRequest): string {
  return Object.entries(req.params)
    .filter(([k]) => k !== 'node' && k !== 'vmid')
    .map(([k, v]) => `-${k} ${k === 'cipassword' ? '<hidden>' : String(v)}`)
    .join(' ');
}

/** Resize: everything but the permission check runs inside the task, as in qemu-server 8. */
function resize(core: SimCore, req: ApiRequest): string {
  const node = requireNode(core.state, req.params.node as string).name;
  const vmid = req.params.vmid as number;
  requirePrivilege(req, `/vms/${vmid}`, 'VM.Config.Disk');
  const key = req.params.disk as string;
  const sizeParam = req.params.size as string;
  return startTask(core, req, {
    node,
    type: 'resize',
    id: vmid,
    work: (log) => {
      const vm = core.state.vms[vmid];
      if (vm?.node !== node)
        throw new TaskError(`Configuration file 'nodes/${node}/qemu-server/${vmid}.conf' does not exist`);
      assertDigest(vm, req.params.digest as string | undefined);
      assertUnlocked(vm, req.params.skiplock === true);
      const value = vm.config[key];
      if (value === undefined) throw new TaskError(`disk '${key}' does not exist`);
      const drive = parseDrive(key, value);
      if (isCdrom(drive)) throw new TaskError(`you can't resize a cdrom`);
      const current = parseSize(drive.options.get('size') ?? '0') ?? 0;
      // A size without a unit is in bytes, as PVE's parse_size reads it.
      const amount = parseSize(sizeParam.replace(/^\+/, '')) ?? 0;
      const target = sizeParam.startsWith('+') ? current + amount : amount;
      if (target < current) throw new TaskError('shrinking disks is not supported');
      const volume = getVolume(core.state, vm.node, drive.file);
      if (volume) {
        assertSpace(core.state, vm.node, volume.storage, target - current, drive.file);
        volume.size = target;
      }
      drive.options.set('size', formatSize(target));
      vm.config[key] = formatDrive(drive);
      log(
        `  Size of logical volume ${drive.file} changed from ${formatSize(current)} to ${formatSize(target)}.`,
      );
    },
  });
}
