import {
  addVolume,
  getVolume,
  removeVolume,
  requireNode,
  requireStorage,
  storageAvail,
  type ClusterState,
  type SimVm,
} from './cluster-state.js';
import {
  DRIVE_KEY_RE,
  UNUSED_KEY_RE,
  isCdrom,
  isCloudInit,
  parseDrive,
  splitVolid,
  type Drive,
} from './drive.js';
import { die } from './pve-error.js';
import { parseSize } from './pve-formats.js';

const CLOUDINIT_BYTES = 4 * 1024 * 1024;

export interface DiskEntry {
  key: string;
  drive: Drive;
  volid: string;
  size: number;
}

/** The VM's disks that hold data (no CD-ROMs, no cloud-init drive), in config order. */
export function dataDisks(config: Record<string, string>): DiskEntry[] {
  const out: DiskEntry[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (!DRIVE_KEY_RE.test(key)) continue;
    const drive = safeParse(key, value);
    if (!drive || isCdrom(drive) || isCloudInit(drive) || !splitVolid(drive.file)) continue;
    out.push({ key, drive, volid: drive.file, size: parseSize(drive.options.get('size') ?? '0') ?? 0 });
  }
  return out;
}

/** Every volume the config references (disks, cloud-init drive, unused disks), not ISOs. */
export function ownedVolumes(config: Record<string, string>, vmid: number): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(config)) {
    if (UNUSED_KEY_RE.test(key)) {
      out.push(value);
      continue;
    }
    if (!DRIVE_KEY_RE.test(key)) continue;
    const drive = safeParse(key, value);
    if (!drive || !splitVolid(drive.file)) continue;
    if (new RegExp(`(^|[:/])(vm|base)-${vmid}-`).test(drive.file)) out.push(drive.file);
  }
  return out;
}

function safeParse(key: string, value: string): Drive | undefined {
  try {
    return parseDrive(key, value);
  } catch {
    return undefined;
  }
}

/** The next free `vm-<vmid>-disk-<n>` name on a storage of a node. */
function nextDiskName(state: ClusterState, node: string, storage: string, vmid: number): string {
  for (let n = 0; ; n++) {
    const name = `vm-${vmid}-disk-${n}`;
    if (!getVolume(state, node, `${storage}:${name}`)) return name;
  }
}

/** The cloud-init drive's volume (`vm-<vmid>-cloudinit`), replacing one left from before. */
export function allocateCloudInitDrive(
  state: ClusterState,
  node: string,
  storage: string,
  vmid: number,
): string {
  const name = `vm-${vmid}-cloudinit`;
  removeVolume(state, node, `${storage}:${name}`);
  return allocateImage(state, node, storage, vmid, CLOUDINIT_BYTES, name);
}

/** Allocates a new image volume; fails as the storage backend does when the storage is full. */
export function allocateImage(
  state: ClusterState,
  node: string,
  storageId: string,
  vmid: number,
  size: number,
  name?: string,
): string {
  const storage = requireStorage(requireNode(state, node), storageId);
  if (!storage.content.includes('images')) throw die(`storage '${storageId}' does not support vm images`);
  const volName = name ?? nextDiskName(state, node, storageId, vmid);
  assertSpace(state, node, storageId, size, volName);
  const volid = `${storageId}:${volName}`;
  addVolume(state, {
    volid,
    node,
    storage: storageId,
    content: 'images',
    format: 'raw',
    size,
    ctime: Math.floor(Date.now() / 1000),
    vmid,
  });
  return volid;
}

export function assertSpace(
  state: ClusterState,
  node: string,
  storageId: string,
  size: number,
  volName: string,
): void {
  const storage = requireStorage(requireNode(state, node), storageId);
  const avail = storageAvail(state, node, storage);
  if (size <= avail) return;
  const extent = 4 * 1024 * 1024;
  if (storage.type === 'lvmthin') {
    throw new Error(
      `lvcreate 'pve/${volName}' error:   Volume group "pve" has insufficient free space (${Math.floor(avail / extent)} extents): ${Math.ceil(size / extent)} required.`,
    );
  }
  throw new Error(`error writing '${volName}': No space left on device`);
}

export function freeVolumes(state: ClusterState, node: string, volids: readonly string[]): void {
  for (const volid of volids) removeVolume(state, node, volid);
}

export function vmVolumes(state: ClusterState, vm: SimVm): string[] {
  return ownedVolumes(vm.config, vm.vmid).filter((v) => getVolume(state, vm.node, v));
}
