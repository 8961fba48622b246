import type { CollectorStatus } from '@noderings/fleet';
import type { Logger } from '@noderings/log';

import { messageOf } from './agent-error.js';
import {
  type KubeletCollector,
  type KubeletSource,
  OutageLog,
  type Sample,
  type SourceResult,
} from './collect/index.js';
import { KUBELET_PATHS } from './kubelet-client.js';
import type { Delivery } from './message-queue.js';

const SOURCES: readonly KubeletSource[] = ['summary', 'cadvisor', 'pods'];
/** `kubelet stats published` is an info line the first time, then at most this often (debug between). */
const PUBLISHED_INFO_INTERVAL_MS = 10 * 60_000;
const MAX_STATUS_MESSAGE_CHARS = 1_000;

export interface KubeletCollectionOptions {
  readonly client: { fetchAll(): Promise<Record<KubeletSource, SourceResult>> };
  readonly collector: Pick<KubeletCollector, 'tick'>;
  readonly log: Logger;
  /** Hands a tick's samples to the publisher; resolves when they were acknowledged (or not). */
  readonly publish: (samples: readonly Sample[]) => Promise<Delivery>;
  readonly now: () => number;
}

/**
 * One collection tick after another: fetch the kubelet's three documents, turn them into samples with the
 * collection core, publish them, log each endpoint's outages (a warning when one starts, at most every
 * 10 minutes while it lasts, an info line on recovery) and keep the status the heartbeat reports.
 */
export class KubeletCollection {
  private readonly outages = new Map(SOURCES.map((s) => [s, new OutageLog(s)] as const));
  private collectorStatus: CollectorStatus = {
    name: 'kubelet',
    kind: 'core',
    status: 'degraded',
    message: 'waiting for the first collection',
  };
  private lastSuccessAt: string | undefined;
  private lastPublishedInfoMs: number | undefined;

  constructor(private readonly options: KubeletCollectionOptions) {}

  /** The `kubelet` collector of the heartbeat. */
  status(): CollectorStatus {
    return this.collectorStatus;
  }

  async tick(): Promise<void> {
    const { log } = this.options;
    const fetched = await this.options.client.fetchAll();
    const nowMs = this.options.now();
    let result;
    try {
      result = this.options.collector.tick({ nowMs, ...fetched });
    } catch (e: unknown) {
      // The core is pure and should never throw; if it does, this tick is lost, not the agent.
      log.error({ reason: messageOf(e) }, 'the kubelet collection failed');
      this.collectorStatus = {
        ...this.collectorStatus,
        status: 'failing',
        message: `collection failed: ${messageOf(e)}`,
      };
      return;
    }
    const failures: string[] = [];
    for (const source of SOURCES) {
      const status = result.sources[source];
      const error = status === 'ok' ? undefined : status.error;
      if (error !== undefined) failures.push(`${KUBELET_PATHS[source]}: ${error}`);
      const line = this.outages.get(source)?.observe(error === undefined, nowMs, error);
      if (line !== undefined) {
        if (line.level === 'warn') log.warn({ source: KUBELET_PATHS[source] }, line.message);
        else log.info({ source: KUBELET_PATHS[source] }, line.message);
      }
    }
    if (failures.length < SOURCES.length) this.lastSuccessAt = new Date(nowMs).toISOString();
    const status = failures.length === 0 ? 'ok' : failures.length === SOURCES.length ? 'failing' : 'degraded';
    const message = failures.length === 0 ? `${result.samples.length} series` : failures.join('; ');
    this.collectorStatus = {
      name: 'kubelet',
      kind: 'core',
      status,
      message: message.slice(0, MAX_STATUS_MESSAGE_CHARS),
      ...(this.lastSuccessAt === undefined ? {} : { lastSuccessAt: this.lastSuccessAt }),
    };
    if (result.samples.length === 0) return;
    const series = result.samples.length;
    void this.options.publish(result.samples).then(
      (delivery) => {
        if (delivery === 'acked') this.logPublished(series);
      },
      (e: unknown) => {
        log.error({ reason: messageOf(e) }, 'the kubelet samples could not be queued');
      },
    );
  }

  private logPublished(series: number): void {
    const nowMs = this.options.now();
    const due =
      this.lastPublishedInfoMs === undefined ||
      nowMs - this.lastPublishedInfoMs >= PUBLISHED_INFO_INTERVAL_MS;
    if (due) {
      this.lastPublishedInfoMs = nowMs;
      this.options.log.info({ series }, 'kubelet stats published');
    } else {
      this.options.log.debug({ series }, 'kubelet stats published');
    }
  }
}
