import type { KubeObject } from '@noderings/kube';
import { CRD_GROUP } from '@noderings/kube';

import type { AgentStack } from './agent-stack-options.js';
import { CONTROL_PLANE_NAME } from './agent-stack-options.js';
import { CUSTOM_RESOURCES, INVENTORY_RESOURCE } from './operator-rbac.js';
import { role, roleBinding } from './rbac-types.js';

const WRITE = ['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'];

/**
 * The control plane's access to an agent cluster (DESIGN §3.2): our resources and the cloud-init Secrets
 * in `{agentId}-operator`, nothing anywhere else, so it can never read the Proxmox token.
 */
export function controlPlaneRbac(stack: AgentStack): KubeObject[] {
  const account = { name: CONTROL_PLANE_NAME, namespace: stack.watchNamespace };
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: account },
    role(stack.watchNamespace, CONTROL_PLANE_NAME, [
      { apiGroups: [CRD_GROUP], resources: CUSTOM_RESOURCES, verbs: WRITE },
      { apiGroups: [CRD_GROUP], resources: CUSTOM_RESOURCES.map((r) => `${r}/status`), verbs: ['get'] },
      { apiGroups: [''], resources: ['secrets'], verbs: WRITE },
      // Which nodes and template VMIDs Proxmox has, to check what a provider enters: read only.
      { apiGroups: [CRD_GROUP], resources: [INVENTORY_RESOURCE], verbs: ['get', 'list', 'watch'] },
    ]),
    roleBinding(stack.watchNamespace, CONTROL_PLANE_NAME, account),
  ];
}
