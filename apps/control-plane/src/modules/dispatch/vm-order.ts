import type { CloudInitDocuments } from '@noderings/domain';
import type {
  FirewallRule,
  FirewallRuleSet,
  OwnerReference,
  ProxmoxVM,
  ProxmoxVMSpec,
  Secret,
} from '@noderings/kube';
import { CRD_API_VERSION, VM_ID_LABEL } from '@noderings/kube';

import type { VmDesiredState, VmPowerState } from '../../db/schema.js';

/** Server-side apply records the control plane as the owner of the fields it sends. */
export const FIELD_MANAGER = 'noderings-control-plane';

/** A VM as the dispatcher leased it: what is wanted now, at `generation`. */
export interface WantedVm {
  readonly id: string;
  readonly agentId: string;
  readonly desiredState: VmDesiredState;
  readonly desiredPowerState: VmPowerState;
  readonly rebootRequestedAt: Date | null;
  readonly tags: readonly string[];
  /** The ProxmoxVM spec as ordered, without what the columns above decide (`virtual_machines.spec`). */
  readonly spec: Record<string, unknown>;
  readonly cloudInitCiphertext: string;
  readonly generation: number;
  readonly dispatchAttempts: number;
  /** The customer asked for a reinstall the agent cluster has not carried out yet: recreate the guest. */
  readonly reinstallPending: boolean;
  readonly reinstallGeneration: number;
  /** The order failed on its node and is to be placed on another once the failed guest is gone. */
  readonly mustMove: boolean;
}

/** Kubernetes names are lower-case; the control plane's ids already are (DESIGN §3.1). */
export function proxmoxVmName(vmId: string): string {
  return `nr-${vmId}`;
}

export function cloudInitSecretName(vmId: string): string {
  return `nr-${vmId}-cloudinit`;
}

const VM_NAME = /^nr-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The VM id a ProxmoxVM (or a label value) names, if it is one of ours. */
export function vmIdOfName(name: string): string | undefined {
  return VM_NAME.exec(name)?.[1];
}

export function isVmId(value: string): boolean {
  return vmIdOfName(`nr-${value}`) !== undefined;
}

/**
 * The ProxmoxVM the operator reads (DESIGN §3.2): the spec as ordered plus the wishes that change after
 * the order. Nothing secret: the cloud-init (keys, password hash) goes in the Secret it references.
 */
/** What the VM's network policy adds to its order: decided by the firewall and SMTP modules at dispatch. */
export interface VmNetworkPolicy {
  readonly smtpBlocked: boolean;
  /** The VM's rules compiled for the operator; undefined when no ruleset is attached. */
  readonly firewall: { readonly rules: readonly FirewallRule[] } | undefined;
}

export function firewallRuleSetName(vmId: string): string {
  return `nr-${vmId}-firewall`;
}

export function proxmoxVmOf(vm: WantedVm, namespace: string, policy?: VmNetworkPolicy): ProxmoxVM {
  const spec: ProxmoxVMSpec = {
    ...(vm.spec as unknown as ProxmoxVMSpec),
    // The guest's name comes from it, and the operator deletes only guests of that name: the row decides.
    vmId: vm.id,
    cloudInitSecretRef: cloudInitSecretName(vm.id),
    powerState: vm.desiredPowerState,
    ...(vm.rebootRequestedAt !== null && { rebootRequestedAt: vm.rebootRequestedAt.toISOString() }),
    tags: [...vm.tags],
    ...(policy !== undefined && { smtpBlocked: policy.smtpBlocked }),
    ...(policy?.firewall !== undefined && { firewallRuleSetRef: firewallRuleSetName(vm.id) }),
  };
  return {
    apiVersion: CRD_API_VERSION,
    kind: 'ProxmoxVM',
    metadata: { name: proxmoxVmName(vm.id), namespace, labels: { [VM_ID_LABEL]: vm.id } },
    spec,
  };
}

/**
 * The VM's cloud-init Secret, with the keys the operator's seed builder reads. Empty documents are left
 * out: the operator falls back to its own network config only when the key is absent.
 */
export function cloudInitSecretOf(
  vmId: string,
  namespace: string,
  documents: CloudInitDocuments,
  owner: ProxmoxVM | undefined,
): Secret {
  const data: Record<string, string> = { 'user-data': base64(documents.userData) };
  if (documents.vendorData !== undefined && documents.vendorData !== '')
    data['vendor-data'] = base64(documents.vendorData);
  if (documents.networkData !== undefined && documents.networkData !== '')
    data['network-config'] = base64(documents.networkData);
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: cloudInitSecretName(vmId),
      namespace,
      labels: { [VM_ID_LABEL]: vmId },
      // Always stated, empty before the ProxmoxVM exists: apply then drops a reference to an earlier
      // ProxmoxVM of the same name, which the garbage collector would otherwise take the Secret away for.
      ownerReferences: ownerReferencesTo(owner),
    },
    type: 'Opaque',
    data,
  };
}

/** The VM's firewall rules as the operator reads them, owned by its ProxmoxVM so they go with it. */
export function firewallRuleSetOf(
  vmId: string,
  namespace: string,
  ruleSet: NonNullable<VmNetworkPolicy['firewall']>,
  owner: ProxmoxVM | undefined,
): FirewallRuleSet {
  return {
    apiVersion: CRD_API_VERSION,
    kind: 'FirewallRuleSet',
    metadata: {
      name: firewallRuleSetName(vmId),
      namespace,
      labels: { [VM_ID_LABEL]: vmId },
      ownerReferences: ownerReferencesTo(owner),
    },
    spec: { rules: ruleSet.rules.map((r) => ({ ...r })) },
  };
}

function ownerReferencesTo(owner: ProxmoxVM | undefined): OwnerReference[] {
  const uid = owner?.metadata?.uid;
  const name = owner?.metadata?.name;
  if (uid === undefined || name === undefined) return [];
  // No blockOwnerDeletion: setting it needs the finalizers subresource, which the control plane's Role lacks.
  return [{ apiVersion: CRD_API_VERSION, kind: 'ProxmoxVM', name, uid, controller: true }];
}

/** The sealed cloud-init, checked for the shape the order flow writes. */
export function parseCloudInit(json: string): CloudInitDocuments {
  const value: unknown = JSON.parse(json);
  if (typeof value !== 'object' || value === null) throw new TypeError('cloud-init is not an object');
  const { userData, vendorData, networkData } = value as Record<string, unknown>;
  if (typeof userData !== 'string') throw new TypeError('cloud-init has no userData');
  for (const [name, document] of Object.entries({ vendorData, networkData }))
    if (document !== undefined && document !== null && typeof document !== 'string')
      throw new TypeError(`cloud-init ${name} is not a string`);
  return {
    userData,
    ...(typeof vendorData === 'string' && { vendorData }),
    ...(typeof networkData === 'string' && { networkData }),
  };
}

function base64(text: string): string {
  return Buffer.from(text, 'utf8').toString('base64');
}
