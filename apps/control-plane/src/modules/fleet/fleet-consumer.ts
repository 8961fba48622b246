import { setTimeout as timeout } from 'node:timers/promises';

import {
  AckPolicy,
  DiscardPolicy,
  jetstream,
  JetStreamApiCodes,
  JetStreamApiError,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type ConsumerMessages,
  type JetStreamManager,
  type JsMsg,
} from '@nats-io/jetstream';
import { connect, jwtAuthenticator, type NatsConnection } from '@nats-io/transport-node';
import { FLEET_CONSUMER, FLEET_STREAM } from '@noderings/fleet';
import { issueServiceCredentials } from '@noderings/fleet/nats-authority';
import { Backoff, sleep } from '@noderings/retry';
import type { BaseLogger } from 'pino';

import type { FleetIngestService, IngestOutcome } from './fleet-ingest.service.js';

/** How long the stream keeps a message nobody acknowledged: a control-plane outage this long loses nothing. */
export const STREAM_MAX_AGE_MS = 24 * 3600_000;
/** JetStream drops a re-publish with the same `Nats-Msg-Id` within this window. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** A message not acknowledged within this long goes to another replica (stored at most once anyway). */
const ACK_WAIT_MS = 60_000;
/** Messages pulled ahead per replica. */
const PULL_BATCH = 64;
const NAK_DELAY = new Backoff({ baseMs: 1000, maxMs: 60_000, jitter: 0 });
const RECONNECT_WAIT_MS = 2000;
const CONNECT_TIMEOUT_MS = 5000;
const DRAIN_TIMEOUT_MS = 2000;
const SESSION_RETRY = new Backoff({ baseMs: 1000, maxMs: 30_000, jitter: 0 });
/** At most one warning about invalid messages per this long; the rest are counted into the next. */
const INVALID_WARNING_INTERVAL_MS = 60_000;
const NS_PER_MS = 1_000_000;

export interface FleetConsumerCounts {
  stored: number;
  duplicate: number;
  dropped: number;
  invalid: number;
  failed: number;
}

/**
 * The control plane's side of the fleet transport: a durable pull consumer (`control-plane`) on the
 * `FLEET` stream, shared by every replica, so each message goes to one of them. Delivery is at least once
 * and storage idempotent (by message id, in the message's own transaction): stored, duplicate and dropped
 * messages are acknowledged, invalid ones terminated, and a database error naks the message with a
 * growing delay. Connects with service credentials the fleet account signs, reconnects forever, and
 * `stop()` drains: the message in hand is finished, the rest are redelivered to another replica.
 */
export class FleetConsumer {
  readonly counts: FleetConsumerCounts = { stored: 0, duplicate: 0, dropped: 0, invalid: 0, failed: 0 };
  #loop: Promise<void> | undefined;
  #stopRequested = false;
  readonly #wake = new AbortController();
  #messages: ConsumerMessages | undefined;
  #lastWarningMs = -Infinity;
  #suppressedWarnings = 0;

  constructor(
    private readonly deps: {
      readonly natsUrl: string;
      /** The fleet account's seed; its service credentials are minted from it, never logged. */
      readonly accountSeed: string;
      readonly ingest: Pick<FleetIngestService, 'handle'>;
      readonly now: () => Date;
      readonly logger: Pick<BaseLogger, 'debug' | 'info' | 'warn' | 'error'>;
      /** This replica's name, as NATS shows the connection. */
      readonly name: string;
    },
  ) {}

  start(): void {
    this.#loop ??= this.#run();
  }

  async stop(): Promise<void> {
    this.#stopRequested = true;
    this.#wake.abort();
    await this.#messages?.close();
    await this.#loop;
  }

