import { randomUUID } from 'node:crypto';

import type { FastifyInstance } from 'fastify';

import type { CloudInitCompileService } from '../cloud-init-templates/index.js';
import type { CloudInitUserDataService } from '../cloud-init-user-data/index.js';
import type { FirewallService } from '../firewall/index.js';
import type { MarketplaceRepository } from '../marketplace/index.js';
import type { ModuleContext } from '../module.js';
import type { OrderRefusalRepository } from '../order-refusals/index.js';
import type { ClaimService } from '../placement/index.js';
import { BackupPolicyRepository } from './backup-policy.repository.js';
import { backupPolicyRoutes } from './backup-policy.routes.js';
import { VmBackupPolicyService } from './backup-policy.service.js';
import { VirtualMachineRepository } from './virtual-machine.repository.js';
import { virtualMachineRoutes } from './virtual-machine.routes.js';
import { VirtualMachineService } from './virtual-machine.service.js';

export interface VirtualMachineModuleDeps extends ModuleContext {
  readonly claims: ClaimService;
  readonly offers: MarketplaceRepository;
  readonly refusals: OrderRefusalRepository;
  readonly compiler: CloudInitCompileService;
  readonly profiles: CloudInitUserDataService;
  readonly firewall: FirewallService;
  /** Told after a change the dispatcher must carry to the VM's agent cluster has committed. */
  readonly changed: () => void;
}

/** Customers' VMs: orders, power, reinstall, tags and backup policy. */
export async function registerVirtualMachineModule(
  app: FastifyInstance,
  deps: VirtualMachineModuleDeps,
): Promise<{ readonly vms: VirtualMachineService; readonly vmRecords: VirtualMachineRepository }> {
  const { db, now, changed } = deps;
  const vmRecords = new VirtualMachineRepository(db);
  const vms = new VirtualMachineService({
    vms: vmRecords,
    claims: deps.claims,
    offers: deps.offers,
    refusals: deps.refusals,
    cloudInit: deps.compiler,
    profiles: deps.profiles,
    secretBox: deps.secretBox,
    newId: randomUUID,
    changed,
    tagsChanged: (tx, organizationId, tags) => deps.firewall.vmTagsChanged(tx, organizationId, tags),
  });
  await app.register(virtualMachineRoutes, { vms, now });
  await app.register(backupPolicyRoutes, {
    policies: new VmBackupPolicyService({
      vms: vmRecords,
      policies: new BackupPolicyRepository(db),
      changed,
    }),
  });
  return { vms, vmRecords };
}
