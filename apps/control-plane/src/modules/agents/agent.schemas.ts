import { z } from 'zod';

import { wireEnum } from '../../http/wire-enum.js';
import { GATEWAY_REGIONS, type Agent, type HypervisorDriver } from './agent.js';
import type { AgentHealth } from './agent-health.js';
import { agentPublicIpProblem } from './agent-public-ip.js';

export const gatewayRegion = z.enum(GATEWAY_REGIONS);
export const hypervisorDriver = wireEnum({
  proxmox: 'HYPERVISOR_DRIVER_PROXMOX',
} satisfies Record<HypervisorDriver, string>);
export const agentName = z.string().trim().min(1).max(100);
export const agentDescription = z.string().max(1000);

/** Addresses no network has are refused here; whether a private one will do is the service's setting. */
export const agentPublicIp = z
  .ipv4({ error: 'must be an IPv4 address' })
  .superRefine((ip, ctx) => {
    const problem = agentPublicIpProblem(ip, { allowNonPublic: true });
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('A public IPv4 address the agent is reached at from the internet.');

const inboundPeeringState = z.enum([
  'INBOUND_PEERING_STATE_PENDING',
  'INBOUND_PEERING_STATE_PEERING',
  'INBOUND_PEERING_STATE_READY',
  'INBOUND_PEERING_STATE_FAILED',
]);
export const serviceStatus = z.enum([
  'SERVICE_STATUS_ONLINE',
  'SERVICE_STATUS_OFFLINE',
  'SERVICE_STATUS_MAINTENANCE',
]);

export const peeringStatusView = z.object({
  inboundPeeringState,
  inboundPeeringError: z.string(),
});

export const agentView = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    organizationId: z.string(),
    agentPublicIp: z.string(),
    gwServerServicePort: z.number().int(),
    provisioned: z.boolean(),
    gatewayRegion,
    hypervisorDriver: hypervisorDriver.schema,
    serviceStatus: serviceStatus.describe(
      'Derived when read: ONLINE when this control plane reaches the agent cluster and its metrics arrived within 10 minutes.',
    ),
    serviceStatusReason: z
      .string()
      .describe('Why, in words: "cluster reachable, metrics received 20 s ago", "no metrics for 12 min".'),
    clusterReachable: z
      .boolean()
      .nullable()
      .describe('Whether the last check (at most 30 s old) reached the cluster; null before peering.'),
    metricsReceiveTime: z.iso
      .datetime()
      .nullable()
      .describe("When the newest metrics sample of the agent's platforms was taken."),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .extend(peeringStatusView.shape)
  .meta({ id: 'Agent' });

export function toAgentView(a: Agent & { readonly health: AgentHealth }): z.infer<typeof agentView> {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    organizationId: a.organizationId,
    agentPublicIp: a.agentPublicIp,
    gwServerServicePort: a.gwServerServicePort,
    provisioned: a.provisioned,
    gatewayRegion: a.gatewayRegion,
    hypervisorDriver: hypervisorDriver.toWire(a.hypervisorDriver),
    inboundPeeringState: a.inboundPeeringState,
    inboundPeeringError: a.inboundPeeringError,
    serviceStatus: a.health.serviceStatus,
    serviceStatusReason: a.health.reason,
    clusterReachable: a.health.clusterReachable ?? null,
    metricsReceiveTime: a.health.metricsReceivedAt?.toISOString() ?? null,
    createTime: a.createdAt.toISOString(),
    updateTime: a.updatedAt.toISOString(),
  };
}
