import {
  findVm,
  generateMac,
  newSmbiosUuid,
  newVmgenid,
  requireNode,
  requireStorage,
  type ClusterState,
  type SimVm,
} from '../cluster-state.js';
import { formatDrive, parseDrive } from '../drive.js';
import { withNewMac } from '../net-device.js';
import { PveError, die } from '../pve-error.js';
import { dnsNameFormat } from '../pve-formats.js';
import {
  requirePrivilege,
  startTask,
  type ApiRequest,
  type Route,
  type SimCore,
  requestedVm,
} from '../sim-core.js';
import { allocateCloudInitDrive, allocateImage, dataDisks, freeVolumes } from '../vm-disks.js';
import { assertUnlocked, clearLock } from '../vm-locks.js';
import { NODE, OPTIONAL_BOOLEAN, OPTIONAL_STORAGE, OPTIONAL_STRING, VMID } from './common-params.js';

export function qemuCloneRoutes(): Route[] {
  return [
    {
      method: 'POST',
      path: '/nodes/:node/qemu/:vmid/clone',
      params: {
        properties: {
          node: NODE,
          vmid: VMID,
          newid: VMID,
          name: { type: 'string', optional: true, format: dnsNameFormat },
          description: OPTIONAL_STRING,
          pool: OPTIONAL_STRING,
          snapname: OPTIONAL_STRING,
          storage: OPTIONAL_STORAGE,
          format: { type: 'string', optional: true, enum: ['raw', 'qcow2', 'vmdk'] },
          full: OPTIONAL_BOOLEAN,
          target: { ...NODE, optional: true },
          bwlimit: { type: 'integer', optional: true, minimum: 0 },
        },
      },
      handler: clone,
    },
  ];
}

function clone(core: SimCore, req: ApiRequest): string {
  const { state } = core;
  const source = requestedVm(core, req);
  const newid = req.params.newid as number;
  const target = (req.params.target as string | undefined) ?? source.node;
  requireNode(state, target);
  requirePrivilege(req, `/vms/${source.vmid}`, 'VM.Clone');
  requirePrivilege(req, `/vms/${newid}`, 'VM.Allocate');
  const isTemplate = source.config.template === '1';
  const full = (req.params.full as boolean | undefined) ?? !isTemplate;
  const storage = req.params.storage as string | undefined;
  if (storage !== undefined) requirePrivilege(req, `/storage/${storage}`, 'Datastore.AllocateSpace');
  if (!full && storage !== undefined) throw die(`parameter 'storage' not allowed for linked clones`);
  if (!full && req.params.format !== undefined) throw die(`parameter 'format' not allowed for linked clones`);
  if (!full && !isTemplate) throw die('linked clone feature is only available for templates');
  if (target !== source.node && !sharedDisks(state, source)) {
    throw die(`can't clone VM to node '${target}' (VM uses local storage)`);
  }
  if (storage !== undefined) requireStorage(requireNode(state, target), storage);
  assertUnlocked(source);
  const existing = findVm(state, newid);
  if (existing) {
    throw die(
      existing.node === target
        ? `unable to create VM ${newid}: config file already exists`
        : `unable to create VM ${newid} - VM ${newid} already exists on node '${existing.node}'`,
    );
  }
  // The temporary config with `lock: clone` claims the VMID before the worker starts.
  const placeholder: SimVm = {
    vmid: newid,
    node: target,
    config: { lock: 'clone' },
    pending: {},
    pendingDelete: [],
    running: false,
    snapshots: [],
    ...(source.osName !== undefined ? { osName: source.osName } : {}),
    ignoreShutdown: false,
  };
  state.vms[newid] = placeholder;
  const firewall = state.firewalls[source.vmid];
  if (firewall) state.firewalls[newid] = structuredClone(firewall);
  core.changed();
  // Volumes the worker allocated; a failed clone frees them, as PVE's cleanup does.
  const created: string[] = [];
  let finished = false;
  return startTask(core, req, {
    node: source.node,
    type: 'qmclone',
    id: source.vmid,
    work: async (log) => {
      let release: (() => void) | undefined;
      try {
        // Copying disks holds the target storage's lock for as long again as the task has run so far.
        release = await core.storageLocks.acquire(target, storage ?? firstDiskStorage(source));
        cloneInto(
          state,
          source,
          placeholder,
          {
            full,
            storage,
            name: req.params.name as string | undefined,
            description: req.params.description as string | undefined,
          },
          log,
          created,
        );
        // The config is written, named and still locked, while the disks finish copying.
        placeholder.config.lock = 'clone';
        await log.elapse();
        clearLock(placeholder, 'clone');
        finished = true;
      } catch (e: unknown) {
        throw new PveError(500, `clone failed: ${e instanceof Error ? e.message : String(e)}`);
      } finally {
        release?.();
      }
    },
    // Also runs when an injected fault fails the task before its worker: nothing may stay claimed.
    finally: () => {
      if (finished) return;
      freeVolumes(state, target, created);
      if (state.vms[newid] === placeholder) Reflect.deleteProperty(state.vms, newid);
      Reflect.deleteProperty(state.firewalls, newid);
      core.changed();
    },
  });
}

