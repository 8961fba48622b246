import {
  findVm,
  generateMac,
  getVolume,
  newSmbiosUuid,
  requireNode,
  type BackupPayload,
  type SimVm,
} from '../cluster-state.js';
import { DRIVE_KEY_RE, formatDrive, isCdrom, isCloudInit, parseDrive, splitVolid } from '../drive.js';
import { withNewMac } from '../net-device.js';
import { TaskError, die, paramError } from '../pve-error.js';
import { parseSize } from '../pve-formats.js';
import { CONFIG_PARAM_PATTERNS, CONFIG_PARAM_PROPERTIES } from '../qemu-config-schema.js';
import {
  requirePrivilege,
  startTask,
  type ApiRequest,
  type Route,
  type SimCore,
  requestedVm,
} from '../sim-core.js';
import { applyConfigChange, prepareConfigChange } from '../vm-config-update.js';
import { allocateCloudInitDrive, allocateImage, freeVolumes, ownedVolumes, vmVolumes } from '../vm-disks.js';
import { clearLock, setLock } from '../vm-locks.js';
import { NODE, OPTIONAL_BOOLEAN, OPTIONAL_STORAGE, OPTIONAL_STRING, VMID } from './common-params.js';
import { startVm } from '../vm-power.js';

export function qemuLifecycleRoutes(): Route[] {
  return [
    {
      method: 'DELETE',
      path: '/nodes/:node/qemu/:vmid',
      params: {
        properties: {
          node: NODE,
          vmid: VMID,
          purge: OPTIONAL_BOOLEAN,
          'destroy-unreferenced-disks': OPTIONAL_BOOLEAN,
          skiplock: OPTIONAL_BOOLEAN,
        },
      },
      handler: destroy,
    },
    {
      method: 'POST',
      path: '/nodes/:node/qemu',
      params: {
        properties: {
          ...CONFIG_PARAM_PROPERTIES,
          node: NODE,
          vmid: VMID,
          archive: { type: 'string', optional: true, maxLength: 255 },
          storage: OPTIONAL_STORAGE,
          force: { type: 'boolean', optional: true, requires: 'archive' },
          unique: { type: 'boolean', optional: true, requires: 'archive' },
          start: OPTIONAL_BOOLEAN,
          pool: OPTIONAL_STRING,
          bwlimit: { type: 'integer', optional: true, minimum: 0 },
          'live-restore': OPTIONAL_BOOLEAN,
        },
        patternProperties: CONFIG_PARAM_PATTERNS,
      },
      handler: (core, req) => (req.params.archive !== undefined ? restore(core, req) : create(core, req)),
    },
  ];
}

function destroy(core: SimCore, req: ApiRequest): string {
  const vm = requestedVm(core, req);
  requirePrivilege(req, `/vms/${vm.vmid}`, 'VM.Allocate');
  if (vm.running) throw die(`VM ${vm.vmid} is running - destroy failed`);
  if (vm.config.protection === '1') throw die(`can't remove VM ${vm.vmid} - protection mode enabled`);
  const skiplock = req.params.skiplock === true;
  return startTask(core, req, {
    node: vm.node,
    type: 'qmdestroy',
    id: vm.vmid,
    work: (log) => {
      const current = core.state.vms[vm.vmid];
      if (current !== vm)
        throw new TaskError(
          `Configuration file 'nodes/${vm.node}/qemu-server/${vm.vmid}.conf' does not exist`,
        );
      if (vm.config.lock !== undefined && !skiplock) throw new TaskError(`VM is locked (${vm.config.lock})`);
      if (vm.running) throw new TaskError(`VM ${vm.vmid} is running - destroy failed`);
      const volumes = vmVolumes(core.state, vm);
      const inUse = volumes.find((volid) => linkedClonesOf(core, vm.node, volid).length > 0);
      if (inUse !== undefined) throw new TaskError(`base volume '${inUse}' is still in use by linked cloned`);
      for (const volid of volumes)
        log(`  Logical volume "${volid.split(':')[1] ?? volid}" successfully removed.`);
      freeVolumes(core.state, vm.node, volumes);
      if (req.params['destroy-unreferenced-disks'] !== false) {
        const orphans = Object.values(core.state.volumes)
          .filter((v) => v.node === vm.node && v.content === 'images' && v.vmid === vm.vmid)
          .map((v) => v.volid);
        freeVolumes(core.state, vm.node, orphans);
      }
      Reflect.deleteProperty(core.state.firewalls, vm.vmid);
      Reflect.deleteProperty(core.state.vms, vm.vmid);
      if (req.params.purge === true) log(`purging VM ${vm.vmid} from related configurations..`);
      core.vnc.closeVm(vm.vmid);
    },
  });
}

