import {
  integerBetween,
  maxLength,
  optional,
  required,
  validate,
  type FieldErrors,
} from '../../ui/form-validation.js';

export interface NodeValues {
  readonly platformId: string;
  readonly name: string;
  readonly regionId: string;
  readonly vmStorageDestination: string;
  readonly backupStorageDestination: string;
  readonly backupStorageCompression: string;
  readonly vmidSeed: string;
  readonly cpuOverallocatePercent: string;
  readonly memoryOverallocatePercent: string;
  readonly storageOverallocatePercent: string;
  readonly computeType: string;
  readonly networkBridge: string;
  readonly networkName: string;
  readonly networkModel: string;
  readonly networkVlanId: string;
  readonly macAddressPrefix: string;
  readonly proxmoxCpuType: string;
}

/** The defaults of seed 003, pre-filled so only an unusual network layout needs changes. */
export const NEW_NODE: NodeValues = {
  platformId: '',
  name: '',
  regionId: '',
  vmStorageDestination: 'local-lvm',
  backupStorageDestination: 'local',
  backupStorageCompression: 'BACKUP_STORAGE_COMPRESSION_ZSTD',
  vmidSeed: '1000',
  cpuOverallocatePercent: '100',
  memoryOverallocatePercent: '100',
  storageOverallocatePercent: '100',
  computeType: 'NODE_COMPUTE_TYPE_SHARED',
  networkBridge: 'vmbr0',
  networkName: 'net0',
  networkModel: 'virtio',
  networkVlanId: '0',
  macAddressPrefix: 'BC:24:11',
  proxmoxCpuType: 'host',
};

const percent = integerBetween(1, 1000);
const choose = (what: string) => (v: string) => (v === '' ? `Choose ${what}.` : undefined);

/** The API's node rules (VMIDs 100–999999999, VLAN 0 or 1–4094, percentages 1–1000, …). */
export function validateNode(values: NodeValues): FieldErrors {
  return validate(
    { ...values },
    {
      platformId: [choose('a platform')],
      name: [
        required,
        maxLength(63),
        (v) =>
          /^[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/.test(v)
            ? undefined
            : 'Use the node name exactly as Proxmox shows it.',
      ],
      regionId: [choose('a region')],
      vmStorageDestination: [required, maxLength(64)],
      backupStorageDestination: [required, maxLength(64)],
      vmidSeed: [required, integerBetween(100, 999_999_999)],
      cpuOverallocatePercent: [required, percent],
      memoryOverallocatePercent: [required, percent],
      storageOverallocatePercent: [required, percent],
      networkBridge: [required, maxLength(15)],
      networkName: [
        required,
        (v) => (/^net([0-9]|[12][0-9]|3[01])$/.test(v) ? undefined : 'Use net0 to net31.'),
      ],
      networkVlanId: [
        required,
        (v) =>
          v.trim() === '0'
            ? undefined
            : integerBetween(1, 4094)(v) && 'Use 0 (untagged) or a tag from 1 to 4094.',
      ],
      macAddressPrefix: [
        optional((v) =>
          /^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){2}$/.test(v.trim())
            ? undefined
            : 'Use three octets like BC:24:11.',
        ),
      ],
      proxmoxCpuType: [required, maxLength(64)],
    },
  );
}

/** `POST /v1/node`. */
export function nodeRequest(values: NodeValues) {
  return {
    platformId: values.platformId,
    name: values.name.trim(),
    regionId: values.regionId,
    vmStorageDestination: values.vmStorageDestination.trim(),
    backupStorageDestination: values.backupStorageDestination.trim(),
    backupStorageCompression: values.backupStorageCompression,
    vmidSeed: Number(values.vmidSeed),
    cpuOverallocatePercent: Number(values.cpuOverallocatePercent),
    memoryOverallocatePercent: Number(values.memoryOverallocatePercent),
    storageOverallocatePercent: Number(values.storageOverallocatePercent),
    computeType: values.computeType,
    networkBridge: values.networkBridge.trim(),
    networkName: values.networkName.trim(),
    networkModel: values.networkModel,
    networkVlanId: Number(values.networkVlanId),
    macAddressPrefix: values.macAddressPrefix.trim().toUpperCase(),
    proxmoxCpuType: values.proxmoxCpuType.trim(),
  };
}
