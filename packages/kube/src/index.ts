export type { ApiResource } from './api-resource.js';
export {
  apiVersionOf,
  customResourceDefinitions,
  events,
  firewallRuleSets,
  leases,
  namespaces,
  proxmoxInventories,
  proxmoxVMs,
  secrets,
  vmBackups,
  vmSnapshots,
  vncRequests,
} from './api-resource.js';
export type { ConditionUpdate } from './condition.js';
export {
  READY_CONDITION,
  findCondition,
  isConditionTrue,
  removeCondition,
  setCondition,
} from './condition.js';
export type { ControllerOptions, KeySource } from './controller.js';
export { Controller, fromInformer } from './controller.js';
export type { KubeEvent, Lease, LeaseSpec, Namespace, ObjectReference, Secret } from './core-types.js';
export type {
  CustomResourceDefinition,
  CustomResourceDefinitionVersion,
  JSONSchemaProps,
} from './crd-manifests.js';
export { CRD_FILES, crdFileUrl, crdSchema, loadCrds } from './crd-manifests.js';
export type {
  BackupCompression,
  BackupPhase,
  CommonStatus,
  Condition,
  ConditionStatus,
  FirewallRule,
  FirewallRuleSet,
  FirewallRuleSetSpec,
  FirewallRuleSetStatus,
  NicModel,
  PowerState,
  ProxmoxInventory,
  ProxmoxInventoryNode,
  ProxmoxInventorySpec,
  ProxmoxInventoryStatus,
  ProxmoxVM,
  ProxmoxVMPhase,
  ProxmoxVMSpec,
  ProxmoxVMStatus,
  VMBackup,
  VMBackupSpec,
  VMBackupStatus,
  VMSnapshot,
  VMSnapshotSpec,
  VMSnapshotStatus,
  VNCRequest,
  VNCRequestSpec,
  VNCRequestStatus,
} from './crd-types.js';
export { CRD_API_VERSION, CRD_GROUP, CRD_VERSION } from './crd-types.js';
export {
  ensureFinalizer,
  hasFinalizer,
  isBeingDeleted,
  removeFinalizer,
  withFinalizer,
  withoutFinalizer,
} from './finalizer.js';
export type { HistogramSnapshot } from './histogram.js';
export type { InformerHandler, InformerOptions } from './informer.js';
export { Informer } from './informer.js';
export { installCrds } from './install-crds.js';
export type { KubeErrorCode, KubeStatus, StatusCause } from './kube-api-error.js';
export {
  KubeAlreadyExistsError,
  KubeConflictError,
  KubeForbiddenError,
  KubeGoneError,
  KubeInvalidError,
  KubeApiError,
  KubeNotFoundError,
  KubeUnauthorizedError,
} from './kube-api-error.js';
export { KubeClient } from './kube-client.js';
export type { KubeConfigSource } from './kube-config-source.js';
export { loadKubeConfig } from './kube-config-source.js';
export type { KubeList, KubeObject, ObjectMeta, OwnerReference } from './kube-object.js';
export type { DnsLookup, WatchEventType } from './kube-transport.js';
export type { LeaderElectionOptions } from './leader-election.js';
export { LeaderElector } from './leader-election.js';
export type { ObjectRef } from './object-key.js';
export { keyOf, objectKey, parseObjectKey, refOf } from './object-key.js';
export type { ReconcileResult, Reconciler } from './reconciler.js';
export { DONE, TerminalError } from './reconciler.js';
export type {
  ApplyOptions,
  DeleteOptions,
  ListOptions,
  MergePatch,
  WatchOptions,
  WriteOptions,
} from './resource-client.js';
export { ResourceClient } from './resource-client.js';
export type { StatusUpdateOptions } from './status-update.js';
export { updateStatus } from './status-update.js';
export type { TokenBucketOptions } from './token-bucket.js';
export { TokenBucket } from './token-bucket.js';
export type { ProcessKey, ShutdownResult, WorkQueueMetrics, WorkQueueOptions } from './work-queue.js';
export { WorkQueue } from './work-queue.js';
export {
  PROXMOX_INSTANCE_LABEL,
  SCHEDULED_BACKUP_LABEL,
  VM_ID_LABEL,
  VM_REF_LABEL,
} from './well-known-labels.js';
