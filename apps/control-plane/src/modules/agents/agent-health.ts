import type { ServiceStatus } from '../../db/schema.js';
import type { Agent } from './agent.js';

/** Metrics arrive every 30 s; this long without any, the agent counts as offline. */
const METRICS_SILENCE_MS = 10 * 60_000;

/** The last time the control plane tried the agent cluster with its kubeconfig, and how it went. */
export interface ClusterReach {
  readonly reachable: boolean;
  readonly checkedAt: Date;
  /** Why it was not reached; empty when it was. */
  readonly error: string;
}

/** An agent's service status, derived, with a reason its provider can read. */
export interface AgentHealth {
  readonly serviceStatus: ServiceStatus;
  readonly reason: string;
  readonly clusterReachable: boolean | undefined;
  readonly clusterCheckedAt: Date | undefined;
  readonly metricsReceivedAt: Date | undefined;
}

/**
 * Online when the control plane reaches the agent's cluster (where it sends orders) and the agent's
 * metrics arrive (how it learns what the hypervisor does): "cluster reachable, metrics received 20 s ago".
 * Anything else is offline, and the reason says which half is missing.
 */
export function agentHealth(
  agent: Pick<Agent, 'provisioned' | 'inboundPeeringState'>,
  cluster: ClusterReach | undefined,
  metricsReceivedAt: Date | undefined,
  now: Date,
): AgentHealth {
  const facts = {
    clusterReachable: cluster?.reachable,
    clusterCheckedAt: cluster?.checkedAt,
    metricsReceivedAt,
  };
  const offline = (reason: string): AgentHealth => ({
    serviceStatus: 'SERVICE_STATUS_OFFLINE',
    reason,
    ...facts,
  });
  switch (agent.inboundPeeringState) {
    case 'INBOUND_PEERING_STATE_PENDING':
      return offline(agent.provisioned ? 'no kubeconfig uploaded yet' : 'not installed yet');
    case 'INBOUND_PEERING_STATE_PEERING':
      return offline('checking the uploaded kubeconfig');
    case 'INBOUND_PEERING_STATE_FAILED':
      return offline('peering failed: see the peering error');
    case 'INBOUND_PEERING_STATE_READY':
      break;
  }
  if (cluster === undefined) return offline('cluster not checked yet');
  if (!cluster.reachable) return offline(`cluster unreachable: ${cluster.error}`);
  if (metricsReceivedAt === undefined) return offline('cluster reachable, no metrics received yet');
  const silence = now.getTime() - metricsReceivedAt.getTime();
  if (silence > METRICS_SILENCE_MS) return offline(`cluster reachable, no metrics for ${ago(silence, '')}`);
  return {
    serviceStatus: 'SERVICE_STATUS_ONLINE',
    reason: `cluster reachable, metrics received ${ago(silence, ' ago')}`,
    ...facts,
  };
}

/** 20 s, 12 min, 3 h, 2 days. */
function ago(ms: number, suffix: string): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${String(seconds)} s${suffix}`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${String(minutes)} min${suffix}`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${String(hours)} h${suffix}`;
  return `${String(Math.round(hours / 24))} days${suffix}`;
}