function linkedClonesOf(core: SimCore, node: string, baseVolid: string): number[] {
  const base = baseVolid.split(':')[1] ?? '';
  if (!base.startsWith('base-')) return [];
  return Object.values(core.state.vms)
    .filter((vm) => vm.node === node && Object.values(vm.config).some((v) => v.includes(`${base}/`)))
    .map((vm) => vm.vmid);
}

function emptyVm(vmid: number, node: string, lock: string): SimVm {
  return {
    vmid,
    node,
    config: { lock },
    pending: {},
    pendingDelete: [],
    running: false,
    snapshots: [],
    ignoreShutdown: false,
  };
}

function create(core: SimCore, req: ApiRequest): string {
  const node = requireNode(core.state, req.params.node as string);
  const vmid = req.params.vmid as number;
  requirePrivilege(req, `/vms/${vmid}`, 'VM.Allocate');
  const existing = findVm(core.state, vmid);
  if (existing)
    throw die(`unable to create VM ${vmid} - VM ${vmid} already exists on node '${existing.node}'`);
  const vm = emptyVm(vmid, node.name, 'create');
  const change = prepareConfigChange(core.state, vm, req.params, req.identity);
  core.state.vms[vmid] = vm;
  applyConfigChange(core.state, vm, change);
  if (!Object.hasOwn(vm.config, 'smbios1')) vm.config.smbios1 = newSmbiosUuid();
  core.changed();
  return startTask(core, req, {
    node: node.name,
    type: 'qmcreate',
    id: vmid,
    work: async (log) => {
      await log.elapse();
      clearLock(vm, 'create');
      if (req.params.start === true) startVm(core, vm);
    },
    // A create that failed (an injected fault included) leaves neither config nor disks behind.
    finally: () => {
      if (vm.config.lock !== 'create' || core.state.vms[vmid] !== vm) return;
      freeVolumes(core.state, vm.node, ownedVolumes(vm.config, vmid));
      Reflect.deleteProperty(core.state.vms, vmid);
      core.changed();
    },
  });
}

