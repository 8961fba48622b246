import { setTimeout as delay } from 'node:timers/promises';

import { type JetStreamManager, jetstreamManager } from '@nats-io/jetstream';
import { connect, jwtAuthenticator, nanos } from '@nats-io/transport-node';
import { FLEET_STREAM, type FleetMessage, fleetMessageSchema, parseFleetSubject } from '@noderings/fleet';
import { issueServiceCredentials } from '@noderings/fleet/nats-authority';
import { type NatsServerProcess, startNatsServer } from '@noderings/fleet/nats-server';

interface StoredFleetMessage {
  readonly publicKey: string;
  readonly message: FleetMessage;
}

/** A real nats-server with the FLEET stream, read back as the control plane would. */
export interface FleetStream {
  readonly nats: NatsServerProcess;
  readonly jsm: JetStreamManager;
  /** Every stored message, parsed with the contract's schema (one that fails it throws). */
  messages(): Promise<StoredFleetMessage[]>;
  /** Empties the stream. */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export async function startFleetStream(): Promise<FleetStream> {
  const nats = await startNatsServer();
  const credentials = await issueServiceCredentials(nats.authority.accountSeed, 'test-service');
  const service = await connect({
    servers: nats.url,
    authenticator: jwtAuthenticator(credentials.jwt, credentials.seed),
  });
  const jsm = await jetstreamManager(service);
  const reset = async (): Promise<void> => {
    await jsm.streams.delete(FLEET_STREAM).catch(() => false);
    await jsm.streams.add({ name: FLEET_STREAM, subjects: ['fleet.>'], duplicate_window: nanos(120_000) });
  };
  await reset();
  return {
    nats,
    jsm,
    reset,
    messages: async () => {
      const info = await jsm.streams.info(FLEET_STREAM);
      const found: StoredFleetMessage[] = [];
      if (info.state.messages === 0) return found;
      for (let seq = info.state.first_seq; seq <= info.state.last_seq; seq++) {
        const stored = await jsm.streams.getMessage(FLEET_STREAM, { seq });
        const subject = stored === null ? undefined : parseFleetSubject(stored.subject);
        if (stored === null || subject === undefined) continue;
        found.push({ publicKey: subject.publicKey, message: fleetMessageSchema.parse(stored.json()) });
      }
      return found;
    },
    close: async () => {
      await service.close();
      await nats.stop();
    },
  };
}

/** Polls `what` until it gives a value. */
export async function eventually<T>(
  what: () => Promise<T | undefined> | T | undefined,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`nothing after ${timeoutMs} ms`);
    await delay(100);
  }
}
