import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import type { ProxmoxInventoryService } from '../proxmox-inventory/index.js';
import { NodeRepository } from './node.repository.js';
import { nodeRoutes } from './node.routes.js';
import { NodeService } from './node.service.js';

/** Providers' Proxmox hosts, checked against what their agent's Proxmox reports. */
export async function registerNodeModule(
  app: FastifyInstance,
  { db, proxmox }: ModuleContext & { readonly proxmox: ProxmoxInventoryService },
): Promise<{ readonly nodes: NodeService; readonly nodeRecords: NodeRepository }> {
  const nodeRecords = new NodeRepository(db);
  const nodes = new NodeService({ nodes: nodeRecords, proxmox });
  await app.register(nodeRoutes, { nodes });
  return { nodes, nodeRecords };
}
