import { FailedPreconditionError, NotFoundError } from '@noderings/domain';

import type { BackupPolicyRepository, BackupPolicySpec } from './backup-policy.repository.js';
import type { VirtualMachineRecord, VirtualMachineRepository } from './virtual-machine.repository.js';

const BACKUP_ADDON = 'ADDON_TYPE_BACKUP';

/** The node's `BACKUP_STORAGE_COMPRESSION_*` as vzdump (and the ProxmoxVM spec) names it. */
const COMPRESSION: Readonly<Record<string, BackupPolicySpec['compression']>> = {
  BACKUP_STORAGE_COMPRESSION_NONE: 'none',
  BACKUP_STORAGE_COMPRESSION_LZO: 'lzo',
  BACKUP_STORAGE_COMPRESSION_GZIP: 'gzip',
  BACKUP_STORAGE_COMPRESSION_ZSTD: 'zstd',
};

export interface VmBackupPolicy extends BackupPolicySpec {
  readonly addonId: string;
}

/**
 * Turns a VM's scheduled backups on and off. The policy goes in the VM's spec (`backupPolicy`: the addon's
 * schedule and retention, the node's backup storage and compression as they are now) as a new generation;
 * the dispatcher carries it to the ProxmoxVM, and the operator then makes a VMBackup on every run of the
 * schedule and prunes the oldest beyond the retention.
 */
export class VmBackupPolicyService {
  constructor(
    private readonly deps: {
      readonly vms: Pick<VirtualMachineRepository, 'find'>;
      readonly policies: Pick<BackupPolicyRepository, 'findAddon' | 'nodeSettings' | 'enable' | 'disable'>;
      /** Told after every change: the dispatcher looks at once instead of at its next poll. */
      readonly changed: () => void;
    },
  ) {}

  async enable(
    clientOrganizationId: string,
    vmId: string,
    addonId: string,
  ): Promise<{ vm: VirtualMachineRecord; policy: VmBackupPolicy }> {
    const vm = await this.#liveVm(clientOrganizationId, vmId);
    const addon = await this.deps.policies.findAddon(addonId);
    // Another provider's addons are not this VM's to buy: as if they did not exist.
    if (addon?.organizationId !== vm.providerOrganizationId) throw NotFoundError.of('Addon', addonId);
    if (addon.addonType !== BACKUP_ADDON || addon.schedule === null || addon.retention === null)
      throw new FailedPreconditionError(`Addon ${addonId} is not a backup addon.`);
    if (addon.deletedAt !== null) throw new FailedPreconditionError(`Addon ${addonId} is no longer sold.`);
    if (!addon.compatiblePlanIds.includes(vm.planId))
      throw new FailedPreconditionError(
        `Addon ${addonId} is not offered with the plan of virtual machine ${vmId}.`,
      );
    const node = vm.nodeId === null ? undefined : await this.deps.policies.nodeSettings(vm.nodeId);
    if (node === undefined)
      throw new FailedPreconditionError(
        `Virtual machine ${vmId} has no node to take its backup settings from.`,
      );
    const compression = COMPRESSION[node.compression];
    if (compression === undefined)
      throw new Error(`nodes.backup_storage_compression holds an unknown value: ${node.compression}`);
    const policy = {
      schedule: addon.schedule,
      retention: addon.retention,
      storage: node.storage,
      compression,
    };
    if (!(await this.deps.policies.enable(clientOrganizationId, vmId, addonId, policy)))
      throw new FailedPreconditionError(`Virtual machine ${vmId} is being deleted.`);
    this.deps.changed();
    return { vm: await this.#liveVm(clientOrganizationId, vmId), policy: { addonId, ...policy } };
  }

  /**
   * Stops the schedule. The backups it made stay (restorable, deletable, and gone with the VM) unless
   * `cancelImmediately`, which deletes them now too.
   */
  async disable(
    clientOrganizationId: string,
    vmId: string,
    addonId: string,
    cancelImmediately: boolean,
  ): Promise<VirtualMachineRecord> {
    await this.#liveVm(clientOrganizationId, vmId);
    if (!(await this.deps.policies.disable(clientOrganizationId, vmId, addonId, cancelImmediately)))
      throw new FailedPreconditionError(
        `Virtual machine ${vmId} has no backups enabled with addon ${addonId}.`,
      );
    this.deps.changed();
    return this.#liveVm(clientOrganizationId, vmId);
  }

  async #liveVm(clientOrganizationId: string, vmId: string): Promise<VirtualMachineRecord> {
    const vm = await this.deps.vms.find({ clientOrganizationId }, vmId);
    if (vm === undefined) throw NotFoundError.of('Virtual machine', vmId);
    if (vm.desiredState === 'ABSENT')
      throw new FailedPreconditionError(`Virtual machine ${vmId} is being deleted.`);
    return vm;
  }
}
