import type { ProxmoxClient, VmConfig } from '@noderings/proxmox';
import { PveNotFoundError } from '@noderings/proxmox';

import { OperatorError } from './operator-error.js';

/** Who holds a VMID: our guest `NR-{vmId}`, nobody, or someone else (never to be touched). */
export type GuardVerdict = 'ours' | 'absent' | 'foreign';

export function guestName(vmId: string): string {
  return `NR-${vmId}`;
}

/**
 * Reads who holds `vmid` right now, for the call about to be made. A config on `node` decides by its
 * name; without one, a guest with that VMID anywhere else in the cluster is foreign. A config still
 * being cloned has no name yet: that is GUEST_BUSY (retried), since it cannot be judged.
 */
export async function nrGuard(
  pve: Pick<ProxmoxClient, 'getVmConfig' | 'getClusterResources'>,
  node: string,
  vmid: number,
  vmId: string,
): Promise<GuardVerdict> {
  let config: VmConfig;
  try {
    config = await pve.getVmConfig(node, vmid);
  } catch (e: unknown) {
    if (!(e instanceof PveNotFoundError)) throw e;
    const guests = await pve.getClusterResources('vm');
    const elsewhere = guests.some((r) => r.type !== 'node' && r.type !== 'storage' && r.vmid === vmid);
    return elsewhere ? 'foreign' : 'absent';
  }
  if (config.name === undefined && config.lock === 'clone') {
    throw new OperatorError('GUEST_BUSY', `VMID ${vmid} is being cloned and has no name yet`);
  }
  return config.name === guestName(vmId) ? 'ours' : 'foreign';
}
