import type { VMBackup } from '@noderings/kube';
import type { ProxmoxClient, StorageVolume } from '@noderings/proxmox';

const INSTANCE_ANNOTATION = 'vm.noderings.com/backup-instance';
const NODE_ANNOTATION = 'vm.noderings.com/backup-node';
const VMID_ANNOTATION = 'vm.noderings.com/backup-vmid';

/**
 * Where a backup's archive is written: recorded on the VMBackup before vzdump starts, so the archive
 * can still be found and deleted after its ProxmoxVM (and the guest) are gone.
 */
export interface ArchiveLocation {
  instance: string;
  node: string;
  vmid: number;
}

export function readArchiveLocation(backup: VMBackup): ArchiveLocation | undefined {
  const annotations = backup.metadata?.annotations ?? {};
  const instance = annotations[INSTANCE_ANNOTATION];
  const node = annotations[NODE_ANNOTATION];
  const vmid = Number(annotations[VMID_ANNOTATION]);
  if (instance === undefined || node === undefined || !Number.isInteger(vmid)) return undefined;
  return { instance, node, vmid };
}

export function archiveLocationAnnotations(location: ArchiveLocation): Record<string, string> {
  return {
    [INSTANCE_ANNOTATION]: location.instance,
    [NODE_ANNOTATION]: location.node,
    [VMID_ANNOTATION]: String(location.vmid),
  };
}

/** The storage id of a volume id (`local:backup/vzdump-…` → `local`). */
export function storageOf(volid: string): string {
  return volid.slice(0, volid.indexOf(':'));
}

/** The backups of the location's VMID on `storage`. */
export async function listArchives(
  pve: Pick<ProxmoxClient, 'getStorageContent'>,
  location: Pick<ArchiveLocation, 'node' | 'vmid'>,
  storage: string,
): Promise<StorageVolume[]> {
  return pve.getStorageContent(location.node, storage, { content: 'backup', vmid: location.vmid });
}

/**
 * The archive a vzdump task started at `taskStart` (Unix seconds) wrote: the VM is locked for the whole
 * run, so the first backup of that VMID created since then is the one.
 */
export async function findTaskArchive(
  pve: Pick<ProxmoxClient, 'getStorageContent'>,
  location: ArchiveLocation,
  storage: string,
  taskStart: number,
): Promise<StorageVolume | undefined> {
  const created = (await listArchives(pve, location, storage)).filter(
    (v) => v.ctime !== undefined && v.ctime >= taskStart,
  );
  return created.sort((a, b) => (a.ctime ?? 0) - (b.ctime ?? 0))[0];
}
