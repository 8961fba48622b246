import type { ResourceClient, VNCRequest } from '@noderings/kube';
import { CRD_API_VERSION, VM_ID_LABEL } from '@noderings/kube';
import { sql } from 'kysely';

import type { SecretBox } from '../../crypto/secret-box.js';
import { newGeneration } from '../../db/new-generation.js';
import type { Db } from '../../db/database.js';
import { consoleSecretAssociatedData } from '../vm-console/index.js';
import type { AgentCluster } from './agent-cluster.js';
import type { ResourceDispatchOutcome, ResourceKind } from './resource-kind.js';
import { vmOwnerReference, withdrawObject } from './resource-kind.js';
import { finishedColumns, fromNow } from './lease-results.js';
import { ResourceLeases, type LeasedResource } from './resource-leases.js';
import { FIELD_MANAGER, proxmoxVmName } from './vm-order.js';

/**
 * How long after its ticket expired a session's VNCRequest is withdrawn: as long as the operator keeps an
 * expired one, so that the vnc-gateway can still read why it got nothing.
 */
const EXPIRED_GRACE_MS = 5 * 60_000;
/** A session the operator never answered is given up after this long. */
const UNANSWERED_MS = 10 * 60_000;
/** Finished sessions (their secrets already cleared) are kept this long, then purged. */
const FINISHED_KEPT_MS = 24 * 60 * 60_000;

/**
 * A console session as a VNCRequest: the operator opens a Proxmox VNC proxy for the VM and writes its
 * node, port, ticket and RFB password to status. The ticket and password are sealed on the row at once
 * and cleared once the operator reports them expired; expired and unanswered sessions are withdrawn by
 * the sweep, and finished ones purged. Owned by the ProxmoxVM, so the VM's deletion takes it along.
 */
export class ConsoleDispatch implements ResourceKind<VNCRequest> {
  readonly kind = 'vncrequest';
  readonly labelSelector = VM_ID_LABEL;
  readonly leases: ResourceLeases;

  constructor(
    private readonly db: Db,
    private readonly secretBox: Pick<SecretBox, 'seal'>,
  ) {
    this.leases = new ResourceLeases(db, 'vm_console_sessions');
  }

  client(cluster: AgentCluster): ResourceClient<VNCRequest> {
    return cluster.kube.vncRequests;
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
    // A request is answered once; one that is gone (collected by the operator) is not asked again.
    if (resource.everDispatched && (await client.find(ref, signal)) === undefined) return 'gone';
    const owner = await vmOwnerReference(cluster, resource.vmId, signal);
    await client.apply(
      {
        apiVersion: CRD_API_VERSION,
        kind: 'VNCRequest',
        metadata: { ...ref, labels: { [VM_ID_LABEL]: resource.vmId }, ownerReferences: [owner] },
        spec: { vmRef: proxmoxVmName(resource.vmId) },
      },
      { fieldManager: FIELD_MANAGER, force: true, signal },
    );
    return 'dispatched';
  }

  async finish(id: string, owner: string, at: Date): Promise<boolean> {
    const result = await this.db
      .updateTable('vm_console_sessions')
      .set({ ...finishedColumns(at), ticket_ciphertext: null, password_ciphertext: null })
      .where('id', '=', id)
      .where('lease_owner', '=', owner)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows > 0n;
  }

  /**
   * Seals the ticket and password the first time the operator reports them (or reports new ones), and
   * clears them once it no longer does; never writes a row that already says the same.
   */
  async recordObserved(id: string, request: VNCRequest, at: Date): Promise<void> {
    const status = request.status ?? {};
    const row = await this.db
      .selectFrom('vm_console_sessions')
      .select(['observed_phase', 'observed_message', 'expires_at'])
      .select(sql<boolean>`password_ciphertext IS NOT NULL`.as('has_secrets'))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (row === undefined) return;
    const phase = status.phase ?? '';
    const message = status.message ?? '';
    const expiresAt = status.expiresAt === undefined ? null : new Date(status.expiresAt);
    const { ticket, password } = status;
    // An expired ticket is useless and its secrets stay cleared, whatever a late event still carries.
    const answered = ticket !== undefined && password !== undefined && expiresAt !== null && expiresAt > at;
    const sameExpiry = (row.expires_at?.getTime() ?? null) === (expiresAt?.getTime() ?? null);
    if (
      row.observed_phase === phase &&
      row.observed_message === message &&
      sameExpiry &&
      row.has_secrets === answered
    )
      return;
    await this.db
      .updateTable('vm_console_sessions')
      .set({
        observed_phase: phase,
        observed_message: message,
        observed_node: status.node ?? '',
        observed_vmid: status.vmid ?? 0,
        observed_port: status.port ?? 0,
        expires_at: expiresAt,
        ticket_ciphertext: answered
          ? this.secretBox.seal(ticket, consoleSecretAssociatedData(id, 'ticket'))
          : null,
        password_ciphertext: answered
          ? this.secretBox.seal(password, consoleSecretAssociatedData(id, 'password'))
          : null,
        observed_at: at,
        updated_at: at,
      })
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
  }

  async vmFinished(vmId: string, at: Date): Promise<void> {
    await this.db
      .updateTable('vm_console_sessions')
      .set({
        desired_state: 'ABSENT',
        deleted_at: at,
        updated_at: at,
        ticket_ciphertext: null,
        password_ciphertext: null,
        lease_owner: null,
        lease_until: null,
      })
      .where('vm_id', '=', vmId)
      .where('deleted_at', 'is', null)
      .execute();
  }

  /**
   * Withdraws sessions past their ticket (plus the grace) or never answered, clears the secrets of
   * expired tickets even if the operator has not said so yet, and purges long-finished sessions.
   */
  async sweep(): Promise<void> {
    await this.db
      .updateTable('vm_console_sessions')
      .set({
        desired_state: 'ABSENT',
        ...newGeneration(),
      })
      .where('deleted_at', 'is', null)
      .where('desired_state', '=', 'PRESENT')
      .where((w) =>
        w.or([
          w('expires_at', '<', fromNow(-EXPIRED_GRACE_MS)),
          w.and([w('expires_at', 'is', null), w('created_at', '<', fromNow(-UNANSWERED_MS))]),
        ]),
      )
      .execute();
    await this.db
      .updateTable('vm_console_sessions')
      .set({ ticket_ciphertext: null, password_ciphertext: null })
      .where('expires_at', '<', sql<Date>`now()`)
      .where('password_ciphertext', 'is not', null)
      .execute();
    await this.db
      .deleteFrom('vm_console_sessions')
      .where('deleted_at', '<', fromNow(-FINISHED_KEPT_MS))
      .execute();
  }
}
