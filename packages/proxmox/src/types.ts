/**
 * Request parameters and response data of the endpoints the client covers, as Proxmox VE sends them on
 * the wire (not as its schema declares them: e.g. `template` is `1`, not `true`). Optional fields are
 * the ones Proxmox leaves out when they do not apply.
 */

/** `0` or `1`: how Proxmox returns booleans in most answers. */
export type PveBoolean = 0 | 1;

export interface VersionInfo {
  version: string;
  release: string;
  repoid: string;
}

export type ClusterStatusEntry =
  | { type: 'cluster'; id: 'cluster'; name: string; quorate: PveBoolean; nodes: number; version: number }
  | {
      type: 'node';
      id: string;
      name: string;
      nodeid: number;
      online: PveBoolean;
      local: PveBoolean;
      ip: string;
      level: string;
    };

export type ClusterResourceType = 'vm' | 'storage' | 'node';

export interface GuestResource {
  id: string;
  type: 'qemu' | 'lxc';
  vmid: number;
  node: string;
  /** `unknown` (and no name) for a while after a clone: these fields come from statistics broadcast every ~10 s. */
  status: string;
  name?: string;
  template?: PveBoolean;
  maxcpu?: number;
  /** Fraction of `maxcpu`, 0–1. */
  cpu?: number;
  maxmem?: number;
  mem?: number;
  maxdisk?: number;
  disk?: number;
  uptime?: number;
  netin?: number;
  netout?: number;
  diskread?: number;
  diskwrite?: number;
  pool?: string;
  tags?: string;
  lock?: string;
  hastate?: string;
}

export interface NodeResource {
  id: string;
  type: 'node';
  node: string;
  status: string;
  cpu?: number;
  maxcpu?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  uptime?: number;
  level?: string;
}

export interface StorageResource {
  id: string;
  type: 'storage';
  storage: string;
  node: string;
  status: string;
  disk?: number;
  maxdisk?: number;
  shared?: PveBoolean;
  content?: string;
  plugintype?: string;
}

export type ClusterResource = GuestResource | NodeResource | StorageResource;

export interface NodeListEntry {
  node: string;
  status: 'online' | 'offline' | 'unknown';
  id?: string;
  type?: 'node';
  cpu?: number;
  maxcpu?: number;
  mem?: number;
  maxmem?: number;
  disk?: number;
  maxdisk?: number;
  uptime?: number;
  level?: string;
  ssl_fingerprint?: string;
}

export interface NodeStatus {
  cpu: number;
  /** Three load averages as Proxmox formats them (strings). */
  loadavg: string[];
  memory: { total: number; used: number; free: number };
  rootfs: { total: number; used: number; avail: number; free?: number };
  cpuinfo: { cpus: number; sockets: number; model: string; cores?: number; mhz?: string };
  uptime: number;
  pveversion: string;
  kversion?: string;
}

export interface VmListEntry {
  vmid: number;
  /** `VM <vmid>` when the guest has no name. */
  name: string;
  status: string;
  cpus?: number;
  maxmem?: number;
  maxdisk?: number;
  uptime?: number;
  pid?: number;
  template?: PveBoolean;
  tags?: string;
  lock?: string;
}

/** `/nodes/{node}/lxc`: a container on the node. */
export interface ContainerListEntry {
  vmid: number;
  name?: string;
  status: string;
  type?: 'lxc';
  cpus?: number;
  maxmem?: number;
  maxdisk?: number;
  uptime?: number;
  template?: PveBoolean;
  tags?: string;
  lock?: string;
}

/** A container config as `GET …/lxc/{vmid}/config` returns it (the name is `hostname`). */
export interface ContainerConfig {
  digest: string;
  hostname?: string;
  onboot?: PveBoolean;
  template?: PveBoolean;
  [key: string]: string | number | undefined;
}

/** `/cluster/backup-info/not-backed-up`: a guest that no backup job covers. */
export interface NotBackedUpGuest {
  vmid: number;
  type: 'qemu' | 'lxc';
  /** From the guest's config; absent when it has none. */
  name?: string;
}

/**
 * `/cluster/config/qdevice`: the lines of corosync-qdevice's status under their own names (`Model`,
 * `Algorithm`, `QNetd host`, `Tie-breaker`, `State`, …); `{}` when the cluster has no QDevice.
 */
export type QdeviceStatus = Record<string, string>;

/**
 * `/access/permissions`: ACL path → privilege → Proxmox's propagate flag (1: the rule granting it also
 * reaches the paths below; 0: it holds on that path only).
 */
export type EffectivePermissions = Record<string, Record<string, PveBoolean>>;

