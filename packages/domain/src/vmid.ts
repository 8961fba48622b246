import { InvalidArgumentError } from './domain-error.js';
import { lowestFreeInteger } from './lowest-free-integer.js';
import { MAX_VMID, vmidSeedProblem } from './node-settings.js';

/**
 * The VMID for a new VM: the lowest one at or above the node's seed that no guest holds, or undefined when
 * every VMID up to Proxmox's maximum is taken. VMIDs are unique per Proxmox cluster, so `taken` must hold
 * every guest's VMID on the cluster, other tenants' and foreign guests' (from inventory) as well as ours.
 * Proxmox refusing a clone onto a used VMID stays the last guard against a guest created since.
 */
export function nextVmid(seed: number, taken: readonly number[]): number | undefined {
  const problem = vmidSeedProblem(seed);
  if (problem !== undefined) throw InvalidArgumentError.field('vmidSeed', problem);
  return lowestFreeInteger(seed, MAX_VMID, taken);
}
