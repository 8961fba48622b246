import { resolve } from 'node:path';

import { createLogger } from '@noderings/log';
import { sql } from 'kysely';
import pino, { type DestinationStream, type Logger } from 'pino';

import { argon2idHasher, type PasswordHasher } from './crypto/password-hasher.js';
import { SecretBox } from './crypto/secret-box.js';
import { migrateToLatest, openDatabase, type DatabaseLocation, type Db } from './db/database.js';
import { serveDashboard } from './http/dashboard.js';
import { createServer } from './http/server.js';
import { DEFAULT_REGISTRATION_LIMITS, type RegistrationLimits } from './modules/auth/index.js';
import type { FleetOptions } from './modules/fleet/index.js';
import type { RemoteWriteTarget } from './modules/metrics/index.js';
import { DEFAULT_PLATFORM_VERSIONS, readPlatformVersionsFile } from './modules/platform-versions/index.js';
import { wireModules } from './modules/wire-modules.js';

/** The order flow's claim service alone, for benchmarks that drive it in-process without HTTP. */
export { createClaimService } from './modules/placement/index.js';
/** Thrown by startControlPlane for a platform versions file it will not serve. */
export { PlatformVersionsFileError } from './modules/platform-versions/index.js';

export interface ControlPlaneOptions {
  readonly database: DatabaseLocation;
  /** The 32-byte key that seals secrets at rest (see crypto/secret-key.ts for where it comes from). */
  readonly secretKey: Buffer;
  readonly listen?: { readonly host: string; readonly port: number };
  /** Where JSON log lines go (stdout when omitted); tests pass a stream to read them. */
  readonly logDestination?: DestinationStream;
  readonly logLevel?: string;
  /** The platform staff account, created or promoted on start. */
  readonly admin?: { readonly email: string; readonly password: string };
  /**
   * The load balancers or proxies in front (addresses, CIDR prefixes, `loopback`, `linklocal`,
   * `uniquelocal`): only their `X-Forwarded-For` and `X-Forwarded-Proto` are believed. None by default.
   */
  readonly trustedProxies?: readonly string[];
  readonly sessionTtlMs?: number;
  /** How many accounts may be registered per client address and overall (DEFAULT_REGISTRATION_LIMITS). */
  readonly registrationLimits?: RegistrationLimits;
  readonly passwords?: PasswordHasher;
  readonly now?: () => Date;
  /** Where the agent install command fetches the installer from. */
  readonly installScriptUrl?: string;
  /** The API server agent clusters peer with; the listen address is not it behind a load balancer. */
  readonly peeringApiServerUrl?: string;
  /**
   * Development only (the sandbox, tests): private, loopback and documentation addresses are taken where
   * public ones are required: the kubeconfig server the control plane dials, an agent's public IP. Off by
   * default.
   */
  readonly allowPrivateDestinations?: boolean;
  /** How often every plan's preflight is re-evaluated besides after changes (default 60); 0 turns it off. */
  readonly preflightIntervalSeconds?: number;
  /** How often agents' Proxmox inventories (nodes, template VMIDs) are read (default 30); 0 turns it off. */
  readonly proxmoxInventoryIntervalSeconds?: number;
  /** After how long without pve_up a platform and its nodes are offline (default 120). */
  readonly metricsSilenceSeconds?: number;
  /** A Prometheus-compatible remote-write receiver that accepted series are forwarded to. */
  readonly metricsRemoteWrite?: RemoteWriteTarget;
  /**
   * The fleet transport for node agents: the NATS server the consumer reads from and the account seed that
   * signs agents' JWTs. Without it, agents cannot enroll (503) and nothing is consumed.
   */
  readonly fleet?: FleetOptions;
  /** The built dashboard (`apps/dashboard/dist`), served from `/` when given. */
  readonly dashboardDir?: string;
  /**
   * A JSON file with the version pins `GET /v1/platform-versions` serves, read and checked at start (a bad
   * one throws PlatformVersionsFileError naming the field); without it, the built-in default.
   */
  readonly platformVersionsFile?: string;
  /** Consulted by /readyz besides the database: false answers 503 `starting` (the sandbox while it seeds). */
  readonly readiness?: () => boolean;
}

export interface ControlPlane {
  /** Base URL of the API, like http://127.0.0.1:41234. */
  readonly url: string;
  readonly db: Db;
  readonly logger: Logger;
  /** Stops accepting requests, waits for those in flight, then closes the database. */
  close(): Promise<void>;
}