/** A storage replication job as `/nodes/{node}/replication` and `…/{id}/status` report it. */
export interface ReplicationJobStatus {
  /** `<vmid>-<jobnum>` */
  id: string;
  jobnum: number;
  guest: number;
  vmtype: 'qemu' | 'lxc';
  type: string;
  source?: string;
  target: string;
  schedule?: string;
  /** Unix times in seconds. */
  last_sync?: number;
  last_try?: number;
  next_sync?: number;
  /** Seconds the last run took. */
  duration?: number;
  fail_count?: number;
  error?: string;
}

/** `/nodes/{node}/subscription`; without a key: `status: 'notfound'` and no level. */
export interface Subscription {
  status: string;
  message?: string;
  /** `c`, `b`, `s` or `p` (community, basic, standard, premium). */
  level?: string;
  /** `YYYY-MM-DD` */
  nextduedate?: string;
  productname?: string;
  key?: string;
  checktime?: number;
  regdate?: string;
  sockets?: number;
  /** Shown only to callers with Sys.Audit on the node. */
  serverid?: string;
  url?: string;
}

export interface NodeStorage {
  storage: string;
  type: string;
  content: string;
  active?: PveBoolean;
  enabled?: PveBoolean;
  shared?: PveBoolean;
  total?: number;
  used?: number;
  avail?: number;
  used_fraction?: number;
}

export interface StorageStatus {
  total: number;
  used: number;
  avail: number;
  active: PveBoolean;
  enabled: PveBoolean;
  type: string;
  shared: PveBoolean;
  content?: string;
}

export type StorageContentType = 'images' | 'rootdir' | 'iso' | 'vztmpl' | 'backup' | 'snippets' | 'import';

export interface StorageVolume {
  volid: string;
  format: string;
  size: number;
  content: string;
  ctime?: number;
  vmid?: number;
  subtype?: string;
  notes?: string;
  protected?: PveBoolean;
  used?: number;
  parent?: string;
}

export interface StorageUpload {
  content: 'iso' | 'vztmpl' | 'import';
  /** The name the file gets on the storage (Proxmox normalises it). */
  filename: string;
  data: Blob | Uint8Array;
  checksum?: string;
  checksumAlgorithm?: 'md5' | 'sha1' | 'sha224' | 'sha256' | 'sha384' | 'sha512';
}

export interface CloneParams {
  newid: number;
  name?: string;
  description?: string;
  pool?: string;
  snapname?: string;
  /** Full clones only. */
  storage?: string;
  format?: 'raw' | 'qcow2' | 'vmdk';
  /** Templates default to a linked clone. */
  full?: boolean;
  /** Another node; needs shared storage. */
  target?: string;
}

/**
 * A VM config as `GET config` returns it: integer and boolean keys are numbers, property strings
 * (`memory`, `net0`, `scsi0`, …) are strings.
 */
export interface VmConfig {
  digest: string;
  name?: string;
  description?: string;
  cores?: number;
  sockets?: number;
  cpu?: string;
  cpuunits?: number;
  cpulimit?: string;
  /** MiB as a string (a property string since PVE 8.1). */
  memory?: string;
  template?: PveBoolean;
  tags?: string;
  lock?: string;
  onboot?: PveBoolean;
  protection?: PveBoolean;
  sshkeys?: string;
  ipconfig0?: string;
  nameserver?: string;
  searchdomain?: string;
  ciuser?: string;
  cipassword?: string;
  citype?: string;
  cicustom?: string;
  smbios1?: string;
  [key: string]: string | number | undefined;
}

/** Values to set with the config POST/PUT. Lists are joined the way each parameter wants. */
export interface VmConfigUpdate {
  /** Keys to remove. */
  delete?: readonly string[];
  /** Pending changes to drop. */
  revert?: readonly string[];
  /** Fails with `checksum mismatch` if the config changed since this digest was read. */
  digest?: string;
  skiplock?: boolean;
  /** Plain public keys; encoded the way Proxmox stores them. */
  sshkeys?: readonly string[];
  tags?: readonly string[];
  name?: string;
  description?: string;
  cores?: number;
  sockets?: number;
  memory?: number;
  [key: string]: string | number | boolean | readonly string[] | undefined;
}

export interface PendingEntry {
  key: string;
  value?: string | number;
  pending?: string | number;
  delete?: 0 | 1 | 2;
}

export interface ResizeParams {
  disk: string;
  /** `32G` (absolute) or `+10G` (growth). */
  size: string;
  digest?: string;
  skiplock?: boolean;
}

export interface VmStatus {
  status: 'running' | 'stopped';
  qmpstatus?: string;
  name?: string;
  vmid: number;
  cpus?: number;
  maxmem?: number;
  mem?: number;
  maxdisk?: number;
  disk?: number;
  uptime?: number;
  cpu?: number;
  netin?: number;
  netout?: number;
  diskread?: number;
  diskwrite?: number;
  pid?: number;
  lock?: string;
  tags?: string;
  template?: PveBoolean;
  ha?: { managed: PveBoolean; [key: string]: unknown };
  agent?: PveBoolean;
}

