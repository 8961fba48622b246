import type { BaseLogger } from 'pino';

import { PeriodicTask } from '../../periodic-task.js';

import type { MetricsIngestRepository } from './metrics-ingest.repository.js';

/** How long chart points are kept, by resolution in seconds: 1-minute points 48 hours, 1-hour points 90 days. */
export const ROLLUP_RETENTION_SECONDS: Readonly<Record<number, number>> = {
  60: 48 * 3600,
  3600: 90 * 24 * 3600,
};

/**
 * What no request reports: platforms and nodes gone silent turn offline, and chart points past their
 * retention are dropped. Every replica runs one; the updates are idempotent.
 */
export class MetricsWorker {
  constructor(
    private readonly deps: {
      readonly ingest: Pick<MetricsIngestRepository, 'markSilent' | 'pruneRollups'>;
      readonly now: () => Date;
      readonly silenceSeconds: number;
      readonly capacityChanged: (organizationId: string) => void;
      readonly logger: Pick<BaseLogger, 'error'>;
    },
  ) {
    // Often enough that a platform is offline within a quarter of the silence after it went quiet.
    this.#task = new PeriodicTask(() => this.sweep(), Math.max(1000, (deps.silenceSeconds * 1000) / 4));
  }

  readonly #task: PeriodicTask;

  start(): void {
    this.#task.start();
  }

  stop(): Promise<void> {
    return this.#task.stop();
  }

  /** One pass; public so tests can run it at a chosen time. */
  async sweep(): Promise<void> {
    try {
      const now = this.deps.now();
      for (const organizationId of await this.deps.ingest.markSilent(now, this.deps.silenceSeconds))
        this.deps.capacityChanged(organizationId);
      await this.deps.ingest.pruneRollups(now, ROLLUP_RETENTION_SECONDS);
    } catch (e: unknown) {
      this.deps.logger.error({ err: e }, 'metrics sweep failed');
    }
  }
}
