import { randomUUID } from 'node:crypto';

import { jetstream } from '@nats-io/jetstream';
import { createUser } from '@nats-io/nkeys';
import { connect, jwtAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import {
  ENROLL_PATH,
  fleetSubject,
  type EnrollResponse,
  type FleetMessage,
  type HeartbeatMessage,
  type MessageKind,
} from '@noderings/fleet';

import type { ApiResponse, Caller, TestControlPlane } from '../../control-plane.test-support.js';

/** A node agent's identity as it keeps it in state.json: the nkey seed never leaves it. */
export interface AgentKey {
  readonly publicKey: string;
  readonly seed: string;
}

export function newAgentKey(): AgentKey {
  const user = createUser();
  return { publicKey: user.getPublicKey(), seed: new TextDecoder().decode(user.getSeed()) };
}

/** A verified provider with an environment and an install token for it. */
export interface FleetSite {
  readonly provider: Caller & { organizationId: string };
  readonly environmentId: string;
  readonly installToken: string;
}

export async function createFleetSite(t: TestControlPlane, name = 'production'): Promise<FleetSite> {
  const provider = await t.verifiedProvider();
  const environment = await t.call<{ id: string }>('POST', '/api/v1/fleet/environments', {
    as: provider,
    body: { name },
  });
  if (environment.status !== 201) throw new Error(`environment: ${JSON.stringify(environment.body)}`);
  const token = await t.call<{ token: string }>(
    'POST',
    `/api/v1/fleet/environments/${environment.body.id}/install-tokens`,
    { as: provider, body: { description: 'daemonset' } },
  );
  if (token.status !== 201) throw new Error(`install token: ${JSON.stringify(token.body)}`);
  return { provider, environmentId: environment.body.id, installToken: token.body.token };
}

export const MACHINE_ID = '5d41402abc4b2a76b9719d911017c592';

/** An enrollment body as a k8s-node-monitor sends it. */
export function enrollBody(key: AgentKey, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    agentType: 'k8s-node-monitor',
    name: 'node-1',
    version: '0.8.0',
    publicKey: key.publicKey,
    hostSignals: { machineId: MACHINE_ID },
    ...overrides,
  };
}

/** An error answer: google.rpc.Status, and for identity conflicts the `error` object agents read. */
export interface FleetErrorBody {
  readonly code: string;
  readonly message: string;
  readonly error?: { readonly code: string; readonly message: string };
}

export function enroll(
  t: TestControlPlane,
  installToken: string | undefined,
  body: unknown,
): Promise<ApiResponse<EnrollResponse & FleetErrorBody>> {
  return t.call('POST', ENROLL_PATH, {
    body,
    headers: installToken === undefined ? {} : { authorization: `Bearer ${installToken}` },
  });
}

/** Enrolls and expects success. */
export async function enrolled(
  t: TestControlPlane,
  site: FleetSite,
  key: AgentKey,
  overrides: Record<string, unknown> = {},
): Promise<EnrollResponse> {
  const response = await enroll(t, site.installToken, enrollBody(key, overrides));
  if (response.status !== 201 && response.status !== 200)
    throw new Error(`enroll answered ${String(response.status)}: ${JSON.stringify(response.body)}`);
  return response.body;
}

/** Connects as the agent does: its user JWT, its nkey signing the server's nonce, its own inbox. */
export function connectAgent(enrollment: EnrollResponse, key: AgentKey): Promise<NatsConnection> {
  return connect({
    servers: [...enrollment.nats.servers],
    authenticator: jwtAuthenticator(enrollment.nats.jwt, new TextEncoder().encode(key.seed)),
    inboxPrefix: enrollment.nats.inboxPrefix,
  });
}

/** Publishes a message to JetStream under the key's subject, with a Nats-Msg-Id (the message's id by default). */
export async function publish(
  nc: NatsConnection,
  publicKey: string,
  message: FleetMessage | { kind: MessageKind; raw: string },
  msgID?: string,
): Promise<void> {
  const data = 'raw' in message ? message.raw : JSON.stringify(message);
  const id = msgID ?? ('id' in message ? message.id : randomUUID());
  await jetstream(nc).publish(fleetSubject(publicKey, message.kind), data, { msgID: id });
}

export function heartbeatMessage(overrides: Partial<HeartbeatMessage> = {}): HeartbeatMessage {
  return {
    kind: 'heartbeat',
    id: randomUUID(),
    sentAt: new Date().toISOString(),
    version: '0.8.0',
    agentType: 'k8s-node-monitor',
    name: 'node-1',
    hostname: 'node-1',
    intervalSeconds: 30,
    collectors: [{ name: 'kubelet', kind: 'core', status: 'ok' }],
    ...overrides,
  };
}