export interface StartParams {
  skiplock?: boolean;
  timeout?: number;
}

export interface StopParams {
  skiplock?: boolean;
  timeout?: number;
  keepActive?: boolean;
  overruleShutdown?: boolean;
}

export interface ShutdownParams {
  skiplock?: boolean;
  /** Seconds; Proxmox's default is 60. */
  timeout?: number;
  /** Stop the VM if it has not shut down within the timeout. */
  forceStop?: boolean;
  keepActive?: boolean;
}

export interface RebootParams {
  timeout?: number;
}

export interface DeleteVmParams {
  /** Also removes the VM from backup jobs, replication and HA. */
  purge?: boolean;
  destroyUnreferencedDisks?: boolean;
  skiplock?: boolean;
}

export interface Snapshot {
  name: string;
  description?: string;
  snaptime?: number;
  vmstate?: PveBoolean;
  parent?: string;
  running?: PveBoolean;
  digest?: string;
}

export interface CreateSnapshotParams {
  snapname: string;
  description?: string;
  /** Also save the RAM of a running VM. */
  vmstate?: boolean;
}

export type FirewallRuleType = 'in' | 'out' | 'group' | 'forward';

export interface FirewallRule {
  pos: number;
  type: FirewallRuleType;
  action: string;
  enable?: PveBoolean;
  proto?: string;
  dport?: string;
  sport?: string;
  source?: string;
  dest?: string;
  macro?: string;
  iface?: string;
  log?: string;
  comment?: string;
  digest?: string;
  ipversion?: number;
}

export interface FirewallRuleParams {
  type: FirewallRuleType;
  /** `ACCEPT`, `DROP`, `REJECT` or a security group name. */
  action: string;
  /** Proxmox defaults this to disabled. */
  enable?: boolean;
  proto?: string;
  /** `25,465,587` or `80:85`; needs `proto`. */
  dport?: string;
  sport?: string;
  source?: string;
  dest?: string;
  macro?: string;
  iface?: string;
  log?: string;
  comment?: string;
  /** Insert at this position instead of at the top. */
  pos?: number;
  digest?: string;
}

export type FirewallRuleUpdate = Partial<Omit<FirewallRuleParams, 'pos'>> & {
  /** Move the rule to this position. */
  moveto?: number;
  delete?: readonly string[];
};

export interface FirewallOptions {
  enable?: PveBoolean;
  policy_in?: string;
  policy_out?: string;
  dhcp?: PveBoolean;
  macfilter?: PveBoolean;
  ipfilter?: PveBoolean;
  ndp?: PveBoolean;
  radv?: PveBoolean;
  log_level_in?: string;
  log_level_out?: string;
  digest?: string;
}

export interface FirewallOptionsUpdate {
  enable?: boolean;
  policy_in?: 'ACCEPT' | 'DROP' | 'REJECT';
  policy_out?: 'ACCEPT' | 'DROP' | 'REJECT';
  dhcp?: boolean;
  macfilter?: boolean;
  ipfilter?: boolean;
  ndp?: boolean;
  radv?: boolean;
  log_level_in?: string;
  log_level_out?: string;
  delete?: readonly string[];
  digest?: string;
}

export interface VzdumpParams {
  vmid: number;
  mode?: 'snapshot' | 'suspend' | 'stop';
  compress?: '0' | '1' | 'gzip' | 'lzo' | 'zstd';
  storage?: string;
  remove?: boolean;
  notesTemplate?: string;
  /** E.g. `keep-last=7`. */
  pruneBackups?: string;
  protected?: boolean;
}

/**
 * Proxmox starts a task only on the node holding the VM; asked on another node it answers the plain
 * string `OK` and does nothing there.
 */
export type VzdumpResult = { kind: 'task'; upid: string } | { kind: 'not-on-this-node' };

export interface RestoreParams {
  vmid: number;
  /** Backup volume id, e.g. `local:backup/vzdump-qemu-100-….vma.zst`. */
  archive: string;
  storage?: string;
  /** Overwrite an existing VM with this VMID. */
  force?: boolean;
  /** New MAC addresses instead of the backup's. */
  unique?: boolean;
  start?: boolean;
  pool?: string;
}

export interface VncProxy {
  user: string;
  /** `<8-char password>:PVEVNC:…`: valid from 20 s before to 40 s after it was issued. */
  ticket: string;
  password?: string;
  cert: string;
  port: number;
  upid: string;
}

export interface TaskStatus {
  upid: string;
  node: string;
  pid: number;
  pstart: number;
  starttime: number;
  type: string;
  id: string;
  user: string;
  tokenid?: string;
  status: 'running' | 'stopped';
  /** Present once stopped: `OK`, `WARNINGS: n`, an error text, or `unexpected status`. */
  exitstatus?: string;
}

export interface TaskLogLine {
  n: number;
  t: string;
}
