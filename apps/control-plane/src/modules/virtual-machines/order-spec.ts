import { isNicModel } from '@noderings/domain';
import type { ProxmoxVMSpec } from '@noderings/kube';

import type { OrderNode, OrderPlan, OrderTemplate } from './virtual-machine.repository.js';

const MIB_PER_GIB = 1024;
const BITS_PER_BYTE = 8;

/** What the ProxmoxVM spec of a VM is made of, all fixed at order time. */
export interface OrderFacts {
  readonly vmId: string;
  readonly node: OrderNode;
  readonly template: OrderTemplate;
  readonly plan: OrderPlan & { readonly vcpus: number; readonly ramGb: number; readonly diskGb: number };
  readonly vmid: number;
  readonly macAddress: string;
  readonly ipv4: { readonly address: string; readonly gateway: string };
  readonly ipv6: { readonly address: string; readonly gateway: string } | undefined;
  readonly nameservers: readonly string[];
}

/** The spec the dispatcher sends, less what it adds from the VM's current wishes (power, reboot, tags, Secret). */
export type OrderedSpec = Omit<
  ProxmoxVMSpec,
  'cloudInitSecretRef' | 'powerState' | 'rebootRequestedAt' | 'tags'
>;

/**
 * The order as the operator reads it (DESIGN §3.2): sizes, placement and network, never a key or a
 * password. The node's provisioning settings are copied now, so later edits change only new VMs (seed 003).
 */
export function orderedSpec(f: OrderFacts): OrderedSpec {
  const cpuType = f.template.proxmoxCpuType === '' ? f.node.proxmoxCpuType : f.template.proxmoxCpuType;
  return {
    vmId: f.vmId,
    node: f.node.name,
    vmid: f.vmid,
    templateVmid: f.template.templateVmid,
    cpu: { cores: f.plan.vcpus, sockets: 1, type: cpuType, units: f.plan.cpuUnits, limit: f.plan.cpuLimit },
    memoryMiB: f.plan.ramGb * MIB_PER_GIB,
    disk: { storage: f.node.vmStorage, sizeGiB: f.plan.diskGb },
    network: {
      bridge: f.node.bridge,
      device: f.node.device,
      model: nicModel(f.node.model),
      vlan: f.node.vlan,
      mac: f.macAddress.toUpperCase(),
      rateLimitMBps: f.plan.networkRateLimitMbps / BITS_PER_BYTE,
      ipv4: { ...f.ipv4 },
      ...(f.ipv6 !== undefined && { ipv6: { ...f.ipv6 } }),
      nameservers: [...f.nameservers],
    },
  };
}

function nicModel(value: string): NonNullable<ProxmoxVMSpec['network']['model']> {
  if (!isNicModel(value)) throw new Error(`nodes.network_model holds an unknown value: ${value}`);
  return value;
}
