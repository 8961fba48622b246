import type { FastifyInstance } from 'fastify';

import type { AgentService } from '../agents/index.js';
import { worker, type ModuleContext, type Worker } from '../module.js';
import { readAgentInventory } from './agent-inventory-reader.js';
import { ProxmoxInventoryRepository } from './proxmox-inventory.repository.js';
import { ProxmoxInventoryService } from './proxmox-inventory.service.js';
import { ProxmoxInventorySync } from './proxmox-inventory-sync.js';

export interface ProxmoxInventoryModuleDeps extends ModuleContext {
  readonly agents: Pick<AgentService, 'inboundKubeconfig'>;
  readonly allowPrivateDestinations: boolean;
  /** How often agents' inventories are read; 0 turns that off. */
  readonly intervalSeconds: number;
  /** Told which organisation's inventory changed. */
  readonly changed: (organizationId: string) => void;
}

/** What agents' operators report of their Proxmox (nodes, template VMIDs), read into the database. */
export function registerProxmoxInventoryModule(
  app: FastifyInstance,
  deps: ProxmoxInventoryModuleDeps,
): {
  readonly inventories: ProxmoxInventoryRepository;
  readonly inventory: ProxmoxInventoryService;
  readonly workers: readonly Worker[];
} {
  const inventories = new ProxmoxInventoryRepository(deps.db);
  const sync = new ProxmoxInventorySync({
    inventories,
    kubeconfigOf: (agentId) => deps.agents.inboundKubeconfig(agentId),
    read: (agentId, kubeconfig) =>
      readAgentInventory(agentId, kubeconfig, { allowPrivateDestinations: deps.allowPrivateDestinations }),
    changed: deps.changed,
    intervalSeconds: deps.intervalSeconds,
    now: deps.now,
    logger: app.log,
  });
  return {
    inventories,
    inventory: new ProxmoxInventoryService({ inventories }),
    workers: [worker('proxmox inventory sync', sync)],
  };
}
