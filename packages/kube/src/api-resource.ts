import type { Lease, Namespace, KubeEvent, Secret } from './core-types.js';
import type { CustomResourceDefinition } from './crd-manifests.js';
import type {
  FirewallRuleSet,
  ProxmoxInventory,
  ProxmoxVM,
  VMBackup,
  VMSnapshot,
  VNCRequest,
} from './crd-types.js';
import { CRD_GROUP, CRD_VERSION } from './crd-types.js';
import type { KubeObject } from './kube-object.js';

/**
 * Where a kind lives on the API server. `T` is a phantom type: it only ties the descriptor to the
 * object type the client returns for it.
 */
export interface ApiResource<T extends KubeObject> {
  /** '' for the core group. */
  group: string;
  version: string;
  kind: string;
  plural: string;
  namespaced: boolean;
  /** Whether the kind has a /status subresource. */
  hasStatus: boolean;
  /** Never set: carries `T` through inference. */
  readonly __type?: T;
}

function resource<T extends KubeObject>(fields: Omit<ApiResource<T>, '__type'>): ApiResource<T> {
  return fields;
}

export function apiVersionOf(resource: ApiResource<KubeObject>): string {
  return resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
}

function crd<T extends KubeObject>(kind: string, plural: string): ApiResource<T> {
  return resource<T>({
    group: CRD_GROUP,
    version: CRD_VERSION,
    kind,
    plural,
    namespaced: true,
    hasStatus: true,
  });
}

export const proxmoxVMs = crd<ProxmoxVM>('ProxmoxVM', 'proxmoxvms');
export const vncRequests = crd<VNCRequest>('VNCRequest', 'vncrequests');
export const firewallRuleSets = crd<FirewallRuleSet>('FirewallRuleSet', 'firewallrulesets');
export const vmBackups = crd<VMBackup>('VMBackup', 'vmbackups');
export const vmSnapshots = crd<VMSnapshot>('VMSnapshot', 'vmsnapshots');
export const proxmoxInventories = crd<ProxmoxInventory>('ProxmoxInventory', 'proxmoxinventories');

export const secrets = resource<Secret>({
  group: '',
  version: 'v1',
  kind: 'Secret',
  plural: 'secrets',
  namespaced: true,
  hasStatus: false,
});
export const namespaces = resource<Namespace>({
  group: '',
  version: 'v1',
  kind: 'Namespace',
  plural: 'namespaces',
  namespaced: false,
  hasStatus: true,
});
export const leases = resource<Lease>({
  group: 'coordination.k8s.io',
  version: 'v1',
  kind: 'Lease',
  plural: 'leases',
  namespaced: true,
  hasStatus: false,
});
export const events = resource<KubeEvent>({
  group: '',
  version: 'v1',
  kind: 'Event',
  plural: 'events',
  namespaced: true,
  hasStatus: false,
});
export const customResourceDefinitions = resource<CustomResourceDefinition>({
  group: 'apiextensions.k8s.io',
  version: 'v1',
  kind: 'CustomResourceDefinition',
  plural: 'customresourcedefinitions',
  namespaced: false,
  hasStatus: true,
});
