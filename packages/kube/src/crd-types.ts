import type { KubeObject, ObjectMeta } from './kube-object.js';

// Kept in lock-step with ../crds/*.yaml by crd-types.test.ts. Fields the API server defaults are
// optional here because a client may leave them out when it creates an object.

export const CRD_GROUP = 'vm.noderings.com';
export const CRD_VERSION = 'v1alpha1';
export const CRD_API_VERSION = `${CRD_GROUP}/${CRD_VERSION}`;

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface Condition {
  /** CamelCase, e.g. `Ready`. */
  type: string;
  status: ConditionStatus;
  /** CamelCase machine-readable cause, e.g. `CloneFailed`. */
  reason: string;
  message: string;
  /** The metadata.generation this condition was computed from. */
  observedGeneration?: number;
  /** Changes only when `status` flips. */
  lastTransitionTime: string;
}

/** Status fields every one of our kinds has. */
export interface CommonStatus {
  phase?: string;
  message?: string;
  observedGeneration?: number;
  conditions?: Condition[];
}

interface CustomResource<Kind extends string, Spec, Status> extends KubeObject {
  apiVersion?: typeof CRD_API_VERSION;
  kind?: Kind;
  metadata?: ObjectMeta;
  spec: Spec;
  status?: Status;
}

export type PowerState = 'Running' | 'Stopped';
export type NicModel = 'virtio' | 'e1000' | 'rtl8139' | 'vmxnet3';
export type BackupCompression = 'none' | 'lzo' | 'gzip' | 'zstd';

export interface ProxmoxVMSpec {
  /** The control plane's VM id (uuid); the Proxmox guest is named `NR-{vmId}`. */
  vmId: string;
  /** Proxmox instance whose credentials Secret to use; defaults to `default`. */
  instance?: string;
  node: string;
  vmid: number;
  templateVmid: number;
  cpu: {
    cores: number;
    sockets?: number;
    type?: string;
    units?: number;
    /** Cores; 0 is unlimited. */
    limit?: number;
  };
  memoryMiB: number;
  disk: { storage: string; sizeGiB: number };
  network: {
    bridge?: string;
    device?: string;
    model?: NicModel;
    /** 0 is untagged. */
    vlan?: number;
    /** Upper-case, as Proxmox stores it. */
    mac: string;
    /** 0 is unlimited. */
    rateLimitMBps?: number;
    ipv4: { address: string; gateway: string };
    ipv6?: { address: string; gateway: string };
    nameservers?: string[];
  };
  cloudInitSecretRef: string;
  powerState?: PowerState;
  rebootRequestedAt?: string;
  smtpBlocked?: boolean;
  firewallRuleSetRef?: string;
  backupPolicy?: {
    schedule: string;
    retention: number;
    storage: string;
    compression?: BackupCompression;
  };
  tags?: string[];
}

export type ProxmoxVMPhase = 'Pending' | 'Provisioning' | 'Running' | 'Stopped' | 'Deleting' | 'Failed';

export interface ProxmoxVMStatus extends CommonStatus {
  phase?: ProxmoxVMPhase;
  vmid?: number;
  node?: string;
  mac?: string;
  powerState?: PowerState;
  lastRebootAt?: string;
  /** UPID of the task in flight. */
  taskRef?: string;
}

export type ProxmoxVM = CustomResource<'ProxmoxVM', ProxmoxVMSpec, ProxmoxVMStatus>;

export interface VNCRequestSpec {
  vmRef: string;
}

export interface VNCRequestStatus extends CommonStatus {
  phase?: 'Pending' | 'Ready' | 'Expired' | 'Failed';
  node?: string;
  vmid?: number;
  port?: number;
  ticket?: string;
  password?: string;
  expiresAt?: string;
}

export type VNCRequest = CustomResource<'VNCRequest', VNCRequestSpec, VNCRequestStatus>;

export interface ProxmoxInventorySpec {
  /** The Proxmox instance (credentials Secret label) described. */
  instance: string;
}

/** One Proxmox node as the operator last read it; no guest but templates is recorded. */
export interface ProxmoxInventoryNode {
  name: string;
  online: boolean;
  /** VMIDs of the node's templates, ascending. */
  templateVmids: number[];
}

export interface ProxmoxInventoryStatus extends CommonStatus {
  /** Ready once Proxmox was read; Failed while it cannot be (the last nodes read stay). */
  phase?: 'Pending' | 'Ready' | 'Failed';
  /** When Proxmox was last read successfully. */
  observedAt?: string;
  nodes?: ProxmoxInventoryNode[];
}

export type ProxmoxInventory = CustomResource<
  'ProxmoxInventory',
  ProxmoxInventorySpec,
  ProxmoxInventoryStatus
>;

export interface FirewallRule {
  direction: 'in' | 'out';
  action: 'ACCEPT' | 'DROP' | 'REJECT';
  protocol?: string;
  sourcePorts?: string;
  destinationPorts?: string;
  sources?: string[];
  destinations?: string[];
  comment?: string;
}

export interface FirewallRuleSetSpec {
  rules: FirewallRule[];
}

export interface FirewallRuleSetStatus extends CommonStatus {
  phase?: 'Pending' | 'Applied' | 'Failed';
  ruleCount?: number;
}

export type FirewallRuleSet = CustomResource<'FirewallRuleSet', FirewallRuleSetSpec, FirewallRuleSetStatus>;

export type BackupPhase = 'Pending' | 'Running' | 'Completed' | 'Failed';

export interface VMBackupSpec {
  vmRef: string;
  storage: string;
  compression?: BackupCompression;
  mode?: 'snapshot';
  restore?: { requestedAt: string; start?: boolean };
}

export interface VMBackupStatus extends CommonStatus {
  phase?: BackupPhase;
  volid?: string;
  sizeBytes?: number;
  startedAt?: string;
  finishedAt?: string;
  taskRef?: string;
  restore?: { phase?: BackupPhase; requestedAt?: string; message?: string };
}

export type VMBackup = CustomResource<'VMBackup', VMBackupSpec, VMBackupStatus>;

export interface VMSnapshotSpec {
  vmRef: string;
  snapshotName: string;
  description?: string;
  rollbackRequestedAt?: string;
}

export interface VMSnapshotStatus extends CommonStatus {
  phase?: 'Pending' | 'Creating' | 'Ready' | 'RollingBack' | 'Deleting' | 'Failed';
  lastRollbackAt?: string;
  taskRef?: string;
}

export type VMSnapshot = CustomResource<'VMSnapshot', VMSnapshotSpec, VMSnapshotStatus>;
