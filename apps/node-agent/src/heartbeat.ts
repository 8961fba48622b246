import { randomUUID } from 'node:crypto';

import type { CollectorStatus, HeartbeatMessage } from '@noderings/fleet';

import type { NodeAgentType } from './config.js';

export interface HeartbeatFacts {
  readonly version: string;
  readonly agentType: NodeAgentType;
  readonly name: string;
  readonly hostname: string;
  readonly intervalSeconds: number;
}

/** A heartbeat: who the agent is, how often it beats, and how each collector fares. */
export function heartbeatMessage(
  facts: HeartbeatFacts,
  collectors: readonly CollectorStatus[],
  sentAt: Date,
): HeartbeatMessage {
  return {
    kind: 'heartbeat',
    id: randomUUID(),
    sentAt: sentAt.toISOString(),
    version: facts.version,
    agentType: facts.agentType,
    name: facts.name,
    hostname: facts.hostname,
    intervalSeconds: facts.intervalSeconds,
    collectors: [...collectors],
  };
}
