import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import type { VirtualMachineRepository } from '../virtual-machines/index.js';
import { VmSnapshotRepository } from './vm-snapshot.repository.js';
import { vmSnapshotRoutes } from './vm-snapshot.routes.js';
import { VmSnapshotService } from './vm-snapshot.service.js';

/** A VM's snapshots: wanted state the dispatcher carries to its agent cluster. */
export async function registerVmSnapshotModule(
  app: FastifyInstance,
  deps: ModuleContext & { readonly vmRecords: VirtualMachineRepository; readonly changed: () => void },
): Promise<void> {
  await app.register(vmSnapshotRoutes, {
    snapshots: new VmSnapshotService({
      vms: deps.vmRecords,
      snapshots: new VmSnapshotRepository(deps.db),
      changed: deps.changed,
      newId: randomUUID,
      now: deps.now,
    }),
  });
}
