import type { FieldViolation } from './domain-error.js';

/**
 * A node's VM provisioning and capacity settings: the rules every value must follow, and the defaults a
 * provider gets when they leave a field out. The syntax rules are Proxmox's own (qemu-server, pve-storage),
 * so that a value accepted here is one the operator can hand to Proxmox later.
 */

/** What is wrong with a value, phrased as a field violation's description; undefined when it is valid. */
export type Problem = string | undefined;

export const BACKUP_STORAGE_COMPRESSIONS = [
  'BACKUP_STORAGE_COMPRESSION_NONE',
  'BACKUP_STORAGE_COMPRESSION_LZO',
  'BACKUP_STORAGE_COMPRESSION_GZIP',
  'BACKUP_STORAGE_COMPRESSION_ZSTD',
] as const;
export type BackupStorageCompression = (typeof BACKUP_STORAGE_COMPRESSIONS)[number];

/** DEDICATED pins physical cores to VMs, so its CPU can never be oversold. */
export const NODE_COMPUTE_TYPES = ['NODE_COMPUTE_TYPE_SHARED', 'NODE_COMPUTE_TYPE_DEDICATED'] as const;
export type NodeComputeType = (typeof NODE_COMPUTE_TYPES)[number];

/** The NIC models the ProxmoxVM custom resource accepts. */
export const NIC_MODELS = ['virtio', 'e1000', 'rtl8139', 'vmxnet3'] as const;
export type NicModel = (typeof NIC_MODELS)[number];

/** Proxmox's VMID range (`^[1-9][0-9]{2,8}$`). */
export const MIN_VMID = 100;
export const MAX_VMID = 999_999_999;

export const UNTAGGED_VLAN_ID = 0;
/** 802.1Q reserves 0 (priority tag) and 4095; Proxmox's `tag=` takes the rest. */
export const MIN_VLAN_ID = 1;
export const MAX_VLAN_ID = 4094;

/** Selling exactly the physical capacity. */
export const NO_OVERALLOCATION_PERCENT = 100;
/** Below 100 keeps headroom for the host itself (ZFS ARC, Ceph daemons). */
export const MIN_OVERALLOCATE_PERCENT = 1;
/** Ten times the physical capacity: beyond this a node is contended whatever its load, so it is a typo. */
export const MAX_OVERALLOCATE_PERCENT = 1000;

/** qemu-server's MAX_NETS: NIC keys run from net0 up to one less. */
const MAX_NET_DEVICES = 32;

/** A node name is a host name label. */
const MAX_NODE_NAME_LENGTH = 63;
/** Linux interface names (IFNAMSIZ less the terminating NUL). */
const MAX_NETWORK_BRIDGE_LENGTH = 15;
/** Proxmox sets no limit on these; ours keeps them displayable and the request small. */
const MAX_STORAGE_ID_LENGTH = 64;
const MAX_PROXMOX_CPU_TYPE_LENGTH = 64;

export const DEFAULT_NETWORK_BRIDGE = 'vmbr0';
export const DEFAULT_NETWORK_NAME = 'net0';
export const DEFAULT_NIC_MODEL: NicModel = 'virtio';
/** Proxmox's own prefix for the MACs it generates (datacenter `mac_prefix`). */
export const DEFAULT_MAC_ADDRESS_PREFIX = 'BC:24:11';
export const DEFAULT_PROXMOX_CPU_TYPE = 'host';
export const DEFAULT_NODE_COMPUTE_TYPE: NodeComputeType = 'NODE_COMPUTE_TYPE_SHARED';

/** Everything a node carries for the VMs placed on it; VMs copy these when they are ordered. */
export interface NodeSettings {
  readonly vmidSeed: number;
  readonly vmStorageDestination: string;
  readonly backupStorageDestination: string;
  readonly backupStorageCompression: BackupStorageCompression;
  readonly cpuOverallocatePercent: number;
  readonly memoryOverallocatePercent: number;
  readonly storageOverallocatePercent: number;
  readonly computeType: NodeComputeType;
  readonly networkBridge: string;
  readonly networkName: string;
  readonly networkModel: NicModel;
  readonly networkVlanId: number;
  readonly macAddressPrefix: string;
  readonly proxmoxCpuType: string;
}

