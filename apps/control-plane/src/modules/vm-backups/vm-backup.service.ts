import { FailedPreconditionError, NotFoundError } from '@noderings/domain';

import type { Page, PageResult } from '../../http/pagination.js';
import type { VirtualMachineRepository } from '../virtual-machines/index.js';
import type { BackupRecord, VmBackupRepository } from './vm-backup.repository.js';
import type { BackupStatus } from './vm-backup-status.js';

/**
 * A customer's backups of their VM. The operator makes them on the schedule of the VM's backup policy
 * (`:enable-backup`) and status sync records them; the customer deletes or restores them, as wanted state
 * the dispatcher carries to the VMBackup.
 */
export class VmBackupService {
  constructor(
    private readonly deps: {
      readonly backups: Pick<VmBackupRepository, 'list' | 'find' | 'withdraw' | 'requestRestore'>;
      readonly vms: Pick<VirtualMachineRepository, 'find'>;
      /** Told after every change: the dispatcher looks at once instead of at its next poll. */
      readonly changed: () => void;
    },
  ) {}

  async list(
    clientOrganizationId: string,
    vmId: string,
    status: BackupStatus | undefined,
    page: Page,
  ): Promise<PageResult<BackupRecord>> {
    await this.#vm(clientOrganizationId, vmId);
    return this.deps.backups.list(clientOrganizationId, vmId, status, page);
  }

  async get(clientOrganizationId: string, vmId: string, id: string): Promise<BackupRecord> {
    const backup = await this.deps.backups.find(clientOrganizationId, vmId, id);
    if (backup === undefined) throw NotFoundError.of('Backup', id);
    return backup;
  }

  /** Deletion is wanted now; the operator removes the archive, and the row stays, DELETED. */
  async delete(clientOrganizationId: string, vmId: string, id: string): Promise<BackupRecord> {
    await this.get(clientOrganizationId, vmId, id);
    if (await this.deps.backups.withdraw(clientOrganizationId, vmId, id)) this.deps.changed();
    return this.get(clientOrganizationId, vmId, id);
  }

  /**
   * Restores the VM from a completed backup, over its current disks (the operator stops the guest first);
   * `startAfterRestore` starts it again.
   */
  async restore(
    clientOrganizationId: string,
    vmId: string,
    id: string,
    startAfterRestore: boolean,
  ): Promise<BackupRecord> {
    const backup = await this.get(clientOrganizationId, vmId, id);
    if (backup.removal !== null || backup.desiredState === 'ABSENT')
      throw new FailedPreconditionError(`Backup ${id} is deleted or being deleted.`);
    if (backup.observedPhase !== 'Completed')
      throw new FailedPreconditionError(`Backup ${id} is not completed: nothing to restore yet.`);
    const vm = await this.#vm(clientOrganizationId, vmId);
    if (vm.desiredState === 'ABSENT')
      throw new FailedPreconditionError(`Virtual machine ${vmId} is being deleted.`);
    if (await this.deps.backups.requestRestore(clientOrganizationId, vmId, id, startAfterRestore))
      this.deps.changed();
    return this.get(clientOrganizationId, vmId, id);
  }

  async #vm(clientOrganizationId: string, vmId: string) {
    const vm = await this.deps.vms.find({ clientOrganizationId }, vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    return vm;
  }
}