  /** A method, not a field read: the flag changes while a loop awaits. */
  #stopping(): boolean {
    return this.#stopRequested;
  }

  async #run(): Promise<void> {
    for (let failures = 0; !this.#stopping();) {
      try {
        await this.#session();
        failures = 0;
      } catch (e: unknown) {
        failures++;
        if (!this.#stopping())
          this.deps.logger.warn(
            { err: e, natsUrl: this.deps.natsUrl },
            'fleet consumer session failed; retrying',
          );
      }
      if (this.#stopping()) return;
      await sleep(SESSION_RETRY.delayMs(failures), this.#wake.signal);
    }
  }

  /** One connection: ensure the stream and consumer, then process messages until stopped or lost. */
  async #session(): Promise<void> {
    const credentials = await issueServiceCredentials(this.deps.accountSeed, this.deps.name);
    const nc = await connect({
      servers: this.deps.natsUrl.split(','),
      name: this.deps.name,
      authenticator: jwtAuthenticator(credentials.jwt, credentials.seed),
      maxReconnectAttempts: -1,
      reconnectTimeWait: RECONNECT_WAIT_MS,
      timeout: CONNECT_TIMEOUT_MS,
    });
    try {
      void this.#watchConnection(nc).catch(() => undefined);
      await ensureStreamAndConsumer(await jetstreamManager(nc));
      const consumer = await jetstream(nc).consumers.get(FLEET_STREAM, FLEET_CONSUMER);
      const messages = await consumer.consume({ max_messages: PULL_BATCH });
      this.#messages = messages;
      // Closing is done by the loop below, which runs the iterator's own stop (awaiting it here would hang).
      if (this.#stopping()) void messages.close();
      void this.#watchConsumer(messages).catch(() => undefined);
      this.deps.logger.info({ stream: FLEET_STREAM, consumer: FLEET_CONSUMER }, 'fleet consumer started');
      for await (const m of messages) await this.#process(m);
    } finally {
      this.#messages = undefined;
      if (!nc.isClosed()) await drainOrClose(nc);
    }
  }

  async #process(m: JsMsg): Promise<void> {
    const heardAt = new Date(Math.min(m.time.getTime(), this.deps.now().getTime()));
    let outcome: IngestOutcome;
    try {
      outcome = await this.deps.ingest.handle(m.subject, m.data, heardAt);
    } catch (e: unknown) {
      this.counts.failed++;
      const delay = NAK_DELAY.delayMs(m.info.deliveryCount);
      this.deps.logger.error(
        { err: e, subject: m.subject, delayMs: delay },
        'could not store a fleet message; it will be redelivered',
      );
      m.nak(delay);
      return;
    }
    switch (outcome.kind) {
      case 'stored':
      case 'duplicate':
        this.counts[outcome.kind]++;
        m.ack();
        return;
      case 'dropped':
        this.counts.dropped++;
        this.deps.logger.debug({ subject: m.subject, reason: outcome.reason }, 'fleet message dropped');
        m.ack();
        return;
      case 'invalid':
        this.counts.invalid++;
        this.#warnInvalid(m.subject, outcome.agentId, outcome.reason);
        m.term();
        return;
    }
  }

  #warnInvalid(subject: string, agentId: string, reason: string): void {
    const nowMs = Date.now();
    if (nowMs - this.#lastWarningMs < INVALID_WARNING_INTERVAL_MS) {
      this.#suppressedWarnings++;
      return;
    }
    this.deps.logger.warn(
      { subject, agentId, reason, suppressedSinceLastWarning: this.#suppressedWarnings },
      'invalid fleet message dropped',
    );
    this.#lastWarningMs = nowMs;
    this.#suppressedWarnings = 0;
  }

  async #watchConnection(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect')
        this.deps.logger.warn({ server: status.server }, 'fleet NATS connection lost; reconnecting');
      else if (status.type === 'reconnect')
        this.deps.logger.info({ server: status.server }, 'fleet NATS connection restored');
    }
  }

  /** A consumer deleted under us (an operator's mistake) is recreated by ending the session. */
  async #watchConsumer(messages: ConsumerMessages): Promise<void> {
    for await (const status of messages.status()) {
      if (
        status.type === 'consumer_deleted' ||
        status.type === 'consumer_not_found' ||
        status.type === 'stream_not_found'
      ) {
        this.deps.logger.warn({ event: status.type }, 'fleet stream or consumer is gone; recreating it');
        await messages.close();
        return;
      }
    }
  }
}

/** Drains (acks in flight reach the server), unless the server is unreachable: then closes. */
async function drainOrClose(nc: NatsConnection): Promise<void> {
  const drained = await Promise.race([
    nc.drain().then(
      () => true,
      () => false,
    ),
    timeout(DRAIN_TIMEOUT_MS, false),
  ]);
  if (!drained && !nc.isClosed()) await nc.close();
}

async function ensureStreamAndConsumer(jsm: JetStreamManager): Promise<void> {
  const wanted = {
    subjects: ['fleet.>'],
    max_age: STREAM_MAX_AGE_MS * NS_PER_MS,
    duplicate_window: DUPLICATE_WINDOW_MS * NS_PER_MS,
    discard: DiscardPolicy.Old,
  };
  try {
    const { config } = await jsm.streams.info(FLEET_STREAM);
    if (
      config.max_age !== wanted.max_age ||
      config.duplicate_window !== wanted.duplicate_window ||
      config.subjects.join() !== wanted.subjects.join()
    )
      await jsm.streams.update(FLEET_STREAM, wanted);
  } catch (e: unknown) {
    if (!(e instanceof JetStreamApiError) || e.code !== JetStreamApiCodes.StreamNotFound) throw e;
    // Several replicas may get here at once: an identical add is answered with the existing stream.
    await jsm.streams.add({
      ...wanted,
      name: FLEET_STREAM,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
    });
  }
  try {
    const { config } = await jsm.consumers.info(FLEET_STREAM, FLEET_CONSUMER);
    if (config.ack_wait !== ACK_WAIT_MS * NS_PER_MS)
      await jsm.consumers.update(FLEET_STREAM, FLEET_CONSUMER, { ack_wait: ACK_WAIT_MS * NS_PER_MS });
  } catch (e: unknown) {
    if (!(e instanceof JetStreamApiError) || e.code !== JetStreamApiCodes.ConsumerNotFound) throw e;
    await jsm.consumers.add(FLEET_STREAM, {
      durable_name: FLEET_CONSUMER,
      ack_policy: AckPolicy.Explicit,
      ack_wait: ACK_WAIT_MS * NS_PER_MS,
      max_deliver: -1,
    });
  }
}