/** The settings a provider may leave out when adding a node: the storage targets and VMID seed have no sane default. */
export const NODE_SETTING_DEFAULTS = {
  cpuOverallocatePercent: NO_OVERALLOCATION_PERCENT,
  memoryOverallocatePercent: NO_OVERALLOCATION_PERCENT,
  storageOverallocatePercent: NO_OVERALLOCATION_PERCENT,
  computeType: DEFAULT_NODE_COMPUTE_TYPE,
  networkBridge: DEFAULT_NETWORK_BRIDGE,
  networkName: DEFAULT_NETWORK_NAME,
  networkModel: DEFAULT_NIC_MODEL,
  networkVlanId: UNTAGGED_VLAN_ID,
  macAddressPrefix: DEFAULT_MAC_ADDRESS_PREFIX,
  proxmoxCpuType: DEFAULT_PROXMOX_CPU_TYPE,
} as const satisfies Partial<NodeSettings>;

/** Settings as a provider gives them when adding a node: those with a default may be left out. */
export type NodeSettingsInput = Omit<NodeSettings, keyof typeof NODE_SETTING_DEFAULTS> &
  Partial<Pick<NodeSettings, keyof typeof NODE_SETTING_DEFAULTS>>;

export function withNodeSettingDefaults(input: NodeSettingsInput): NodeSettings {
  const d = NODE_SETTING_DEFAULTS;
  return {
    vmidSeed: input.vmidSeed,
    vmStorageDestination: input.vmStorageDestination,
    backupStorageDestination: input.backupStorageDestination,
    backupStorageCompression: input.backupStorageCompression,
    cpuOverallocatePercent: input.cpuOverallocatePercent ?? d.cpuOverallocatePercent,
    memoryOverallocatePercent: input.memoryOverallocatePercent ?? d.memoryOverallocatePercent,
    storageOverallocatePercent: input.storageOverallocatePercent ?? d.storageOverallocatePercent,
    computeType: input.computeType ?? d.computeType,
    networkBridge: input.networkBridge ?? d.networkBridge,
    networkName: input.networkName ?? d.networkName,
    networkModel: input.networkModel ?? d.networkModel,
    networkVlanId: input.networkVlanId ?? d.networkVlanId,
    macAddressPrefix: input.macAddressPrefix ?? d.macAddressPrefix,
    proxmoxCpuType: input.proxmoxCpuType ?? d.proxmoxCpuType,
  };
}

// pve-common's node name format: a host name label, so no dots.
const NODE_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
// pve-storage's parse_id: a letter first, letters, digits, '-', '_' and '.' inside, no separator last.
const STORAGE_ID = /^[A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9]$/;
const NETWORK_BRIDGE = /^[A-Za-z][A-Za-z0-9_.-]*$/;
const NET_DEVICE = /^net(0|[1-9][0-9]?)$/;
// Built-in models (host, x86-64-v2-AES, EPYC-Rome) and custom ones (custom-<name>).
const PROXMOX_CPU_TYPE = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;
const MAC_ADDRESS_PREFIX = /^[0-9A-Fa-f]{2}(?::[0-9A-Fa-f]{2}){2}$/;
/** The I/G bit of the first octet: set means a group (multicast) address, which no NIC may own. */
const MULTICAST_BIT = 0x01;

export function isBackupStorageCompression(value: string): value is BackupStorageCompression {
  return (BACKUP_STORAGE_COMPRESSIONS as readonly string[]).includes(value);
}

export function isNodeComputeType(value: string): value is NodeComputeType {
  return (NODE_COMPUTE_TYPES as readonly string[]).includes(value);
}

export function isNicModel(value: string): value is NicModel {
  return (NIC_MODELS as readonly string[]).includes(value);
}

/** Only the syntax: whether the hypervisor has such a node is learned once metrics arrive. */
export function nodeNameProblem(name: string): Problem {
  if (name.length > MAX_NODE_NAME_LENGTH) return `must be at most ${MAX_NODE_NAME_LENGTH} characters`;
  if (!NODE_NAME.test(name))
    return 'must be the Proxmox node name: letters, digits and hyphens, not starting or ending with a hyphen';
  return undefined;
}

export function storageIdProblem(id: string): Problem {
  if (id.length > MAX_STORAGE_ID_LENGTH) return `must be at most ${MAX_STORAGE_ID_LENGTH} characters`;
  if (!STORAGE_ID.test(id))
    return 'must be a Proxmox storage id like local-lvm: a letter first, then letters, digits, "-", "_" or "."';
  return undefined;
}

export function networkBridgeProblem(bridge: string): Problem {
  if (bridge.length > MAX_NETWORK_BRIDGE_LENGTH)
    return `must be at most ${MAX_NETWORK_BRIDGE_LENGTH} characters`;
  if (!NETWORK_BRIDGE.test(bridge))
    return 'must be a Linux bridge name like vmbr0: a letter first, then letters, digits, "-", "_" or "."';
  return undefined;
}