function restore(core: SimCore, req: ApiRequest): string {
  const { state } = core;
  const node = requireNode(state, req.params.node as string);
  const vmid = req.params.vmid as number;
  const archive = req.params.archive as string;
  const conflicts = Object.keys(req.params).filter((k) => DRIVE_KEY_RE.test(k));
  if (conflicts.length > 0)
    throw paramError(Object.fromEntries(conflicts.map((k) => [k, `option conflicts with option 'archive'`])));
  requirePrivilege(req, `/vms/${vmid}`, 'VM.Allocate');
  const storageParam = req.params.storage as string | undefined;
  if (storageParam !== undefined)
    requirePrivilege(req, `/storage/${storageParam}`, 'Datastore.AllocateSpace');
  const volume = getVolume(state, node.name, archive);
  if (volume?.content !== 'backup' || !volume.backup) throw die(`volume '${archive}' does not exist`);
  const existing = findVm(state, vmid);
  if (existing && req.params.force !== true) {
    throw die(`unable to restore VM ${vmid} - VM ${vmid} already exists on node '${existing.node}'`);
  }
  if (existing && existing.node !== node.name) {
    throw die(`unable to restore VM ${vmid} - VM ${vmid} already exists on node '${existing.node}'`);
  }
  if (existing?.config.lock !== undefined) throw die(`VM is locked (${existing.config.lock})`);
  const target = existing ?? emptyVm(vmid, node.name, 'create');
  if (existing) setLock(existing, 'create');
  else state.vms[vmid] = target;
  core.changed();
  const payload = volume.backup;
  return startTask(core, req, {
    node: node.name,
    type: 'qmrestore',
    id: vmid,
    // A failed restore (an injected fault included) releases the VM it locked, or drops the one it made.
    finally: () => {
      if (target.config.lock !== 'create') return;
      if (existing) clearLock(existing, 'create');
      else if (state.vms[vmid] === target) Reflect.deleteProperty(state.vms, vmid);
      core.changed();
    },
    work: async (log) => {
      log(`restore vma archive: ${archive}`);
      if (target.running) throw new TaskError(`unable to restore VM ${vmid} - vm is running`);
      await log.elapse();
      const old = existing ? ownedVolumes(existing.config, vmid) : [];
      try {
        target.config = restoredConfig(core, target, payload, {
          storage: storageParam,
          unique: req.params.unique === true,
        });
      } catch (e: unknown) {
        throw new TaskError(`unable to restore VM ${vmid} - ${e instanceof Error ? e.message : String(e)}`);
      }
      freeVolumes(
        state,
        node.name,
        old.filter((v) => !Object.values(target.config).some((c) => c.includes(v))),
      );
      target.snapshots = [];
      target.pending = {};
      target.pendingDelete = [];
      if (payload.firewall) state.firewalls[vmid] = structuredClone(payload.firewall);
      const overrides = Object.fromEntries(
        Object.entries(req.params).filter(
          ([k]) =>
            ![
              'node',
              'vmid',
              'archive',
              'storage',
              'force',
              'unique',
              'start',
              'pool',
              'bwlimit',
              'live-restore',
            ].includes(k),
        ),
      );
      if (Object.keys(overrides).length > 0)
        applyConfigChange(state, target, prepareConfigChange(state, target, overrides, req.identity));
      log(`restore of ${archive} finished`);
      if (req.params.start === true) startVm(core, target);
    },
  });
}

function restoredConfig(
  core: SimCore,
  vm: SimVm,
  payload: BackupPayload,
  opts: { storage: string | undefined; unique: boolean },
): Record<string, string> {
  const { state } = core;
  const config: Record<string, string> = {};
  const freshVolumes = new Set(vmVolumes(state, vm));
  for (const [key, value] of Object.entries(payload.config)) {
    if (key === 'lock' || /^unused\d+$/.test(key)) continue;
    if (DRIVE_KEY_RE.test(key)) {
      const drive = parseDrive(key, value);
      const parts = splitVolid(drive.file);
      if (parts && !isCdrom(drive)) {
        const storage = opts.storage ?? parts[0];
        const bytes = parseSize(drive.options.get('size') ?? '0') ?? 0;
        const wanted = `vm-${vm.vmid}-disk-${key.replace(/\D/g, '')}`;
        if (freshVolumes.has(`${storage}:${wanted}`)) freeVolumes(state, vm.node, [`${storage}:${wanted}`]);
        drive.file = allocateImage(state, vm.node, storage, vm.vmid, bytes, wanted);
      } else if (parts && isCloudInit(drive)) {
        const storage = opts.storage ?? parts[0];
        drive.file = allocateCloudInitDrive(state, vm.node, storage, vm.vmid);
      }
      config[key] = formatDrive(drive);
    } else if (/^net\d+$/.test(key) && opts.unique) {
      config[key] = withNewMac(key, value, generateMac(state));
    } else {
      config[key] = value;
    }
  }
  if (opts.unique) config.smbios1 = newSmbiosUuid();
  return config;
}