function firstDiskStorage(vm: SimVm): string {
  return dataDisks(vm.config)[0]?.volid.split(':')[0] ?? 'local-lvm';
}

function sharedDisks(state: ClusterState, vm: SimVm): boolean {
  const node = requireNode(state, vm.node);
  return dataDisks(vm.config).every(
    (d) => node.storages.find((s) => s.id === d.volid.split(':')[0])?.shared === true,
  );
}

interface CloneOptions {
  full: boolean;
  storage: string | undefined;
  name: string | undefined;
  description: string | undefined;
}

/** The worker's part: copy disks, write the config (new MACs, new SMBIOS UUID), drop template state. */
function cloneInto(
  state: ClusterState,
  source: SimVm,
  vm: SimVm,
  opts: CloneOptions,
  log: (line: string) => void,
  created: string[],
): void {
  const config: Record<string, string> = {};
  for (const [key, value] of Object.entries(source.config)) {
    if (key === 'template' || key === 'lock' || /^unused\d+$/.test(key)) continue;
    config[key] = value;
  }
  for (const disk of dataDisks(source.config)) {
    const storage = opts.storage ?? disk.volid.split(':')[0] ?? 'local-lvm';
    if (opts.full) {
      log(`create full clone of drive ${disk.key} (${disk.volid})`);
      const volid = allocateImage(state, vm.node, storage, vm.vmid, disk.size);
      created.push(volid);
      disk.drive.file = volid;
    } else {
      log(`create linked clone of drive ${disk.key} (${disk.volid})`);
      const base = disk.volid.split(':')[1] ?? '';
      const volid = allocateImage(
        state,
        vm.node,
        storage,
        vm.vmid,
        disk.size,
        `${base}/vm-${vm.vmid}-disk-0`,
      );
      created.push(volid);
      disk.drive.file = volid;
    }
    config[disk.key] = formatDrive(disk.drive);
  }
  for (const [key, value] of Object.entries(config)) {
    if (/^net\d+$/.test(key)) {
      config[key] = withNewMac(key, value, generateMac(state));
    } else if (/^(ide|sata|scsi)\d+$/.test(key) && value.includes('cloudinit')) {
      const drive = parseDrive(key, value);
      const storage = drive.file.split(':')[0] ?? 'local-lvm';
      drive.file = allocateCloudInitDrive(state, vm.node, storage, vm.vmid);
      created.push(drive.file);
      config[key] = formatDrive(drive);
    }
  }
  config.smbios1 = newSmbiosUuid();
  if (config.vmgenid !== undefined) config.vmgenid = newVmgenid();
  config.name = opts.name ?? `Copy-of-VM-${source.config.name ?? source.vmid}`;
  if (opts.description !== undefined) config.description = opts.description;
  vm.config = Object.fromEntries(Object.entries(config).sort(([a], [b]) => a.localeCompare(b)));
}