const DEFAULT_SESSION_TTL_MS = 12 * 60 * 60_000;
const DEFAULT_INSTALL_SCRIPT_URL = 'https://get.nrings.io';
/** A reserved name (RFC 6761): a deployment that forgot to set the real one fails visibly. */
const DEFAULT_PEERING_API_SERVER_URL = 'https://peering.noderings.invalid:6443';
const DEFAULT_PREFLIGHT_INTERVAL_SECONDS = 60;
const DEFAULT_PROXMOX_INVENTORY_INTERVAL_SECONDS = 30;
/** Four missed 30-second scrapes. */
const DEFAULT_METRICS_SILENCE_SECONDS = 120;
/** Remote-write requests: Prometheus sends at most 2,000 samples per request by default (~100 KiB). */
const MAX_REMOTE_WRITE_COMPRESSED_BYTES = 8 * 1024 * 1024;
const MAX_REMOTE_WRITE_DECOMPRESSED_BYTES = 32 * 1024 * 1024;
const VERSION = '0.1.0';

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const platformVersions =
    options.platformVersionsFile === undefined
      ? DEFAULT_PLATFORM_VERSIONS
      : await readPlatformVersionsFile(options.platformVersionsFile);
  // Secret fields are redacted by @noderings/log's paths, whatever a future log call passes in.
  const logger = createLogger({
    name: 'control-plane',
    level: options.logLevel ?? 'info',
    format: 'pino',
    destination: options.logDestination ?? pino.destination(1),
  });
  const db = await openDatabase(options.database, (err) => {
    logger.warn({ err }, 'an idle database connection was closed by the server');
  });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length > 0)
      logger.info({ migrations: applied.map((m) => m.migrationName) }, 'database migrated');
    const app = await createServer({
      logger,
      trustedProxies: options.trustedProxies ?? [],
      version: VERSION,
      notReady: async () => {
        if ((await sql`SELECT 1`.execute(db)).rows.length !== 1) return 'database unavailable';
        return options.readiness?.() === false ? 'starting' : undefined;
      },
    });
    const modules = await wireModules(app, {
      db,
      secretBox: new SecretBox(options.secretKey),
      passwords: options.passwords ?? argon2idHasher,
      now: options.now ?? (() => new Date()),
      sessionTtlMs: options.sessionTtlMs ?? DEFAULT_SESSION_TTL_MS,
      registrationLimits: options.registrationLimits ?? DEFAULT_REGISTRATION_LIMITS,
      installScriptUrl: options.installScriptUrl ?? DEFAULT_INSTALL_SCRIPT_URL,
      peeringApiServerUrl: options.peeringApiServerUrl ?? DEFAULT_PEERING_API_SERVER_URL,
      allowPrivateDestinations: options.allowPrivateDestinations ?? false,
      preflightIntervalSeconds: options.preflightIntervalSeconds ?? DEFAULT_PREFLIGHT_INTERVAL_SECONDS,
      proxmoxInventoryIntervalSeconds:
        options.proxmoxInventoryIntervalSeconds ?? DEFAULT_PROXMOX_INVENTORY_INTERVAL_SECONDS,
      metrics: {
        silenceSeconds: options.metricsSilenceSeconds ?? DEFAULT_METRICS_SILENCE_SECONDS,
        maxCompressedBytes: MAX_REMOTE_WRITE_COMPRESSED_BYTES,
        maxDecompressedBytes: MAX_REMOTE_WRITE_DECOMPRESSED_BYTES,
        remoteWrite: options.metricsRemoteWrite,
      },
      fleet: options.fleet,
      platformVersions,
    });
    if (options.dashboardDir !== undefined) await serveDashboard(app, resolve(options.dashboardDir));
    if (options.admin !== undefined)
      await modules.auth.bootstrapStaff(options.admin.email, options.admin.password);
    const address = await app.listen({
      host: options.listen?.host ?? '127.0.0.1',
      port: options.listen?.port ?? 0,
    });
    for (const worker of modules.workers) worker.start();
    let closing: Promise<void> | undefined;
    return {
      url: address,
      db,
      logger,
      close: () =>
        (closing ??= (async () => {
          await app.close();
          for (const worker of modules.workers.toReversed()) {
            try {
              await worker.stop();
            } catch (err: unknown) {
              logger.error({ err, worker: worker.name }, 'a worker failed to stop');
            }
          }
          await db.destroy();
        })()),
    };
  } catch (e: unknown) {
    await db.destroy();
    throw e;
  }
}
