import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';

import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { createUser, fromSeed } from '@nats-io/nkeys';
import { type NatsConnection, connect, jwtAuthenticator, nanos } from '@nats-io/transport-node';
import { ENROLL_PATH, FLEET_STREAM, agentInboxPrefix, fleetSubject } from '@noderings/fleet';
import { issueAgentJwt, issueServiceCredentials } from '@noderings/fleet/nats-authority';
import { type NatsServerProcess, startNatsServer } from '@noderings/fleet/nats-server';
import { captureLogs } from '@noderings/log/log-capture';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';

import { CredentialsKeeper, DEFAULT_CREDENTIALS_TIMING } from './credentials-keeper.js';
import { type FakeBackend, startFakeBackend } from './fake-backend.test-support.js';
import { MessageQueue } from './message-queue.js';
import { NatsPublisher } from './nats-publisher.js';
import { type TcpProxy, startTcpProxy } from './tcp-proxy.test-support.js';

const FAST = {
  ackTimeoutMs: 500,
  retry: { baseMs: 100, maxMs: 300 },
  connect: { baseMs: 100, maxMs: 300 },
};

describe('NatsPublisher against a real nats-server', () => {
  let nats: NatsServerProcess;
  let service: NatsConnection;
  let jsm: JetStreamManager;
  let proxy: TcpProxy;
  let stops: (() => Promise<void>)[];

  beforeAll(async () => {
    nats = await startNatsServer();
    const credentials = await issueServiceCredentials(nats.authority.accountSeed, 'test-service');
    service = await connect({
      servers: nats.url,
      authenticator: jwtAuthenticator(credentials.jwt, credentials.seed),
    });
    jsm = await jetstreamManager(service);
  });
  afterAll(async () => {
    await service.close();
    await nats.stop();
  });
  beforeEach(async () => {
    await jsm.streams.delete(FLEET_STREAM).catch(() => false);
    await jsm.streams.add({ name: FLEET_STREAM, subjects: ['fleet.>'], duplicate_window: nanos(120_000) });
    proxy = await startTcpProxy(nats.url);
    stops = [];
  });
  afterEach(async () => {
    for (const stop of stops.reverse()) await stop();
    await proxy.close();
  });

  /** A publisher for a fresh agent key, with a JWT for it; returns what the test needs. */
  async function publisher(options: { lifetimeMs?: number; backend?: FakeBackend; seed?: string } = {}) {
    const seed = options.seed ?? newSeed();
    const publicKey = publicKeyOf(seed);
    const { logger: log, lines } = captureLogs();
    const expiresAt = new Date(Date.now() + (options.lifetimeMs ?? 3_600_000));
    const issued = await issueAgentJwt(nats.authority.accountSeed, publicKey, 'worker-1', expiresAt);
    const keeper = new CredentialsKeeper({
      backendUrl: options.backend?.url ?? 'http://127.0.0.1:1',
      agentId: 'agent-1',
      nkeySeed: seed,
      log,
      initial: {
        servers: [proxy.url],
        jwt: issued.jwt,
        inboxPrefix: agentInboxPrefix(publicKey),
        expiresAt: expiresAt.toISOString(),
      },
      timing: { ...DEFAULT_CREDENTIALS_TIMING, minRefreshMs: 200, retry: { baseMs: 100, maxMs: 500 } },
      now: () => new Date(),
    });
    const queue = new MessageQueue({ maxBytes: 1024 * 1024, log });
    const sender = new NatsPublisher({
      publicKey,
      nkeySeed: seed,
      name: 'worker-1',
      credentials: keeper,
      natsUrls: undefined,
      queue,
      log,
      timing: FAST,
    });
    const controller = new AbortController();
    const runs = [keeper.run(controller.signal), sender.run(controller.signal)];
    stops.push(async () => {
      controller.abort();
      await Promise.all(runs);
      sender.abandon();
      queue.abandonAll();
    });
    return { publicKey, queue, lines, keeper };
  }

  const newSeed = (): string => new TextDecoder().decode(createUser().getSeed());
  const publicKeyOf = (seed: string): string => fromSeed(new TextEncoder().encode(seed)).getPublicKey();

  /** The fake backend issues credentials only for a key it enrolled. */
  async function enrollKey(backend: FakeBackend, seed: string): Promise<void> {
    const response = await fetch(`${backend.url}${ENROLL_PATH}`, {
      method: 'POST',
      headers: { authorization: 'Bearer install-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({
        agentType: 'host',
        name: 'worker-1',
        version: '1',
        publicKey: publicKeyOf(seed),
      }),
    });
    expect(response.status).toBe(201);
  }

  const payload = (text: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(text));

  async function stored(): Promise<{ subject: string; id: string | undefined; body: unknown }[]> {
    const info = await jsm.streams.info(FLEET_STREAM);
    const messages = [];
    for (let seq = info.state.first_seq; seq <= info.state.last_seq && info.state.messages > 0; seq++) {
      const message = await jsm.streams.getMessage(FLEET_STREAM, { seq });
      if (message !== null)
        messages.push({
          subject: message.subject,
          id: message.header.get('Nats-Msg-Id'),
          body: message.json(),
        });
    }
    return messages;
  }

  test('a message arrives in the FLEET stream under the agent’s subject, with its id', async () => {
    const { publicKey, queue } = await publisher();
    const id = randomUUID();
    expect(await queue.push('heartbeat', id, payload({ kind: 'heartbeat', id }))).toBe('acked');
    expect(await stored()).toEqual([
      { subject: fleetSubject(publicKey, 'heartbeat'), id, body: { kind: 'heartbeat', id } },
    ]);
  });

  test('a publish whose acknowledgement is late is retried with the same id, and stored once', async () => {
    const { queue, lines } = await publisher();
    await queue.push('metrics', randomUUID(), payload({ warm: true }));
    proxy.setMode({ delayAnswersMs: 1_200 });
    const id = randomUUID();
    const delivery = queue.push('metrics', id, payload({ kind: 'metrics', id }));
    await delay(900);
    proxy.setMode('pass');
    expect(await delivery).toBe('acked');
    expect(lines.some((l) => l.msg === 'publish not acknowledged; retrying' && l.id === id)).toBe(true);
    expect((await stored()).filter((m) => m.id === id)).toHaveLength(1);
  });

  test('messages queued while the server is unreachable are delivered once it is back, in order', async () => {
    const { queue } = await publisher();
    await queue.push('logs', randomUUID(), payload({ n: 0 }));
    proxy.setMode('down');
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    const deliveries = ids.map((id, n) => queue.push('logs', id, payload({ n: n + 1 })));
    await delay(1_500);
    expect((await stored()).map((m) => m.body)).toEqual([{ n: 0 }]);
    proxy.setMode('pass');
    expect(await Promise.all(deliveries)).toEqual(['acked', 'acked', 'acked']);
    expect((await stored()).map((m) => m.body)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
  });

  test('refreshes a short-lived JWT at half its lifetime and keeps publishing after the first expires', async () => {
    const backend = await startFakeBackend({ accountSeed: nats.authority.accountSeed, jwtLifetimeMs: 4_000 });
    stops.push(() => backend.close());
    const seed = newSeed();
    await enrollKey(backend, seed);
    const { queue } = await publisher({ lifetimeMs: 3_000, backend, seed });
    expect(await queue.push('heartbeat', randomUUID(), payload({ n: 1 }))).toBe('acked');
    await delay(4_000);
    expect(backend.credentialRequests.length).toBeGreaterThanOrEqual(1);
    expect(await queue.push('heartbeat', randomUUID(), payload({ n: 2 }))).toBe('acked');
  });

  test('stops publishing when the identity is gone (410)', async () => {
    const backend = await startFakeBackend({ accountSeed: nats.authority.accountSeed });
    stops.push(() => backend.close());
    backend.scriptCredentials({ status: 410, body: { code: 'GONE', message: 'identity released' } });
    const seed = newSeed();
    await enrollKey(backend, seed);
    const { queue, lines, keeper } = await publisher({ lifetimeMs: 1_000, backend, seed });
    for (let i = 0; i < 100 && !keeper.gone; i++) await delay(50);
    expect(keeper.gone).toBe(true);
    expect(lines.find((l) => l.level === 'error')?.msg).toContain('released or re-bound');
    const before = (await stored()).length;
    void queue.push('heartbeat', randomUUID(), payload({ n: 1 }));
    await delay(500);
    expect((await stored()).length).toBe(before);
  });
});
