import type { FastifyInstance } from 'fastify';

import type { CloudInitTemplateService } from '../cloud-init-templates/index.js';
import type { ModuleContext } from '../module.js';
import type { NodeService } from '../nodes/index.js';
import type { ProxmoxInventoryService } from '../proxmox-inventory/index.js';
import { VmTemplateRepository } from './vm-template.repository.js';
import { vmTemplateRoutes } from './vm-template.routes.js';
import { VmTemplateService } from './vm-template.service.js';

export interface VmTemplateModuleDeps extends ModuleContext {
  readonly nodes: NodeService;
  readonly cloudInitTemplates: CloudInitTemplateService;
  readonly proxmox: ProxmoxInventoryService;
}

export async function registerVmTemplateModule(
  app: FastifyInstance,
  deps: VmTemplateModuleDeps,
): Promise<void> {
  await app.register(vmTemplateRoutes, {
    vmTemplates: new VmTemplateService({
      vmTemplates: new VmTemplateRepository(deps.db),
      nodes: deps.nodes,
      cloudInitTemplates: deps.cloudInitTemplates,
      proxmox: deps.proxmox,
      now: deps.now,
    }),
  });
}
