import type { ResourceClient, VMSnapshot } from '@noderings/kube';
import { CRD_API_VERSION, VM_ID_LABEL } from '@noderings/kube';
import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import type { AgentCluster } from './agent-cluster.js';
import type { ResourceDispatchOutcome, ResourceKind } from './resource-kind.js';
import { vmOwnerReference, withdrawObject } from './resource-kind.js';
import { finishedColumns } from './lease-results.js';
import { ResourceLeases, type LeasedResource } from './resource-leases.js';
import { FIELD_MANAGER, proxmoxVmName } from './vm-order.js';

/**
 * A customer's snapshot as a VMSnapshot: the operator makes the Proxmox snapshot once the VM is
 * provisioned, rolls back when `rollbackRequestedAt` is newer than the last rollback, and deletes the
 * snapshot before the object goes. Owned by the ProxmoxVM, so the VM's deletion takes it along.
 */
export class SnapshotDispatch implements ResourceKind<VMSnapshot> {
  readonly kind = 'vmsnapshot';
  readonly labelSelector = VM_ID_LABEL;
  readonly leases: ResourceLeases;

  constructor(private readonly db: Db) {
    this.leases = new ResourceLeases(db, 'vm_snapshots');
  }

  client(cluster: AgentCluster): ResourceClient<VMSnapshot> {
    return cluster.kube.vmSnapshots;
  }

  async dispatch(
    cluster: AgentCluster,
    resource: LeasedResource,
    signal: AbortSignal,
  ): Promise<ResourceDispatchOutcome> {
    const client = this.client(cluster);
    if (resource.desiredState === 'ABSENT' || !resource.vmWanted)
      return withdrawObject(client, cluster, resource.objectName, signal);
    const ref = { namespace: cluster.namespace, name: resource.objectName };
    if (resource.everDispatched && (await client.find(ref, signal)) === undefined) return 'gone';
    const row = await this.db
      .selectFrom('vm_snapshots')
      .select(['snapshot_name', 'description', 'rollback_requested_at'])
      .where('id', '=', resource.id)
      .executeTakeFirstOrThrow();
    const owner = await vmOwnerReference(cluster, resource.vmId, signal);
    await client.apply(
      {
        apiVersion: CRD_API_VERSION,
        kind: 'VMSnapshot',
        metadata: { ...ref, labels: { [VM_ID_LABEL]: resource.vmId }, ownerReferences: [owner] },
        spec: {
          vmRef: proxmoxVmName(resource.vmId),
          snapshotName: row.snapshot_name,
          ...(row.description !== '' && { description: row.description }),
          ...(row.rollback_requested_at !== null && {
            rollbackRequestedAt: row.rollback_requested_at.toISOString(),
          }),
        },
      },
      { fieldManager: FIELD_MANAGER, force: true, signal },
    );
    return 'dispatched';
  }

  async finish(id: string, owner: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('vm_snapshots')
      .set(finishedColumns(at))
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordObserved(id: string, snapshot: VMSnapshot, at: Date): Promise<void> {
    const status = snapshot.status ?? {};
    const phase = status.phase ?? '';
    const message = status.message ?? '';
    const lastRollbackAt = status.lastRollbackAt ?? null;
    await this.db
      .updateTable('vm_snapshots')
      .set({
        observed_phase: phase,
        observed_message: message,
        observed_last_rollback_at: lastRollbackAt,
        observed_at: at,
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where(
        sql<boolean>`(observed_phase, observed_message, observed_last_rollback_at)
          IS DISTINCT FROM (${phase}::text, ${message}::text, ${lastRollbackAt}::timestamptz)`,
      )
      .execute();
  }

  async vmFinished(vmId: string, at: Date): Promise<void> {
    await this.leases.finishAllOf(vmId, at);
  }
}
