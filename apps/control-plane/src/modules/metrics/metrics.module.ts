import type { FastifyInstance } from 'fastify';

import { worker, type ModuleContext, type Worker } from '../module.js';
import { MetricsCredentialRepository } from './metrics-credential.repository.js';
import { metricsCredentialRoutes } from './metrics-credential.routes.js';
import { MetricsCredentialService } from './metrics-credential.service.js';
import { MetricsIngestRepository } from './metrics-ingest.repository.js';
import { MetricsIngestService } from './metrics-ingest.service.js';
import { MetricsWorker } from './metrics.worker.js';
import { RemoteWriteForwarder, type RemoteWriteTarget } from './remote-write-forwarder.js';
import { remoteWriteRoutes } from './remote-write.routes.js';
import { VmMetricsRepository } from './vm-metrics.repository.js';
import { vmMetricsRoutes } from './vm-metrics.routes.js';
import { VmMetricsService } from './vm-metrics.service.js';

export interface MetricsSettings {
  /** After how long without pve_up a platform and its nodes are offline. */
  readonly silenceSeconds: number;
  /** The size limits of one remote-write request. */
  readonly maxCompressedBytes: number;
  readonly maxDecompressedBytes: number;
  /** Where accepted series are also sent, for long retention; none when undefined. */
  readonly remoteWrite: RemoteWriteTarget | undefined;
}

export interface MetricsModuleDeps extends ModuleContext {
  readonly settings: MetricsSettings;
  /** Told which provider's capacity changed (a platform or node went on or offline). */
  readonly capacityChanged: (organizationId: string) => void;
}

/**
 * Metrics of NR VMs: agents' remote-write credentials and ingest, what customers read of it, and the
 * workers that turn silent platforms offline, prune old chart points and forward series to long retention.
 */
export async function registerMetricsModule(
  app: FastifyInstance,
  deps: MetricsModuleDeps,
): Promise<{ readonly workers: readonly Worker[] }> {
  const { db, now, settings, capacityChanged } = deps;
  const credentials = new MetricsCredentialRepository(db);
  await app.register(metricsCredentialRoutes, {
    credentials: new MetricsCredentialService({ credentials, now }),
  });
  const ingest = new MetricsIngestRepository(db);
  const forwarder =
    settings.remoteWrite === undefined
      ? undefined
      : new RemoteWriteForwarder({ target: settings.remoteWrite, logger: app.log });
  await app.register(remoteWriteRoutes, {
    maxCompressedBytes: settings.maxCompressedBytes,
    ingest: new MetricsIngestService({
      credentials,
      ingest,
      now,
      silenceSeconds: settings.silenceSeconds,
      limits: {
        maxCompressedBytes: settings.maxCompressedBytes,
        maxDecompressedBytes: settings.maxDecompressedBytes,
      },
      capacityChanged,
      forward:
        forwarder &&
        ((series) => {
          forwarder.enqueue(series);
        }),
      logger: app.log,
    }),
  });
  await app.register(vmMetricsRoutes, {
    metrics: new VmMetricsService({ metrics: new VmMetricsRepository(db), now }),
  });
  const silence = new MetricsWorker({
    ingest,
    now,
    silenceSeconds: settings.silenceSeconds,
    capacityChanged,
    logger: app.log,
  });
  return {
    workers: [
      worker('metrics silence and pruning', silence),
      ...(forwarder === undefined ? [] : [worker('metrics remote-write forwarder', forwarder)]),
    ],
  };
}
