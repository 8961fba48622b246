import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import type { VirtualMachineRepository } from '../virtual-machines/index.js';
import { VmBackupRepository } from './vm-backup.repository.js';
import { vmBackupRoutes } from './vm-backup.routes.js';
import { VmBackupService } from './vm-backup.service.js';

/** A VM's backups and restores: wanted state the dispatcher carries to its agent cluster. */
export async function registerVmBackupModule(
  app: FastifyInstance,
  deps: ModuleContext & { readonly vmRecords: VirtualMachineRepository; readonly changed: () => void },
): Promise<void> {
  await app.register(vmBackupRoutes, {
    backups: new VmBackupService({
      vms: deps.vmRecords,
      backups: new VmBackupRepository(deps.db),
      changed: deps.changed,
    }),
  });
}
