import { InvalidArgumentError } from '@noderings/domain';

import { nodeNamesOf, templateVmidsOf } from './proxmox-inventory.js';
import type { ProxmoxInventoryRepository } from './proxmox-inventory.repository.js';

/**
 * Checks node names and template VMIDs a provider enters against what the platform's Proxmox reported
 * (its agent's ProxmoxInventory, as last read). Before any report nothing can be checked and nothing is
 * refused here: preflight says plainly that the node is unchecked.
 */
export class ProxmoxInventoryService {
  constructor(
    private readonly deps: {
      readonly inventories: Pick<ProxmoxInventoryRepository, 'ofPlatform'>;
    },
  ) {}

  /** Refuses a node name Proxmox does not have, naming the ones it has (field `name`). */
  async checkNodeName(organizationId: string, platformId: string, name: string): Promise<void> {
    const reading = await this.deps.inventories.ofPlatform(organizationId, platformId);
    if (reading?.reported !== true || reading.nodes.some((n) => n.name === name)) return;
    throw InvalidArgumentError.field(
      'name',
      `Proxmox has no node ${name}; its nodes: ${nodeNamesOf(reading)}.`,
    );
  }

  /** Refuses a VMID that is not a template on the node, naming the templates there (field `templateId`). */
  async checkTemplate(
    organizationId: string,
    node: { readonly platformId: string; readonly name: string },
    vmid: number,
  ): Promise<void> {
    const reading = await this.deps.inventories.ofPlatform(organizationId, node.platformId);
    if (reading?.reported !== true) return;
    const found = reading.nodes.find((n) => n.name === node.name);
    if (found === undefined) {
      throw InvalidArgumentError.field(
        'nodeId',
        `Proxmox has no node ${node.name} (its nodes: ${nodeNamesOf(reading)}); correct the node's name first.`,
      );
    }
    if (found.templateVmids.includes(vmid)) return;
    throw InvalidArgumentError.field(
      'templateId',
      `VMID ${vmid} is not a template on ${node.name}; templates there: ${templateVmidsOf(found)}.`,
    );
  }
}
