import type { BaseLogger } from 'pino';

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
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;

  constructor(
    private readonly deps: {
      readonly ingest: Pick<MetricsIngestRepository, 'markSilent' | 'pruneRollups'>;
      readonly now: () => Date;
      readonly silenceSeconds: number;
      readonly capacityChanged: (organizationId: string) => void;
      readonly logger: Pick<BaseLogger, 'error'>;
    },
  ) {}

  start(): void {
    if (this.#timer !== undefined) return;
    // Often enough that a platform is offline within a quarter of the silence after it went quiet.
    const everyMs = Math.max(1000, (this.deps.silenceSeconds * 1000) / 4);
    this.#timer = setInterval(() => {
      this.#running ??= this.sweep().finally(() => (this.#running = undefined));
    }, everyMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
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
