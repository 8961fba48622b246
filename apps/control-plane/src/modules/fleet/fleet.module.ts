import type { FastifyInstance } from 'fastify';

import { worker, type ModuleContext, type Worker } from '../module.js';
import { fleetAgentRoutes } from './fleet-agent.routes.js';
import { FleetAgentRepository } from './fleet-agent.repository.js';
import { FleetAgentService } from './fleet-agent.service.js';
import { fleetClusterRoutes } from './fleet-cluster.routes.js';
import { FleetClusterRepository } from './fleet-cluster.repository.js';
import { FleetClusterService } from './fleet-cluster.service.js';
import { FleetConsumer } from './fleet-consumer.js';
import { FleetEnrollmentService } from './fleet-enrollment.service.js';
import { fleetEnvironmentRoutes } from './fleet-environment.routes.js';
import { FleetEnvironmentRepository } from './fleet-environment.repository.js';
import { FleetEnvironmentService } from './fleet-environment.service.js';
import { FleetIngestRepository } from './fleet-ingest.repository.js';
import { FleetIngestService } from './fleet-ingest.service.js';
import { fleetTelemetryRoutes } from './fleet-telemetry.routes.js';
import { FleetTelemetryRepository } from './fleet-telemetry.repository.js';
import { FleetTelemetryService } from './fleet-telemetry.service.js';
import { FleetWorker } from './fleet.worker.js';

/** The fleet transport: where the control plane's NATS is and the account that signs agents' JWTs. */
export interface FleetOptions {
  /** The NATS server (or cluster, comma-separated) the consumer connects to. */
  readonly natsUrl: string;
  /** The fleet account's private seed (`SA…`): signs agents' user JWTs; never logged or returned. */
  readonly accountSeed: string;
  /** The NATS URLs agents are told to connect to; default `natsUrl`. */
  readonly agentNatsUrls?: readonly string[];
}

/** How often agents send heartbeats (the enrollment answer tells them). */
const HEARTBEAT_INTERVAL_SECONDS = 30;

/** Node agents' environments, enrollment and identity, NATS telemetry and clusters; the NATS consumer (when
 * NATS is configured) and retention pruning are its workers. */
export async function registerFleetModule(
  app: FastifyInstance,
  settings: ModuleContext & {
    readonly options: FleetOptions | undefined;
    /** This replica's name, as NATS shows its connection. */
    readonly replicaName: string;
  },
): Promise<{ readonly workers: readonly Worker[] }> {
  const { db, now, options } = settings;
  const environmentRepository = new FleetEnvironmentRepository(db);
  const agentRepository = new FleetAgentRepository(db);
  const ingestRepository = new FleetIngestRepository(db);
  await app.register(fleetEnvironmentRoutes, {
    environments: new FleetEnvironmentService({ environments: environmentRepository, now }),
  });
  await app.register(fleetAgentRoutes, {
    enrollment: new FleetEnrollmentService({
      tokens: environmentRepository,
      agents: agentRepository,
      nats: options && {
        accountSeed: options.accountSeed,
        agentServers: options.agentNatsUrls ?? options.natsUrl.split(','),
      },
      heartbeatIntervalSeconds: HEARTBEAT_INTERVAL_SECONDS,
      now,
      logger: app.log,
    }),
    agents: new FleetAgentService({ agents: agentRepository, environments: environmentRepository, now }),
  });
  await app.register(fleetClusterRoutes, {
    clusters: new FleetClusterService({ clusters: new FleetClusterRepository(db), now }),
  });
  await app.register(fleetTelemetryRoutes, {
    telemetry: new FleetTelemetryService({
      telemetry: new FleetTelemetryRepository(db),
      agents: agentRepository,
      environments: environmentRepository,
      now,
    }),
  });
  const consumer =
    options &&
    new FleetConsumer({
      natsUrl: options.natsUrl,
      accountSeed: options.accountSeed,
      ingest: new FleetIngestService({ ingest: ingestRepository }),
      now,
      logger: app.log,
      name: settings.replicaName,
    });
  const retention = new FleetWorker({ ingest: ingestRepository, now, logger: app.log });
  return {
    workers: [
      ...(consumer === undefined ? [] : [worker('fleet consumer', consumer)]),
      worker('fleet retention', retention),
    ],
  };
}
