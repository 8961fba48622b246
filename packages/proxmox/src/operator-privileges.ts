/** Privileges a Proxmox API token must hold on an ACL path, propagated to what lies below it. */
export interface RequiredPrivileges {
  readonly path: string;
  readonly privileges: readonly string[];
  /** What the operator does with them, to show whoever grants them. */
  readonly why: string;
}

/**
 * What the operator (apps/operator) needs in Proxmox, from the calls it makes. Guests, storages and
 * nodes are created and chosen at run time, so each privilege is needed, propagated, on the path
 * above them all.
 */
export const OPERATOR_PRIVILEGES: readonly RequiredPrivileges[] = [
  {
    path: '/vms',
    privileges: ['VM.Audit'],
    why: 'reading guests, their configs, status, snapshots and firewall (the NR guard, the inventory)',
  },
  {
    path: '/vms',
    privileges: ['VM.Clone', 'VM.Allocate'],
    why: 'cloning templates into new guests, restoring backups and destroying guests',
  },
  {
    path: '/vms',
    privileges: [
      'VM.Config.CPU',
      'VM.Config.Memory',
      'VM.Config.Network',
      'VM.Config.Cloudinit',
      'VM.Config.Options',
      'VM.Config.CDROM',
      'VM.Config.Disk',
    ],
    why: 'configuring guests (CPU, memory, NIC and firewall, IP config, name and tags, the cloud-init seed ISO, disk size)',
  },
  {
    path: '/vms',
    privileges: ['VM.PowerMgmt'],
    why: 'starting, shutting down, stopping and rebooting guests',
  },
  { path: '/vms', privileges: ['VM.Console'], why: 'VNC consoles' },
  { path: '/vms', privileges: ['VM.Snapshot', 'VM.Snapshot.Rollback'], why: 'snapshots and rollbacks' },
  { path: '/vms', privileges: ['VM.Backup'], why: 'backups (vzdump)' },
  {
    path: '/storage',
    privileges: ['Datastore.Audit'],
    why: 'finding storages, seed ISOs and backup archives',
  },
  {
    path: '/storage',
    privileges: ['Datastore.AllocateSpace'],
    why: 'the disks of full clones, backup archives and restores, and deleting seed ISOs and archives',
  },
  { path: '/storage', privileges: ['Datastore.AllocateTemplate'], why: 'uploading cloud-init seed ISOs' },
  { path: '/nodes', privileges: ['Sys.Audit'], why: 'reading nodes and their tasks' },
];

/** Proxmox's built-in roles that carry, between them, everything OPERATOR_PRIVILEGES asks on each path. */
export const OPERATOR_ROLES: readonly { readonly path: string; readonly role: string }[] = [
  { path: '/vms', role: 'PVEVMAdmin' },
  { path: '/storage', role: 'PVEDatastoreAdmin' },
  { path: '/nodes', role: 'PVEAuditor' },
];
