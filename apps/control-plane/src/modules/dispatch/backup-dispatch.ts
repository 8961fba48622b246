import type { ResourceClient, VMBackup } from '@noderings/kube';
import { KubeNotFoundError, SCHEDULED_BACKUP_LABEL } from '@noderings/kube';
import { sql } from 'kysely';

import type { Db } from '../../db/database.js';
import type { AgentCluster } from './agent-cluster.js';
import type { ResourceDispatchOutcome, ResourceKind } from './resource-kind.js';
import { finishedColumns } from './lease-results.js';
import { ResourceLeases, type LeasedResource } from './resource-leases.js';
import { FIELD_MANAGER, vmIdOfName } from './vm-order.js';

/**
 * The operator's label on the VMBackups it makes on a ProxmoxVM's `spec.backupPolicy.schedule` (and
 * prunes beyond its retention): the backups a customer's backup addon pays for.
 */
const SCHEDULED_SELECTOR = `${SCHEDULED_BACKUP_LABEL}=true`;

/**
 * The VMBackups the operator makes on each VM's schedule. The control plane never creates one: status sync
 * finds them (`discover`) and keeps their status; the customer's wishes go the other way, as a deletion
 * (the operator's finalizer removes the archive first) or a restore request (`spec.restore`) merged into
 * the operator's object. A backup whose object is gone without being asked (the schedule's retention
 * pruned it) is finished as EXPIRED.
 */
export class BackupDispatch implements ResourceKind<VMBackup> {
  readonly kind = 'vmbackup';
  readonly labelSelector = SCHEDULED_SELECTOR;
  readonly leases: ResourceLeases;

  constructor(private readonly db: Db) {
    this.leases = new ResourceLeases(db, 'vm_backups');
  }

  client(cluster: AgentCluster): ResourceClient<VMBackup> {
    return cluster.kube.vmBackups;
  }

  async dispatch(
    cluster: AgentCluster,
    resource: LeasedResource,
    signal: AbortSignal,
  ): Promise<ResourceDispatchOutcome> {
    const row = await this.db
      .selectFrom('vm_backups')
      .select(['object_uid', 'restore_requested_at', 'restore_start'])
      .where('id', '=', resource.id)
      .executeTakeFirstOrThrow();
    const client = this.client(cluster);
    const ref = { namespace: cluster.namespace, name: resource.objectName };
    const found = await client.find(ref, signal);
    if (found === undefined || found.metadata?.uid !== row.object_uid) return 'gone';
    if (resource.desiredState === 'ABSENT') {
      try {
        await client.delete(ref, { preconditions: { uid: row.object_uid }, signal });
      } catch (e: unknown) {
        if (!(e instanceof KubeNotFoundError)) throw e;
      }
      return (await client.find(ref, signal))?.metadata?.uid === row.object_uid ? 'dispatched' : 'gone';
    }
    // A VM on its way out keeps its backups as they are: they go with it.
    const requestedAt = row.restore_requested_at?.toISOString();
    const asked = found.spec.restore;
    if (resource.vmWanted && requestedAt !== undefined && !sameRequest(asked, requestedAt, row.restore_start))
      await client.mergePatch(
        ref,
        { spec: { restore: { requestedAt, start: row.restore_start } } },
        { fieldManager: FIELD_MANAGER, signal },
      );
    return 'dispatched';
  }

