import type { Agent } from '../../api/api-resources.js';
import type { Tone } from '../../ui/status-badge.js';

const PEERING: Readonly<Record<Agent['inboundPeeringState'], { label: string; tone: Tone }>> = {
  INBOUND_PEERING_STATE_PENDING: { label: 'Not peered yet', tone: 'neutral' },
  INBOUND_PEERING_STATE_PEERING: { label: 'Peering', tone: 'busy' },
  INBOUND_PEERING_STATE_READY: { label: 'Peered', tone: 'good' },
  INBOUND_PEERING_STATE_FAILED: { label: 'Peering failed', tone: 'bad' },
};

export function peeringStatus(agent: Pick<Agent, 'inboundPeeringState'>): { label: string; tone: Tone } {
  return PEERING[agent.inboundPeeringState];
}

/** Online is good; offline is bad once the agent is peered (something broke), neutral before. */
export function serviceStatusTone(agent: Pick<Agent, 'serviceStatus' | 'inboundPeeringState'>): Tone {
  if (agent.serviceStatus === 'SERVICE_STATUS_ONLINE') return 'good';
  if (agent.serviceStatus === 'SERVICE_STATUS_MAINTENANCE') return 'neutral';
  return agent.inboundPeeringState === 'INBOUND_PEERING_STATE_READY' ? 'bad' : 'neutral';
}

/** While an agent installs or peers, its page is read again to show the moment it connects. */
export function agentSettling(agent: Pick<Agent, 'provisioned' | 'inboundPeeringState'>): boolean {
  return !agent.provisioned || agent.inboundPeeringState === 'INBOUND_PEERING_STATE_PEERING';
}
