import { createHash } from 'node:crypto';
import { checkPermission, type Identity } from './access-control.js';
import { generateMac, getVolume, removeVolume, type ClusterState, type SimVm } from './cluster-state.js';
import { DRIVE_KEY_RE, UNUSED_KEY_RE, formatDrive, isCdrom, parseDrive, splitVolid } from './drive.js';
import { validateIpConfig } from './ip-config.js';
import { formatNetDevice, parseNetDevice } from './net-device.js';
import type { Params } from './param-schema.js';
import { die, paramError } from './pve-error.js';
import { formatSize } from './pve-formats.js';
import { canonicalConfigValue, configKey } from './qemu-config-schema.js';
import { allocateCloudInitDrive, allocateImage } from './vm-disks.js';

/** Parameters of config POST/PUT that are not config keys. */
const CONTROL_PARAMS = new Set([
  'node',
  'vmid',
  'digest',
  'delete',
  'revert',
  'skiplock',
  'background_delay',
  'force',
]);

/** The SHA-1 digest PVE derives from the config file's content. */
export function configDigest(vm: SimVm): string {
  const lines = Object.entries(vm.config).map(([k, v]) => `${k}: ${v}`);
  const pending = Object.entries(vm.pending).map(([k, v]) => `[PENDING] ${k}: ${v}`);
  return createHash('sha1')
    .update([...lines, ...pending, `delete: ${vm.pendingDelete.join(',')}`].join('\n'))
    .digest('hex');
}

export interface ConfigChange {
  set: Record<string, string>;
  delete: string[];
}

/**
 * Validates and canonicalises the config keys of a request (allocating new disks as `storage:size`
 * asks), checking the privileges each key needs. Throws PVE's errors; changes nothing but volumes.
 */
export function prepareConfigChange(
  state: ClusterState,
  vm: SimVm,
  params: Params,
  identity: Identity,
): ConfigChange {
  const set: Record<string, string> = {};
  const errors: Record<string, string> = {};
  const deletes = String(params.delete ?? '')
    .split(/[,;\s]+/)
    .filter((k) => k.length > 0);
  for (const key of deletes) {
    if (!configKey(key)) errors.delete = `invalid configuration ID '${key}'`;
  }
  const keys = Object.entries(params).filter(
    (entry): entry is [string, string | number | boolean] =>
      !CONTROL_PARAMS.has(entry[0]) && entry[1] !== undefined,
  );
  const path = `/vms/${vm.vmid}`;
  for (const [key, value] of keys) checkPermission(identity, path, [privilegeFor(key, String(value))]);
  for (const key of deletes) checkPermission(identity, path, [privilegeFor(key, vm.config[key])]);
  // New disks are allocated while values are canonicalised; a refused request must not leave them behind.
  const volumesBefore = new Set(Object.keys(state.volumes));
  for (const [key, value] of keys) {
    if (deletes.includes(key)) {
      errors[key] = `unable to delete parameter that is set at the same time`;
      continue;
    }
    try {
      set[key] = canonicalValue(state, vm, key, value);
    } catch (e: unknown) {
      errors[key] = `invalid format - ${(e as Error).message}`;
    }
  }
  if (Object.keys(errors).length > 0) {
    for (const key of Object.keys(state.volumes))
      if (!volumesBefore.has(key)) Reflect.deleteProperty(state.volumes, key);
    throw paramError(errors);
  }
  return { set, delete: deletes };
}

function privilegeFor(key: string, value: string | undefined): string {
  if (DRIVE_KEY_RE.test(key) && value !== undefined) {
    try {
      if (isCdrom(parseDrive(key, value))) return 'VM.Config.CDROM';
    } catch {
      // an invalid value was already refused
    }
  }
  return configKey(key)?.privilege ?? 'VM.Config.Options';
}

