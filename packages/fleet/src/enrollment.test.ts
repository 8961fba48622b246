import { createUser } from '@nats-io/nkeys';
import { describe, expect, it } from 'vitest';

import { enrollRequestSchema, signCredentialsRequest, verifyCredentialsRequest } from './enrollment.js';

const decoder = new TextDecoder();
const NOW = 1_790_000_000;

function agentKey(): { seed: string; publicKey: string } {
  const pair = createUser();
  return { seed: decoder.decode(pair.getSeed()), publicKey: pair.getPublicKey() };
}

describe('signed credentials requests', () => {
  it('accepts a signature by the enrolled key for this agent within five minutes', () => {
    const key = agentKey();
    const header = signCredentialsRequest(key.seed, 'agent-1', NOW);
    expect(verifyCredentialsRequest(header, key.publicKey, 'agent-1', NOW + 299)).toBe('valid');
  });

  it('refuses another key, another agent, an old signature and garbage', () => {
    const key = agentKey();
    const header = signCredentialsRequest(key.seed, 'agent-1', NOW);
    expect(verifyCredentialsRequest(header, agentKey().publicKey, 'agent-1', NOW)).toBe('bad-signature');
    expect(verifyCredentialsRequest(header, key.publicKey, 'agent-2', NOW)).toBe('bad-signature');
    expect(verifyCredentialsRequest(header, key.publicKey, 'agent-1', NOW + 301)).toBe('expired');
    expect(verifyCredentialsRequest(header, key.publicKey, 'agent-1', NOW - 301)).toBe('expired');
    expect(verifyCredentialsRequest(undefined, key.publicKey, 'agent-1', NOW)).toBe('malformed');
    expect(verifyCredentialsRequest(`Bearer ${header}`, key.publicKey, 'agent-1', NOW)).toBe('malformed');
    expect(verifyCredentialsRequest(header.replace(/.$/, ''), key.publicKey, 'agent-1', NOW)).toBe(
      'malformed',
    );
  });
});

describe('enrollment requests', () => {
  const valid = {
    agentType: 'k8s-node-monitor',
    name: 'worker-1.cluster.example',
    version: '0.1.0',
    publicKey: agentKey().publicKey,
    hostSignals: { machineId: '0123456789abcdef0123456789abcdef' },
  };

  it('accepts a node agent with a host signal, and one without any', () => {
    expect(enrollRequestSchema.parse(valid).hostSignals.machineId).toBe(valid.hostSignals.machineId);
    expect(enrollRequestSchema.parse({ ...valid, hostSignals: undefined }).hostSignals).toEqual({});
  });

  it.each([
    ['an unknown agent type', { agentType: 'daemon' }],
    ['a name with spaces', { name: 'worker 1' }],
    ['an account key instead of a user key', { publicKey: `A${valid.publicKey.slice(1)}` }],
    ['a seed instead of a public key', { publicKey: agentKey().seed }],
    ['a machine id that is not 32 hex digits', { hostSignals: { machineId: 'abc' } }],
    ['an unknown field', { token: 'x' }],
  ])('refuses %s', (_, change) => {
    expect(enrollRequestSchema.safeParse({ ...valid, ...change }).success).toBe(false);
  });
});
