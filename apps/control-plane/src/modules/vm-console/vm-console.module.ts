import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import type { VirtualMachineRepository } from '../virtual-machines/index.js';
import { VmConsoleRepository } from './vm-console.repository.js';
import { vmConsoleRoutes } from './vm-console.routes.js';
import { VmConsoleService } from './vm-console.service.js';

/** A VM's browser console sessions: asked of its agent cluster through the dispatcher. */
export async function registerVmConsoleModule(
  app: FastifyInstance,
  deps: ModuleContext & { readonly vmRecords: VirtualMachineRepository; readonly changed: () => void },
): Promise<void> {
  await app.register(vmConsoleRoutes, {
    consoles: new VmConsoleService({
      vms: deps.vmRecords,
      sessions: new VmConsoleRepository(deps.db),
      secretBox: deps.secretBox,
      changed: deps.changed,
      newId: randomUUID,
    }),
  });
}