function canonicalValue(
  state: ClusterState,
  vm: SimVm,
  key: string,
  value: string | number | boolean,
): string {
  if (/^net\d+$/.test(key))
    return formatNetDevice(parseNetDevice(key, String(value), () => generateMac(state)));
  if (/^ipconfig\d+$/.test(key)) {
    validateIpConfig(key, String(value));
    return String(value);
  }
  if (DRIVE_KEY_RE.test(key)) return canonicalDrive(state, vm, key, String(value));
  if (key === 'memory' && Number(String(value).replace('current=', '')) < 16) {
    throw new Error('memory: value must have a minimum value of 16');
  }
  return canonicalConfigValue(key, value);
}

function canonicalDrive(state: ClusterState, vm: SimVm, key: string, value: string): string {
  const drive = parseDrive(key, value);
  const parts = splitVolid(drive.file);
  if (!parts) return formatDrive(drive);
  const [storage, volume] = parts;
  if (volume === 'cloudinit') {
    const volid = allocateCloudInitDrive(state, vm.node, storage, vm.vmid);
    drive.file = volid;
    drive.options.set('media', 'cdrom');
    return formatDrive(drive);
  }
  if (/^\d+(\.\d+)?$/.test(volume)) {
    const size = Math.round(Number(volume) * 1024 ** 3);
    drive.file = allocateImage(state, vm.node, storage, vm.vmid, size);
    drive.options.set('size', formatSize(size));
    return formatDrive(drive);
  }
  const existing = getVolume(state, vm.node, drive.file);
  if (!existing) throw new Error(`volume '${drive.file}' does not exist`);
  if (!isCdrom(drive)) drive.options.set('size', formatSize(existing.size));
  return formatDrive(drive);
}

/**
 * Applies a prepared change. On a running VM, keys that cannot hot-apply wait in `[PENDING]` until the
 * next start, as they do with PVE's default hotplug set (network, disk, usb).
 */
export function applyConfigChange(state: ClusterState, vm: SimVm, change: ConfigChange): void {
  for (const [key, value] of Object.entries(change.set)) {
    if (vm.running && !configKey(key)?.hot) {
      vm.pending[key] = value;
    } else {
      replaceDisk(vm, key);
      vm.config[key] = value;
      Reflect.deleteProperty(vm.pending, key);
    }
  }
  for (const key of change.delete) {
    if (vm.running && !configKey(key)?.hot) {
      if (!vm.pendingDelete.includes(key)) vm.pendingDelete.push(key);
      continue;
    }
    deleteKey(state, vm, key);
  }
}

/** A disk replaced in place is kept as `unusedN`, as PVE does. */
function replaceDisk(vm: SimVm, key: string): void {
  const old = vm.config[key];
  if (old === undefined || !DRIVE_KEY_RE.test(key)) return;
  const drive = parseDrive(key, old);
  if (isCdrom(drive) || !splitVolid(drive.file) || drive.file.includes('cloudinit')) return;
  addUnused(vm, drive.file);
}

function addUnused(vm: SimVm, volid: string): void {
  for (let n = 0; ; n++) {
    if (vm.config[`unused${n}`] === undefined) {
      vm.config[`unused${n}`] = volid;
      return;
    }
  }
}

function deleteKey(state: ClusterState, vm: SimVm, key: string): void {
  const value = vm.config[key];
  Reflect.deleteProperty(vm.config, key);
  Reflect.deleteProperty(vm.pending, key);
  if (value === undefined) return;
  if (UNUSED_KEY_RE.test(key)) {
    removeVolume(state, vm.node, value);
  } else if (DRIVE_KEY_RE.test(key)) {
    const drive = parseDrive(key, value);
    if (drive.file.includes('cloudinit')) removeVolume(state, vm.node, drive.file);
    else if (!isCdrom(drive) && splitVolid(drive.file)) addUnused(vm, drive.file);
  }
}

/** At start: pending values and deletions become the running config. */
export function applyPending(state: ClusterState, vm: SimVm): void {
  for (const [key, value] of Object.entries(vm.pending)) vm.config[key] = value;
  for (const key of vm.pendingDelete) deleteKey(state, vm, key);
  vm.pending = {};
  vm.pendingDelete = [];
}

export function assertDigest(vm: SimVm, digest: string | undefined): void {
  if (digest !== undefined && digest !== configDigest(vm)) {
    throw die('checksum mismatch (file change by other user?)');
  }
}
