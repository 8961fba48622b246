import { jetstream } from '@nats-io/jetstream';
import {
  AuthorizationError,
  type NatsConnection,
  UserAuthenticationExpiredError,
  connect,
  jwtAuthenticator,
} from '@nats-io/transport-node';
import { fleetSubject } from '@noderings/fleet';
import type { Logger } from '@noderings/log';
import { isAborted, sleep } from '@noderings/retry';
import { type BackoffOptions, RetrySchedule } from '@noderings/retry';

import { messageOf } from './agent-error.js';
import type { CredentialsKeeper } from './credentials-keeper.js';
import type { MessageQueue, QueuedMessage } from './message-queue.js';

export interface PublisherTiming {
  /** How long a publish waits for JetStream's acknowledgement before it is tried again. */
  readonly ackTimeoutMs: number;
  readonly retry: BackoffOptions;
  /** Between attempts to open a connection (the client itself reconnects forever once connected). */
  readonly connect: BackoffOptions;
}

export const DEFAULT_PUBLISHER_TIMING: PublisherTiming = {
  ackTimeoutMs: 5_000,
  retry: { baseMs: 250, maxMs: 10_000 },
  connect: { baseMs: 1_000, maxMs: 30_000 },
};

export interface NatsPublisherOptions {
  readonly publicKey: string;
  readonly nkeySeed: string;
  /** The agent's name, shown by the NATS server's monitoring. */
  readonly name: string;
  readonly credentials: CredentialsKeeper;
  /** Replaces the servers the credentials name (PROXIMA_NATS_URL). */
  readonly natsUrls: readonly string[] | undefined;
  readonly queue: MessageQueue;
  readonly log: Logger;
  readonly timing: PublisherTiming;
}

/**
 * Sends the queue's messages to JetStream under the agent's own subjects, at least once: a message stays
 * at the head until JetStream acknowledges it, and every retry carries the same `Nats-Msg-Id`, so the
 * stream drops the duplicates. Authenticates with the current JWT and the agent's nkey; stops sending
 * while the identity is gone (410).
 */
export class NatsPublisher {
  private inFlight: QueuedMessage | undefined;
  private readonly seed: Uint8Array;
  private credentialsChanged: (() => void) | undefined;
  private endConnection: (() => void) | undefined;

  constructor(private readonly options: NatsPublisherOptions) {
    this.seed = new TextEncoder().encode(options.nkeySeed);
    options.credentials.onChange(() => {
      this.credentialsChanged?.();
      if (options.credentials.gone) this.endConnection?.();
    });
  }

  /** True when nothing waits to be sent. */
  get idle(): boolean {
    return this.inFlight === undefined && this.options.queue.length === 0;
  }

  /** Connects and sends until the signal aborts; then closes the connection. */
  async run(signal: AbortSignal): Promise<void> {
    const connectBackoff = new RetrySchedule(this.options.timing.connect);
    while (!signal.aborted) {
      await this.waitForUsableCredentials(signal);
      if (isAborted(signal)) break;
      const connection = await this.connect();
      if (connection instanceof Error) {
        const waitMs = connectBackoff.next();
        this.options.log.warn(
          {
            reason: connection.message,
            retryInSeconds: Math.round(waitMs / 1000),
          },
          'cannot connect to NATS; retrying',
        );
        if (connection instanceof UserAuthenticationExpiredError || connection instanceof AuthorizationError)
          this.options.credentials.refreshNow(`NATS refused the connection: ${connection.message}`);
        await sleep(waitMs, signal);
        continue;
      }
      connectBackoff.reset();
      this.options.log.info({ server: connection.getServer() }, 'connected to NATS');
      // Sending stops when the agent stops, the client gives up, or the identity is gone.
      const ended = new AbortController();
      this.endConnection = () => {
        ended.abort();
      };
      void this.watchStatus(connection)
        .catch((e: unknown) => {
          this.options.log.debug({ reason: messageOf(e) }, 'NATS status stream ended');
        })
        .finally(() => {
          ended.abort();
        });
      await this.send(connection, AbortSignal.any([signal, ended.signal]));
      this.endConnection = undefined;
      await connection.close().catch(() => undefined);
    }
  }

  /** Settles the message being retried as abandoned (the agent stops); the queue's owner abandons the rest. */
  abandon(): void {
    this.inFlight?.settle('abandoned');
    this.inFlight = undefined;
  }

  private async connect(): Promise<NatsConnection | Error> {
    const credentials = this.options.credentials.current;
    if (credentials === undefined) return new Error('no credentials yet');
    try {
      return await connect({
        servers: [...(this.options.natsUrls ?? credentials.servers)],
        name: `proxima-agent ${this.options.name}`,
        authenticator: jwtAuthenticator(
          () => this.options.credentials.jwt(),
          () => this.seed,
        ),
        inboxPrefix: credentials.inboxPrefix,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 1_000,
        // An expired JWT is refused until the keeper has a new one; the client must keep trying.
        ignoreAuthErrorAbort: true,
      });
    } catch (e: unknown) {
      return e instanceof Error ? e : new Error(String(e));
    }
  }

  /** Logs connection changes; asks for a new JWT when the server refuses the current one. */
  private async watchStatus(connection: NatsConnection): Promise<void> {
    for await (const status of connection.status()) {
      if (status.type === 'disconnect')
        this.options.log.warn({ server: status.server }, 'disconnected from NATS; reconnecting');
      else if (status.type === 'reconnect')
        this.options.log.info({ server: status.server }, 'reconnected to NATS');
      else if (status.type === 'error') {
        const error = status.error;
        if (error instanceof UserAuthenticationExpiredError || error instanceof AuthorizationError)
          this.options.credentials.refreshNow(`NATS: ${error.message}`);
        else this.options.log.warn({ reason: error.message }, 'NATS reported an error');
      }
    }
  }

  private async send(connection: NatsConnection, signal: AbortSignal): Promise<void> {
    const js = jetstream(connection);
    const backoff = new RetrySchedule(this.options.timing.retry);
    let failures = 0;
    while (!signal.aborted && !this.options.credentials.gone) {
      if (this.inFlight === undefined) await this.options.queue.waitForMessage(signal);
      const message = this.inFlight ?? this.options.queue.take();
      if (message === undefined || isAborted(signal)) continue;
      this.inFlight = message;
      try {
        await js.publish(fleetSubject(this.options.publicKey, message.kind), message.payload, {
          msgID: message.id,
          timeout: this.options.timing.ackTimeoutMs,
        });
        this.inFlight = undefined;
        message.settle('acked');
        if (failures > 0)
          this.options.log.info({ failedAttempts: failures }, 'publishing to JetStream again');
        failures = 0;
        backoff.reset();
      } catch (e: unknown) {
        failures++;
        const waitMs = backoff.next();
        const fields = { kind: message.kind, id: message.id, reason: messageOf(e), failures };
        // The first failure of a run is worth a warning; the retries that follow are not.
        if (failures === 1) this.options.log.warn(fields, 'publish not acknowledged; retrying');
        else this.options.log.debug(fields, 'publish not acknowledged; retrying');
        await sleep(waitMs, signal);
      }
    }
  }

  private async waitForUsableCredentials(signal: AbortSignal): Promise<void> {
    const usable = (): boolean =>
      this.options.credentials.current !== undefined && !this.options.credentials.gone;
    while (!usable() && !signal.aborted) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          this.credentialsChanged = undefined;
          signal.removeEventListener('abort', done);
          resolve();
        };
        this.credentialsChanged = done;
        signal.addEventListener('abort', done, { once: true });
      });
    }
  }
}