  /**
   * Takes in a scheduled backup of one of the agent's live VMs, with the addon whose policy made it,
   * unless a row already knows the object (by uid) or the object is on its way out.
   */
  async discover(agentId: string, backup: VMBackup, at: Date): Promise<boolean> {
    const { name, uid, creationTimestamp, deletionTimestamp } = backup.metadata ?? {};
    const vmId = vmIdOfName(backup.spec.vmRef);
    if (name === undefined || uid === undefined || vmId === undefined || deletionTimestamp !== undefined)
      return false;
    const created = creationTimestamp ?? at.toISOString();
    const result = await this.db
      .insertInto('vm_backups')
      .columns([
        'vm_id',
        'client_organization_id',
        'agent_id',
        'object_name',
        'object_uid',
        'addon_id',
        'dispatched_generation',
        'created_at',
        'updated_at',
      ])
      .expression((eb) =>
        eb
          .selectFrom('virtual_machines as v')
          .leftJoin('vm_backup_policies as p', 'p.vm_id', 'v.id')
          .select([
            'v.id',
            'v.client_organization_id',
            'v.agent_id',
            sql<string>`${name}::text`.as('object_name'),
            sql<string>`${uid}::text`.as('object_uid'),
            'p.addon_id',
            sql<number>`1`.as('dispatched_generation'),
            sql<Date>`${created}::timestamptz`.as('created_at'),
            sql<Date>`${at}::timestamptz`.as('updated_at'),
          ])
          .where('v.id', '=', vmId)
          .where('v.agent_id', '=', agentId)
          .where('v.deleted_at', 'is', null)
          .where((w) =>
            w.not(
              w.exists(
                w
                  .selectFrom('vm_backups as b')
                  .select('b.id')
                  .where('b.agent_id', '=', agentId)
                  .where('b.object_uid', '=', uid),
              ),
            ),
          ),
      )
      .onConflict((oc) => oc.doNothing())
      .returning('id')
      .executeTakeFirst();
    if (result === undefined) return false;
    await this.recordObserved(result.id, backup, at);
    return true;
  }

  async finish(id: string, owner: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('vm_backups')
      .set({
        ...finishedColumns(at),
        // Asked for, or gone with its VM (the garbage collector may be first): DELETED; else pruned.
        removal: sql`CASE WHEN desired_state = 'ABSENT' OR EXISTS (SELECT 1 FROM virtual_machines v
      WHERE v.id = vm_id AND v.desired_state = 'ABSENT') THEN 'DELETED' ELSE 'EXPIRED' END`,
      })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  async recordObserved(id: string, backup: VMBackup, at: Date): Promise<void> {
    const status = backup.status ?? {};
    const observed = {
      observed_phase: status.phase ?? '',
      observed_message: status.message ?? '',
      observed_volid: status.volid ?? '',
      observed_size_bytes: status.sizeBytes ?? 0,
      observed_finished_at: status.finishedAt ?? null,
      observed_restore_phase: status.restore?.phase ?? '',
      observed_restore_requested_at: status.restore?.requestedAt ?? null,
      observed_restore_message: status.restore?.message ?? '',
    };
    await this.db
      .updateTable('vm_backups')
      .set({
        ...observed,
        // The time a restore was first seen served (the operator records only when it was asked).
        restored_at: sql<Date | null>`CASE WHEN ${observed.observed_restore_phase}::text = 'Completed'
            AND (observed_restore_phase <> 'Completed'
              OR observed_restore_requested_at IS DISTINCT FROM ${observed.observed_restore_requested_at}::timestamptz)
          THEN ${at}::timestamptz ELSE restored_at END`,
        observed_at: at,
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .where(
        sql<boolean>`(observed_phase, observed_message, observed_volid, observed_size_bytes, observed_finished_at,
            observed_restore_phase, observed_restore_requested_at, observed_restore_message)
          IS DISTINCT FROM (${observed.observed_phase}::text, ${observed.observed_message}::text,
            ${observed.observed_volid}::text, ${observed.observed_size_bytes}::bigint,
            ${observed.observed_finished_at}::timestamptz, ${observed.observed_restore_phase}::text,
            ${observed.observed_restore_requested_at}::timestamptz, ${observed.observed_restore_message}::text)`,
      )
      .execute();
  }

  /** The VM and its guest are gone, and with them its backups (the operator removed their archives). */
  async vmFinished(vmId: string, at: Date): Promise<void> {
    await this.db
      .updateTable('vm_backups')
      .set({
        removal: 'DELETED',
        desired_state: 'ABSENT',
        deleted_at: at,
        updated_at: at,
        lease_owner: null,
        lease_until: null,
      })
      .where('vm_id', '=', vmId)
      .where('deleted_at', 'is', null)
      .execute();
  }
}

function sameRequest(asked: VMBackup['spec']['restore'], requestedAt: string, start: boolean): boolean {
  return (
    asked !== undefined &&
    Date.parse(asked.requestedAt) === Date.parse(requestedAt) &&
    (asked.start ?? true) === start
  );
}
