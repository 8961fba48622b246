import { jetstream, jetstreamManager } from '@nats-io/jetstream';
import { createUser } from '@nats-io/nkeys';
import { connect, jwtAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { issueAgentJwt, issueServiceCredentials } from './nats-authority.js';
import { startNatsServer, type NatsServerProcess } from './nats-server.js';
import { agentInboxPrefix, FLEET_STREAM, fleetSubject } from './subjects.js';

let server: NatsServerProcess;
let service: NatsConnection;
const inAnHour = (): Date => new Date(Date.now() + 3_600_000);

beforeAll(async () => {
  server = await startNatsServer();
  const credentials = await issueServiceCredentials(server.authority.accountSeed, 'test-service');
  service = await connect({
    servers: server.url,
    authenticator: jwtAuthenticator(credentials.jwt, credentials.seed),
  });
  await (await jetstreamManager(service)).streams.add({ name: FLEET_STREAM, subjects: ['fleet.>'] });
});

afterAll(async () => {
  await service.close();
  await server.stop();
});

async function connectAgent(jwt: string, seed: Uint8Array, publicKey: string): Promise<NatsConnection> {
  return connect({
    servers: server.url,
    authenticator: jwtAuthenticator(jwt, seed),
    inboxPrefix: agentInboxPrefix(publicKey),
    reconnect: false,
  });
}

describe('fleet NATS authority on a real nats-server', () => {
  it('lets an agent publish under its own key, once per message id, and nowhere else', async () => {
    const agent = createUser();
    const { jwt } = await issueAgentJwt(server.authority.accountSeed, agent.getPublicKey(), 'a', inAnHour());
    const nc = await connectAgent(jwt, agent.getSeed(), agent.getPublicKey());
    try {
      const js = jetstream(nc);
      const subject = fleetSubject(agent.getPublicKey(), 'heartbeat');
      const first = await js.publish(subject, '{}', { msgID: 'm-1' });
      const again = await js.publish(subject, '{}', { msgID: 'm-1' });
      expect(again.duplicate).toBe(true);
      expect(again.seq).toBe(first.seq);
      const other = fleetSubject(createUser().getPublicKey(), 'heartbeat');
      await expect(js.publish(other, '{}', { timeout: 2_000 })).rejects.toThrow(/Permissions Violation/);
    } finally {
      await nc.close();
    }
  });

  it('refuses a JWT presented without its private key, and an expired one', async () => {
    const agent = createUser();
    const { jwt } = await issueAgentJwt(server.authority.accountSeed, agent.getPublicKey(), 'a', inAnHour());
    const thief = createUser();
    await expect(connectAgent(jwt, thief.getSeed(), thief.getPublicKey())).rejects.toThrow(/Authorization/i);
    const expired = await issueAgentJwt(
      server.authority.accountSeed,
      agent.getPublicKey(),
      'a',
      new Date(Date.now() - 60_000),
    );
    await expect(connectAgent(expired.jwt, agent.getSeed(), agent.getPublicKey())).rejects.toThrow(
      /expired|Authorization/i,
    );
  });

  it('refuses a JWT signed by an account the server does not trust', async () => {
    const other = await startNatsServer();
    try {
      const agent = createUser();
      const { jwt } = await issueAgentJwt(other.authority.accountSeed, agent.getPublicKey(), 'a', inAnHour());
      await expect(connectAgent(jwt, agent.getSeed(), agent.getPublicKey())).rejects.toThrow(
        /Authorization/i,
      );
    } finally {
      await other.stop();
    }
  });
});
