import type { InboundPeeringState, ServiceStatus } from '../../db/schema.js';

/** The NodeRings peering gateways an agent can tunnel to. */
export const GATEWAY_REGIONS = ['AGENT_GATEWAY_REGION_AMS01'] as const;
export type GatewayRegion = (typeof GATEWAY_REGIONS)[number];

/** Which operator the agent cluster runs; only Proxmox exists today. */
export const HYPERVISOR_DRIVERS = ['proxmox'] as const;
export type HypervisorDriver = (typeof HYPERVISOR_DRIVERS)[number];

/** A provider's agent cluster as the control plane records it; its kubeconfig never travels with it. */
export interface Agent {
  readonly id: string;
  readonly organizationId: string;
  readonly name: string;
  readonly description: string;
  readonly agentPublicIp: string;
  readonly gatewayRegion: GatewayRegion;
  readonly hypervisorDriver: HypervisorDriver;
  /** The WireGuard gateway port assigned at creation, unique across all agents. */
  readonly gwServerServicePort: number;
  /** True once the control plane has reached the agent cluster with its uploaded kubeconfig. */
  readonly provisioned: boolean;
  readonly inboundPeeringState: InboundPeeringState;
  readonly inboundPeeringError: string;
  readonly serviceStatus: ServiceStatus;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** Where our custom resources and cloud-init Secrets live on the agent cluster (DESIGN §3.1). */
export function operatorNamespace(agentId: string): string {
  return `${agentId}-operator`;
}

/** The namespace Liqo gives the agent's tenant on the NodeRings side. */
export function peeringNamespace(agentId: string): string {
  return `liqo-tenant-${agentId}`;
}
