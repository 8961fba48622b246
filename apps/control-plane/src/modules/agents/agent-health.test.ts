import { describe, expect, it } from 'vitest';

import { agentHealth, type ClusterReach } from './agent-health.js';

const now = new Date('2026-12-02T03:00:00Z');
const secondsAgo = (s: number) => new Date(now.getTime() - s * 1000);
const peered = { provisioned: true, inboundPeeringState: 'INBOUND_PEERING_STATE_READY' as const };
const reached: ClusterReach = { reachable: true, checkedAt: secondsAgo(5), error: '' };

describe('agentHealth', () => {
  it('is online when the cluster is reached and metrics arrive, and says so', () => {
    expect(agentHealth(peered, reached, secondsAgo(20), now)).toMatchObject({
      serviceStatus: 'SERVICE_STATUS_ONLINE',
      reason: 'cluster reachable, metrics received 20 s ago',
      clusterReachable: true,
      metricsReceivedAt: secondsAgo(20),
    });
  });

  it('is offline when the metrics stop, naming how long', () => {
    expect(agentHealth(peered, reached, secondsAgo(12 * 60), now)).toMatchObject({
      serviceStatus: 'SERVICE_STATUS_OFFLINE',
      reason: 'cluster reachable, no metrics for 12 min',
    });
    expect(agentHealth(peered, reached, undefined, now).reason).toBe(
      'cluster reachable, no metrics received yet',
    );
  });

  it('is offline when the cluster cannot be reached, with why', () => {
    const unreachable = { reachable: false, checkedAt: secondsAgo(1), error: 'no answer within 10 s' };
    expect(agentHealth(peered, unreachable, secondsAgo(20), now)).toMatchObject({
      serviceStatus: 'SERVICE_STATUS_OFFLINE',
      reason: 'cluster unreachable: no answer within 10 s',
    });
  });

  it('says what is missing before the agent is peered', () => {
    const pending = 'INBOUND_PEERING_STATE_PENDING' as const;
    expect(
      agentHealth({ provisioned: false, inboundPeeringState: pending }, undefined, undefined, now).reason,
    ).toBe('not installed yet');
    expect(
      agentHealth({ provisioned: true, inboundPeeringState: pending }, undefined, undefined, now).reason,
    ).toBe('no kubeconfig uploaded yet');
    expect(
      agentHealth(
        { ...peered, inboundPeeringState: 'INBOUND_PEERING_STATE_FAILED' },
        reached,
        secondsAgo(1),
        now,
      ),
    ).toMatchObject({
      serviceStatus: 'SERVICE_STATUS_OFFLINE',
      reason: 'peering failed: see the peering error',
    });
  });
});
