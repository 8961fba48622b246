import type { KubeObject, OwnerReference, ProxmoxVM, ResourceClient } from '@noderings/kube';
import { CRD_API_VERSION, KubeNotFoundError } from '@noderings/kube';

import type { AgentCluster } from './agent-cluster.js';
import { VmNotInClusterError } from './dispatch-failure.js';
import type { LeasedResource, ResourceLeases } from './resource-leases.js';
import { proxmoxVmName } from './vm-order.js';

/**
 * How a dispatch of one resource ended: its wanted state is in the cluster (`dispatched`), or its object
 * is gone and the row is to be finished (`gone`: deleted as asked, or vanished, since an object once
 * made is never made again: a new snapshot would hold another state under the old name).
 */
export type ResourceDispatchOutcome = 'dispatched' | 'gone';

/**
 * One kind of a VM's resources in its agent cluster (VMSnapshot, VMBackup, VNCRequest): its table, how
 * its wanted state reaches the cluster, and how what the cluster reports reaches the table. The
 * ResourceDispatcher runs every kind with the same leases, backoff and watches.
 */
export interface ResourceKind<T extends KubeObject = KubeObject> {
  /** The plural's singular, naming watches and log lines: `vmsnapshot`. */
  readonly kind: string;
  readonly leases: ResourceLeases;
  client(cluster: AgentCluster): ResourceClient<T>;
  /** Which objects of the namespace the kind's watch looks at; all of them when undefined. */
  readonly labelSelector?: string;
  /** Carries the leased row's wanted state into the cluster; idempotent. */
  dispatch(
    cluster: AgentCluster,
    resource: LeasedResource,
    signal: AbortSignal,
  ): Promise<ResourceDispatchOutcome>;
  /** The object is gone: finishes the row, only under the lease `owner` holds. */
  finish(id: string, owner: string, at: Date): Promise<boolean>;
  /** Writes what the object's status reports, only when it differs from what is recorded. */
  recordObserved(id: string, object: T, at: Date): Promise<void>;
  /** An object the table knows nothing of yet; true when it was taken in as a new row. */
  discover?(agentId: string, object: T, at: Date): Promise<boolean>;
  /** The VM's deletion finished: so has every resource of it. */
  vmFinished(vmId: string, at: Date): Promise<void>;
  /** Once per resync: rows that are no longer wanted (expired console sessions) become ABSENT. */
  sweep?(): Promise<void>;
}

/** Asks for the object's deletion; `gone` once it is (finalizers may hold it a while). */
export async function withdrawObject<T extends KubeObject>(
  client: ResourceClient<T>,
  cluster: AgentCluster,
  name: string,
  signal: AbortSignal,
): Promise<ResourceDispatchOutcome> {
  const ref = { namespace: cluster.namespace, name };
  try {
    await client.delete(ref, { propagationPolicy: 'Background', signal });
  } catch (e: unknown) {
    if (!(e instanceof KubeNotFoundError)) throw e;
  }
  return (await client.find(ref, signal)) === undefined ? 'gone' : 'dispatched';
}

/**
 * The owner reference that has the cluster's garbage collector take the object along with the VM's
 * ProxmoxVM. No blockOwnerDeletion: setting it needs the finalizers subresource, which the control plane's
 * Role lacks.
 */
export async function vmOwnerReference(
  cluster: AgentCluster,
  vmId: string,
  signal: AbortSignal,
): Promise<OwnerReference> {
  const vm: ProxmoxVM | undefined = await cluster.findOrder(vmId, signal);
  const uid = vm?.metadata?.uid;
  if (vm === undefined || uid === undefined || vm.metadata?.deletionTimestamp !== undefined)
    throw new VmNotInClusterError(
      `waiting for the VM's ProxmoxVM ${proxmoxVmName(vmId)} to be in the agent cluster`,
    );
  return { apiVersion: CRD_API_VERSION, kind: 'ProxmoxVM', name: proxmoxVmName(vmId), uid, controller: true };
}
