import { randomUUID } from 'node:crypto';
import { die, noConfigFile } from './pve-error.js';

/** Everything the simulated cluster holds; plain data so that it can be saved and loaded as JSON. */
export interface ClusterState {
  name: string;
  nodes: SimNode[];
  vms: Record<number, SimVm>;
  /** `/etc/pve/firewall/<vmid>.fw`: exists independently of the VM, as in PVE. */
  firewalls: Record<number, FirewallState>;
  /** Keyed by `${node}/${volid}`: storages here are local to their node. */
  volumes: Record<string, Volume>;
  macPrefix: string;
  nextMac: number;
}

export interface SimNode {
  name: string;
  nodeid: number;
  ip: string;
  cpus: number;
  memoryBytes: number;
  bootedAt: number;
  storages: SimStorage[];
}

export interface SimStorage {
  id: string;
  type: 'dir' | 'lvmthin';
  content: string[];
  totalBytes: number;
  /** Space used by things that are not volumes (the OS, other files). */
  baseUsedBytes: number;
  shared: boolean;
}

type VolumeContent = 'images' | 'iso' | 'vztmpl' | 'backup' | 'snippets' | 'import';

export interface Volume {
  volid: string;
  node: string;
  storage: string;
  content: VolumeContent;
  format: string;
  size: number;
  ctime: number;
  vmid?: number;
  notes?: string;
  protected?: boolean;
  /** Uploaded bytes, base64 (so that the state stays JSON). */
  dataBase64?: string;
  backup?: BackupPayload;
}

export interface BackupPayload {
  config: Record<string, string>;
  firewall?: FirewallState;
}

export interface FirewallRule {
  type: string;
  action: string;
  enable: number;
  proto?: string;
  dport?: string;
  sport?: string;
  source?: string;
  dest?: string;
  macro?: string;
  iface?: string;
  log?: string;
  comment?: string;
  'icmp-type'?: string;
}

export interface FirewallState {
  rules: FirewallRule[];
  options: Record<string, string | number>;
}

interface Snapshot {
  name: string;
  description: string;
  snaptime: number;
  parent?: string;
  vmstate: boolean;
  config: Record<string, string>;
}

export interface SimVm {
  vmid: number;
  node: string;
  /** Every key as PVE stores it in the config file, as a string. */
  config: Record<string, string>;
  pending: Record<string, string>;
  pendingDelete: string[];
  running: boolean;
  startedAt?: number;
  pid?: number;
  snapshots: Snapshot[];
  /** The snapshot the current state descends from. */
  parent?: string;
  /** The operating system the guest boots (shown on its console); clones inherit it from the template. */
  osName?: string;
  /** Test control: a guest that ignores ACPI shutdown requests. */
  ignoreShutdown: boolean;
}

export function findVm(state: ClusterState, vmid: number): SimVm | undefined {
  return state.vms[vmid];
}

/** The VM whose config file is on `node`, or PVE's "does not exist" error. */
export function vmOnNode(state: ClusterState, node: string, vmid: number): SimVm {
  const vm = state.vms[vmid];
  if (vm?.node !== node) throw noConfigFile(node, vmid);
  return vm;
}

function findNode(state: ClusterState, name: string): SimNode | undefined {
  return state.nodes.find((n) => n.name === name);
}

export function requireNode(state: ClusterState, name: string): SimNode {
  const node = findNode(state, name);
  if (!node)
    throw die(
      `hostname lookup '${name}' failed - failed to get address info for: ${name}: Name or service not known`,
    );
  return node;
}

export function requireStorage(node: SimNode, sid: string): SimStorage {
  const storage = node.storages.find((s) => s.id === sid);
  if (!storage) throw die(`storage '${sid}' does not exist`);
  return storage;
}

function storageUsed(state: ClusterState, node: string, sid: string): number {
  let used = 0;
  for (const v of Object.values(state.volumes)) if (v.node === node && v.storage === sid) used += v.size;
  const storage = findNode(state, node)?.storages.find((s) => s.id === sid);
  return used + (storage?.baseUsedBytes ?? 0);
}

export function storageAvail(state: ClusterState, node: string, storage: SimStorage): number {
  return Math.max(0, storage.totalBytes - storageUsed(state, node, storage.id));
}

function volumeKey(node: string, volid: string): string {
  return `${node}/${volid}`;
}

export function addVolume(state: ClusterState, volume: Volume): void {
  state.volumes[volumeKey(volume.node, volume.volid)] = volume;
}

export function removeVolume(state: ClusterState, node: string, volid: string): void {
  // eslint-disable-next-line @typescript-eslint/no-dynamic-delete -- the volume map is keyed by id
  delete state.volumes[volumeKey(node, volid)];
}

export function getVolume(state: ClusterState, node: string, volid: string): Volume | undefined {
  return state.volumes[volumeKey(node, volid)];
}

/** The next MAC of the datacenter's prefix: unique within the simulated cluster. */
export function generateMac(state: ClusterState): string {
  const n = state.nextMac++;
  const tail = [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff].map((b) => b.toString(16).padStart(2, '0'));
  return `${state.macPrefix}:${tail.join(':')}`.toUpperCase();
}

export function newSmbiosUuid(): string {
  return `uuid=${randomUUID()}`;
}

export function newVmgenid(): string {
  return randomUUID();
}

export function vmName(vm: SimVm): string {
  return vm.config.name ?? `VM ${vm.vmid}`;
}