export function networkNameProblem(device: string): Problem {
  const match = NET_DEVICE.exec(device);
  if (match === null || Number(match[1]) >= MAX_NET_DEVICES)
    return `must be a Proxmox net device key from net0 to net${MAX_NET_DEVICES - 1}`;
  return undefined;
}

export function networkVlanIdProblem(vlanId: number): Problem {
  if (
    vlanId === UNTAGGED_VLAN_ID ||
    (Number.isInteger(vlanId) && vlanId >= MIN_VLAN_ID && vlanId <= MAX_VLAN_ID)
  )
    return undefined;
  return `must be ${UNTAGGED_VLAN_ID} (untagged) or a VLAN tag from ${MIN_VLAN_ID} to ${MAX_VLAN_ID}`;
}

export function macAddressPrefixProblem(prefix: string): Problem {
  if (!MAC_ADDRESS_PREFIX.test(prefix)) return 'must be three hexadecimal octets like BC:24:11';
  if ((parseInt(prefix.slice(0, 2), 16) & MULTICAST_BIT) !== 0)
    return 'must be a unicast prefix: the first octet must be even';
  return undefined;
}

/** The spelling stored and shown, the one Proxmox writes into `netN`. */
export function normalizeMacAddressPrefix(prefix: string): string {
  return prefix.toUpperCase();
}

export function proxmoxCpuTypeProblem(cpuType: string): Problem {
  if (cpuType.length > MAX_PROXMOX_CPU_TYPE_LENGTH)
    return `must be at most ${MAX_PROXMOX_CPU_TYPE_LENGTH} characters`;
  if (!PROXMOX_CPU_TYPE.test(cpuType))
    return 'must be a Proxmox CPU type like host or x86-64-v2-AES (custom types as custom-<name>)';
  return undefined;
}

export function vmidSeedProblem(seed: number): Problem {
  if (Number.isInteger(seed) && seed >= MIN_VMID && seed <= MAX_VMID) return undefined;
  return `must be a Proxmox VMID from ${MIN_VMID} to ${MAX_VMID}`;
}

export function overallocatePercentProblem(percent: number): Problem {
  if (Number.isInteger(percent) && percent >= MIN_OVERALLOCATE_PERCENT && percent <= MAX_OVERALLOCATE_PERCENT)
    return undefined;
  return `must be a whole percentage from ${MIN_OVERALLOCATE_PERCENT} to ${MAX_OVERALLOCATE_PERCENT} (${NO_OVERALLOCATION_PERCENT} sells exactly the physical capacity)`;
}

/** The CPU rule depends on the compute type: a dedicated node's cores are pinned, so they cannot be oversold. */
function cpuOverallocatePercentProblem(settings: NodeSettings): Problem {
  if (settings.computeType !== 'NODE_COMPUTE_TYPE_DEDICATED')
    return overallocatePercentProblem(settings.cpuOverallocatePercent);
  if (settings.cpuOverallocatePercent === NO_OVERALLOCATION_PERCENT) return undefined;
  return `must be ${NO_OVERALLOCATION_PERCENT} on a dedicated node: pinned cores cannot be oversold`;
}

/**
 * Every rule on a complete set of settings, including those that tie fields together, with the settings'
 * own names as field paths. Empty when the settings are valid.
 */
export function nodeSettingsViolations(settings: NodeSettings): FieldViolation[] {
  const problems: [keyof NodeSettings, Problem][] = [
    ['vmidSeed', vmidSeedProblem(settings.vmidSeed)],
    ['vmStorageDestination', storageIdProblem(settings.vmStorageDestination)],
    ['backupStorageDestination', storageIdProblem(settings.backupStorageDestination)],
    ['cpuOverallocatePercent', cpuOverallocatePercentProblem(settings)],
    ['memoryOverallocatePercent', overallocatePercentProblem(settings.memoryOverallocatePercent)],
    ['storageOverallocatePercent', overallocatePercentProblem(settings.storageOverallocatePercent)],
    ['networkBridge', networkBridgeProblem(settings.networkBridge)],
    ['networkName', networkNameProblem(settings.networkName)],
    ['networkVlanId', networkVlanIdProblem(settings.networkVlanId)],
    ['macAddressPrefix', macAddressPrefixProblem(settings.macAddressPrefix)],
    ['proxmoxCpuType', proxmoxCpuTypeProblem(settings.proxmoxCpuType)],
  ];
  return problems.flatMap(([field, description]) =>
    description === undefined ? [] : [{ field, description }],
  );
}
