import {
  nodeCapacityFit,
  requestedAmounts,
  type NodeCapacityState,
  type ResourceAmounts,
} from '@noderings/domain';

import type { CandidateNode, NodeUsage } from './candidate-node.repository.js';

const NO_USAGE: NodeUsage = { vms: 0, vcpus: 0, ramGb: 0, diskGb: 0 };

/**
 * Why the node cannot take a VM of `request` now; none when it can. A node takes VMs when it is online and
 * not in maintenance, its platform's agent is provisioned and peered (orders reach Proxmox only through
 * it), it has an IPAM network, and the capacity rule (node-capacity.ts) holds. A new node is OFFLINE with
 * an empty inventory until the metrics sync first sees it, so it takes nothing before then.
 */
export function nodeRefusalReasons(
  node: CandidateNode,
  usage: NodeUsage | undefined,
  request: ResourceAmounts,
): string[] {
  const reasons: string[] = [];
  if (node.maintenanceMode || node.serviceStatus === 'SERVICE_STATUS_MAINTENANCE')
    reasons.push('in maintenance mode');
  else if (node.serviceStatus !== 'SERVICE_STATUS_ONLINE') reasons.push(`not online (${node.serviceStatus})`);
  if (node.agent === undefined) reasons.push('its platform has no agent');
  else if (!node.agent.provisioned || node.agent.inboundPeeringState !== 'INBOUND_PEERING_STATE_READY')
    reasons.push(`its agent is not ready (${node.agent.inboundPeeringState})`);
  if (node.network === undefined) reasons.push('no IPAM network to take addresses from');
  const fit = nodeCapacityFit(capacityStateOf(node, usage), request);
  if (!fit.fits) reasons.push(...fit.shortfalls.map((s) => s.note));
  return reasons;
}

/** Reported capacity rounded down and others' use rounded up: a fraction never sells a byte too many. */
export function capacityStateOf(node: CandidateNode, usage: NodeUsage | undefined): NodeCapacityState {
  const { inventory } = node;
  return {
    computeType: node.computeType,
    physical: {
      cpu: BigInt(Math.floor(inventory.cpuCores)),
      memory: BigInt(Math.floor(inventory.memoryBytes)),
      disk: BigInt(Math.floor(inventory.vmStorageBytes)),
    },
    usedByOthers: {
      cpu: BigInt(Math.ceil(inventory.nonNrCpuCores)),
      memory: BigInt(Math.ceil(inventory.nonNrMemoryBytes)),
      disk: BigInt(Math.ceil(inventory.nonNrDiskBytes)),
    },
    sold: requestedAmounts(usage ?? NO_USAGE),
    overallocatePercent: node.overallocatePercent,
  };
}
