/** One Proxmox node as the agent's operator last read it. */
export interface ProxmoxNodeInventory {
  readonly name: string;
  readonly online: boolean;
  /** VMIDs of the node's templates, ascending. */
  readonly templateVmids: readonly number[];
}

/**
 * What the control plane knows of a platform's Proxmox: the nodes and templates the operator reported,
 * or why there is no report to check against (said to the provider as is).
 */
export type ProxmoxInventoryReading =
  | { readonly reported: true; readonly nodes: readonly ProxmoxNodeInventory[]; readonly observedAt: Date }
  | { readonly reported: false; readonly why: string };

/** The inventory's name in `{agent}-operator`: the Proxmox instance every order of ours uses. */
export const INVENTORY_NAME = 'default';

export function nodeNamesOf(reading: Extract<ProxmoxInventoryReading, { reported: true }>): string {
  return reading.nodes.length === 0 ? 'none' : reading.nodes.map((n) => n.name).join(', ');
}

export function templateVmidsOf(node: ProxmoxNodeInventory): string {
  return node.templateVmids.length === 0 ? 'none' : node.templateVmids.join(', ');
}
