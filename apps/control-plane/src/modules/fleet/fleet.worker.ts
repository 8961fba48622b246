import type { BaseLogger } from 'pino';

import { PeriodicTask } from '../../periodic-task.js';

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
  constructor(
    private readonly deps: {
      readonly ingest: Pick<FleetIngestRepository, 'prune'>;
      readonly now: () => Date;
      readonly logger: Pick<BaseLogger, 'error'>;
    },
  ) {}

  readonly #task = new PeriodicTask(() => this.sweep(), SWEEP_INTERVAL_MS);

  start(): void {
    this.#task.start();
  }

  stop(): Promise<void> {
    return this.#task.stop();
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
