import type { BaseLogger } from 'pino';

import { STREAM_MAX_AGE_MS } from './fleet-consumer.js';
import type { FleetIngestRepository } from './fleet-ingest.repository.js';

const DAY_MS = 24 * 3600_000;

/**
 * How long fleet data is kept. A message id must outlive every delivery of its message: the stream keeps
 * an unacknowledged message (and redelivers it) for its max age, so ids are kept that long and a margin.
 */
const FLEET_RETENTION_MS = {
  samples: 8 * DAY_MS,
  logs: 3 * DAY_MS,
  messageIds: STREAM_MAX_AGE_MS + 10 * 60_000,
} as const;

const SWEEP_INTERVAL_MS = 10 * 60_000;

/** Prunes fleet samples, logs and message ids past their retention. Every replica runs one; deletes are idempotent. */
export class FleetWorker {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      readonly ingest: Pick<FleetIngestRepository, 'prune'>;
      readonly now: () => Date;
      readonly logger: Pick<BaseLogger, 'error'>;
    },
  ) {}

  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      this.#running ??= this.sweep().finally(() => (this.#running = undefined));
    }, SWEEP_INTERVAL_MS);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }

  /** One pass; public so tests can run it at a chosen time. */
  async sweep(): Promise<void> {
    const now = this.deps.now().getTime();
    try {
      await this.deps.ingest.prune({
        samples: new Date(now - FLEET_RETENTION_MS.samples),
        logs: new Date(now - FLEET_RETENTION_MS.logs),
        messageIds: new Date(now - FLEET_RETENTION_MS.messageIds),
      });
    } catch (e: unknown) {
      this.deps.logger.error({ err: e }, 'fleet retention sweep failed');
    }
  }
}
