import {
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  ResourceExhaustedError,
} from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { VirtualMachineRepository } from '../virtual-machines/index.js';
import type { SnapshotRecord, VmSnapshotRepository } from './vm-snapshot.repository.js';
import type { SnapshotStatus } from './vm-snapshot-status.js';

/** Each snapshot holds the guest's disk changes since it on the provider's storage: a VM keeps at most this many. */
const MAX_SNAPSHOTS_PER_VM = 10;

/** The operator's VMSnapshot phases before the Proxmox snapshot exists ('' before it reported). */
const NOT_TAKEN_PHASES = new Set(['', 'Pending', 'Creating']);

/** The VMSnapshot of a snapshot: `nr-{vmId}-snap-{first 8 hex digits of the snapshot id}`. */
function snapshotObjectName(vmId: string, snapshotId: string): string {
  return `nr-${vmId}-snap-${snapshotId.slice(0, 8)}`;
}

/**
 * The Proxmox snapshot's name: a letter first, then letters, digits and `-` (Proxmox's config id), at most
 * 40 characters; the time (UTC) makes it readable in the Proxmox UI, the id's prefix makes it unique.
 */
function proxmoxSnapshotName(snapshotId: string, createdAt: Date): string {
  const stamp = createdAt.toISOString().slice(0, 19).replace(/[-:]/g, '').replace('T', '-');
  return `snap-${stamp}-${snapshotId.slice(0, 8)}`;
}

/**
 * A customer's snapshots of their VM. Each is wanted state (a row with a generation) the dispatcher
 * carries into the VM's agent cluster as a VMSnapshot, whose status comes back onto the row.
 */
export class VmSnapshotService {
  constructor(
    private readonly deps: {
      readonly snapshots: Pick<
        VmSnapshotRepository,
        'list' | 'find' | 'insert' | 'withdraw' | 'requestRollback'
      >;
      readonly vms: Pick<VirtualMachineRepository, 'find'>;
      readonly newId: () => string;
      readonly now: () => Date;
      /** Told after every change: the dispatcher looks at once instead of at its next poll. */
      readonly changed: () => void;
    },
  ) {}

  async list(
    clientOrganizationId: string,
    vmId: string,
    status: SnapshotStatus | undefined,
    page: Page,
  ): Promise<PageResult<SnapshotRecord>> {
    await this.#vm(clientOrganizationId, vmId);
    return this.deps.snapshots.list(clientOrganizationId, vmId, status, page);
  }

  async get(clientOrganizationId: string, vmId: string, id: string): Promise<SnapshotRecord> {
    const snapshot = await this.deps.snapshots.find(clientOrganizationId, vmId, id);
    if (snapshot === undefined) throw NotFoundError.of('Snapshot', id);
    return snapshot;
  }

  async create(clientOrganizationId: string, vmId: string, description: string): Promise<SnapshotRecord> {
    const id = this.deps.newId();
    const outcome = await this.deps.snapshots.insert(
      clientOrganizationId,
      vmId,
      {
        id,
        objectName: snapshotObjectName(vmId, id),
        snapshotName: proxmoxSnapshotName(id, this.deps.now()),
        description,
      },
      MAX_SNAPSHOTS_PER_VM,
    );
    switch (outcome) {
      case 'vm-not-found':
        throw NotFoundError.of('Virtual machine', vmId);
      case 'vm-deleting':
        throw new FailedPreconditionError(`Virtual machine ${vmId} is being deleted.`);
      case 'limit-reached':
        throw new ResourceExhaustedError(
          `Virtual machine ${vmId} has ${String(MAX_SNAPSHOTS_PER_VM)} snapshots, the most it may keep; delete one first.`,
        );
      case 'inserted':
        break;
    }
    this.deps.changed();
    return this.get(clientOrganizationId, vmId, id);
  }

  /** Deletion is wanted now; the row stays, DELETED, once the operator has removed the Proxmox snapshot. */
  async delete(clientOrganizationId: string, vmId: string, id: string): Promise<SnapshotRecord> {
    await this.get(clientOrganizationId, vmId, id);
    if (await this.deps.snapshots.withdraw(clientOrganizationId, vmId, id)) this.deps.changed();
    return this.get(clientOrganizationId, vmId, id);
  }

  /**
   * Rolls the VM back to the snapshot. Proxmox stops the guest to do it (and the operator starts it again
   * when the VM is wanted running), so a running VM needs `stopVm` as the customer's consent.
   */
  async restore(
    clientOrganizationId: string,
    vmId: string,
    id: string,
    request: { readonly snapshotName?: string | undefined; readonly stopVm: boolean },
  ): Promise<SnapshotRecord> {
    const snapshot = await this.get(clientOrganizationId, vmId, id);
    if (request.snapshotName !== undefined && request.snapshotName !== snapshot.snapshotName)
      throw InvalidArgumentError.field(
        'snapshotName',
        `is not the name of snapshot ${id} (${snapshot.snapshotName})`,
      );
    if (snapshot.desiredState === 'ABSENT')
      throw new FailedPreconditionError(`Snapshot ${id} is being deleted.`);
    if (NOT_TAKEN_PHASES.has(snapshot.observedPhase))
      throw new FailedPreconditionError(
        `Snapshot ${id} has not been taken yet; wait until it is ACTIVE and COMPLETED.`,
      );
    const vm = await this.#vm(clientOrganizationId, vmId);
    if (vm.desiredState === 'ABSENT')
      throw new FailedPreconditionError(`Virtual machine ${vmId} is being deleted.`);
    if (vm.observedPowerState === 'Running' && !request.stopVm)
      throw new FailedPreconditionError(
        `Virtual machine ${vmId} is running and a rollback stops it: send stopVm true to go ahead.`,
      );
    if (await this.deps.snapshots.requestRollback(clientOrganizationId, vmId, id)) this.deps.changed();
    return this.get(clientOrganizationId, vmId, id);
  }

  async #vm(clientOrganizationId: string, vmId: string) {
    const vm = await this.deps.vms.find({ clientOrganizationId }, vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    return vm;
  }
}
