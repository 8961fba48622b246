import type { KubeObject } from '@noderings/kube';
import { CRD_GROUP } from '@noderings/kube';

import type { AgentStack } from './agent-stack-options.js';
import { OPERATOR_NAME, OPERATOR_NAMESPACE } from './agent-stack-options.js';
import type { PolicyRule } from './rbac-types.js';
import { role, roleBinding } from './rbac-types.js';

export const CUSTOM_RESOURCES = ['proxmoxvms', 'vncrequests', 'firewallrulesets', 'vmbackups', 'vmsnapshots'];
/** What the operator reports about Proxmox (nodes, template VMIDs); the control plane only reads it. */
export const INVENTORY_RESOURCE = 'proxmoxinventories';

/** What the operator does in the watch namespace: reconcile our resources, read cloud-init Secrets. */
const WATCH_NAMESPACE_RULES: PolicyRule[] = [
  // update/patch for finalizers and the backup schedule's owner references.
  { apiGroups: [CRD_GROUP], resources: CUSTOM_RESOURCES, verbs: ['get', 'list', 'watch', 'update', 'patch'] },
  {
    apiGroups: [CRD_GROUP],
    resources: CUSTOM_RESOURCES.map((r) => `${r}/status`),
    verbs: ['get', 'update', 'patch'],
  },
  // Owner references with blockOwnerDeletion need update on the owner's finalizers.
  { apiGroups: [CRD_GROUP], resources: CUSTOM_RESOURCES.map((r) => `${r}/finalizers`), verbs: ['update'] },
  // Backup schedules create one VMBackup per slot and prune the oldest.
  { apiGroups: [CRD_GROUP], resources: ['vmbackups'], verbs: ['create', 'delete'] },
  // One inventory per Proxmox instance, made and kept by the operator, deleted with its instance.
  {
    apiGroups: [CRD_GROUP],
    resources: [INVENTORY_RESOURCE],
    verbs: ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'],
  },
  { apiGroups: [CRD_GROUP], resources: [`${INVENTORY_RESOURCE}/status`], verbs: ['get', 'update', 'patch'] },
  // Expired console requests are deleted after a grace period.
  { apiGroups: [CRD_GROUP], resources: ['vncrequests'], verbs: ['delete'] },
  { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

/** What the operator does in its own namespace: read the Proxmox credentials, hold the Lease. */
const OPERATOR_NAMESPACE_RULES: PolicyRule[] = [
  { apiGroups: [''], resources: ['secrets'], verbs: ['get', 'list', 'watch'] },
  {
    apiGroups: ['coordination.k8s.io'],
    resources: ['leases'],
    verbs: ['get', 'list', 'watch', 'create', 'update'],
  },
  { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
];

/** The operator's ServiceAccount and a Role plus RoleBinding in each of the two namespaces it touches. */
export function operatorRbac(stack: AgentStack): KubeObject[] {
  const account = { name: OPERATOR_NAME, namespace: OPERATOR_NAMESPACE };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: account },
    role(OPERATOR_NAMESPACE, OPERATOR_NAME, OPERATOR_NAMESPACE_RULES),
    roleBinding(OPERATOR_NAMESPACE, OPERATOR_NAME, account),
    role(stack.watchNamespace, OPERATOR_NAME, WATCH_NAMESPACE_RULES),
    roleBinding(stack.watchNamespace, OPERATOR_NAME, account),
  ];
}
