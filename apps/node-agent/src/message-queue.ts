import type { MessageKind } from '@noderings/fleet';
import type { Logger } from '@noderings/log';

/** What became of a queued message. */
export type Delivery = 'acked' | 'dropped' | 'abandoned';

export interface QueuedMessage {
  readonly kind: MessageKind;
  /** The message's id, sent as `Nats-Msg-Id` on every attempt. */
  readonly id: string;
  readonly payload: Uint8Array;
  readonly settle: (delivery: Delivery) => void;
}

export interface MessageQueueOptions {
  readonly maxBytes: number;
  readonly log: Logger;
  /** How often at most a warning about dropped messages is logged. Default 60 s. */
  readonly dropWarningIntervalMs?: number;
  readonly now?: () => number;
}

/** Heartbeats beyond this many are superseded by the later ones. */
const MAX_HEARTBEATS = 10;
/** Log tailing pauses above this share of the queue (the lines wait on disk instead). */
const LOGS_HIGH_WATER = 0.5;

/**
 * Messages waiting for NATS, bounded in bytes. When full, the oldest metrics go first, then the oldest
 * logs; heartbeats are taken out first and only ever give way to newer heartbeats. Drops are counted
 * and logged at most once a minute.
 */
export class MessageQueue {
  private readonly heartbeats: QueuedMessage[] = [];
  private readonly others: QueuedMessage[] = [];
  private totalBytes = 0;
  private readonly dropped: Record<MessageKind, number> = { heartbeat: 0, metrics: 0, logs: 0 };
  private droppedSinceWarning = 0;
  private lastWarningMs = -Infinity;
  private wake: (() => void) | undefined;

  constructor(private readonly options: MessageQueueOptions) {}

  /** Queues a message; resolves once it is acknowledged, dropped or abandoned at stop. */
  push(kind: MessageKind, id: string, payload: Uint8Array): Promise<Delivery> {
    return new Promise((resolve) => {
      const message: QueuedMessage = { kind, id, payload, settle: resolve };
      if (kind === 'heartbeat') {
        this.heartbeats.push(message);
        if (this.heartbeats.length > MAX_HEARTBEATS) this.drop(this.heartbeats, 0);
      } else {
        this.others.push(message);
      }
      this.totalBytes += payload.byteLength;
      this.makeRoom();
      this.wake?.();
    });
  }

  /** The next message to send: heartbeats first, then the rest in order. */
  take(): QueuedMessage | undefined {
    const message = this.heartbeats.shift() ?? this.others.shift();
    if (message !== undefined) this.totalBytes -= message.payload.byteLength;
    return message;
  }

  get length(): number {
    return this.heartbeats.length + this.others.length;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /** Whether log tailing may add more; above half the queue it waits so lines are not dropped. */
  hasRoomForLogs(): boolean {
    return this.totalBytes < this.options.maxBytes * LOGS_HIGH_WATER;
  }

  droppedCounts(): Readonly<Record<MessageKind, number>> {
    return { ...this.dropped };
  }

  /** Resolves when a message is queued (at once if one is) or the signal aborts. */
  async waitForMessage(signal: AbortSignal): Promise<void> {
    if (this.length > 0 || signal.aborted) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.wake = undefined;
        signal.removeEventListener('abort', done);
        resolve();
      };
      this.wake = done;
      signal.addEventListener('abort', done, { once: true });
    });
  }

  /** Settles every queued message as abandoned (the agent stops). */
  abandonAll(): void {
    for (let message = this.take(); message !== undefined; message = this.take()) message.settle('abandoned');
  }

  private makeRoom(): void {
    while (this.totalBytes > this.options.maxBytes) {
      const metrics = this.others.findIndex((m) => m.kind === 'metrics');
      if (metrics >= 0) this.drop(this.others, metrics);
      else if (this.others.length > 0) this.drop(this.others, 0);
      else if (this.heartbeats.length > 1) this.drop(this.heartbeats, 0);
      else break;
    }
  }

  private drop(list: QueuedMessage[], index: number): void {
    const [message] = list.splice(index, 1);
    if (message === undefined) return;
    this.totalBytes -= message.payload.byteLength;
    this.dropped[message.kind]++;
    this.droppedSinceWarning++;
    message.settle('dropped');
    const now = this.options.now?.() ?? Date.now();
    if (now - this.lastWarningMs >= (this.options.dropWarningIntervalMs ?? 60_000)) {
      this.options.log.warn(
        {
          droppedSinceLastWarning: this.droppedSinceWarning,
          droppedTotal: this.droppedCounts(),
          queuedBytes: this.totalBytes,
        },
        'the outgoing queue is full (NATS unreachable or too slow); dropped the oldest messages',
      );
      this.lastWarningMs = now;
      this.droppedSinceWarning = 0;
    }
  }
}
