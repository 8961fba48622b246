import { readFile } from 'node:fs/promises';

import type { CollectorStatus, HostSignals } from '@noderings/fleet';
import { createLogger, SecretValues, type Logger } from '@noderings/log';
import { sleep } from '@noderings/retry';

import { AgentError, messageOf } from './agent-error.js';
import { agentVersion } from './agent-version.js';
import { KubeletCollector, type Sample } from './collect/index.js';
import type { AgentConfig } from './config.js';
import {
  CredentialsKeeper,
  type CredentialsTiming,
  DEFAULT_CREDENTIALS_TIMING,
} from './credentials-keeper.js';
import { logsMessages, metricsMessages } from './fleet-messages.js';
import { type HealthServer, startHealthServer } from './health-server.js';
import { heartbeatMessage } from './heartbeat.js';
import {
  DEFAULT_ENROLL_TIMING,
  type EnrollTiming,
  enrollUntilDone,
  loadIdentity,
} from './identity/agent-identity.js';
import { type EnrolledState, publicKeyOf } from './identity/agent-state.js';
import { hostSignalsFromCadvisor, mergeHostSignals, readHostSignalFiles } from './identity/host-signals.js';
import { runEvery } from './interval-loop.js';
import { KubeletClient } from './kubelet-client.js';
import { KubeletCollection } from './kubelet-collection.js';
import { LogTailer } from './log-tailer.js';
import { type Delivery, MessageQueue } from './message-queue.js';
import { DEFAULT_PUBLISHER_TIMING, NatsPublisher, type PublisherTiming } from './nats-publisher.js';

/** The line the DaemonSet logs at start (the seed's wording, which operators grep for). */
export const DAEMONSET_MODE_LINE =
  'k8s DaemonSet mode — terminal access disabled (install host agent for terminal)';
/** Until the control plane says otherwise (an adopted identity never hears it again). */
const DEFAULT_HEARTBEAT_SECONDS = 30;
/** The most the collection's two big documents may take; below the interval in any case. */
const MAX_KUBELET_TIMEOUT_MS = 20_000;
const HOST_SIGNAL_FETCH_MS = 5_000;

export interface AgentTiming {
  readonly enroll: EnrollTiming;
  readonly credentials: CredentialsTiming;
  readonly publisher: PublisherTiming;
  /** How long a stop waits for queued messages to be acknowledged. */
  readonly flushMs: number;
  readonly logPollMs: number;
  /** The outgoing queue's bound. */
  readonly queueMaxBytes: number;
}

const DEFAULT_TIMING: AgentTiming = {
  enroll: DEFAULT_ENROLL_TIMING,
  credentials: DEFAULT_CREDENTIALS_TIMING,
  publisher: DEFAULT_PUBLISHER_TIMING,
  flushMs: 5_000,
  logPollMs: 1_000,
  queueMaxBytes: 32 * 1024 * 1024,
};

export interface NodeAgentOptions {
  /** Receives each JSON log line, without its newline (default: standard output). */
  readonly writeLog?: (line: string) => void;
  readonly timing?: Partial<AgentTiming>;
}

export interface NodeAgent {
  /** `http://host:port` of `/healthz` and `/readyz`. */
  readonly healthUrl: string;
  /** Resolves once the agent holds an enrolled identity: at once for an adopted one. */
  readonly enrolled: Promise<{ readonly agentId: string; readonly publicKey: string }>;
  /** Resolves with what stopped the agent by itself (a refused install token, an unwritable state file). */
  readonly failed: Promise<Error>;
  /** Stops collecting, sends what is queued for a few seconds, then closes everything. Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts the node agent: health server, identity (refusing another agent's state file: the promise
 * rejects with IDENTITY_CONFLICT), then in the background enrollment (a 409 is retried while Ready),
 * NATS credentials and publishing, heartbeats, and for a k8s-node-monitor agent kubelet collection and
 * log tailing.
 */
export async function startNodeAgent(
  config: AgentConfig,
  options: NodeAgentOptions = {},
): Promise<NodeAgent> {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const secrets = new SecretValues();
  const { writeLog } = options;
  const log = createLogger({
    name: 'node-agent',
    level: config.logLevel,
    secrets,
    ...(writeLog !== undefined && { destination: lineDestination(writeLog) }),
  });
  secrets.add(config.installToken);
  for (const warning of config.warnings) log.warn(warning);
  announceMode(config, log);
  const kubelet =
    config.agentType === 'k8s-node-monitor' && config.k8sNodeMetrics
      ? await kubeletClient(config, log, secrets)
      : undefined;

  let phase = 'starting';
  let ready = false;
  let health: HealthServer;
  try {
    health = await startHealthServer(config.healthListen, { ready: () => ready, phase: () => phase });
  } catch (e: unknown) {
    await kubelet?.close();
    throw e;
  }
  const version = agentVersion();
  let loaded;
  try {
    const hostSignals = await readSignals(config, kubelet, log);
    loaded = await loadIdentity(
      { dataDir: config.dataDir, agentType: config.agentType, name: config.name, hostSignals },
      log,
      new Date(),
    );
  } catch (e: unknown) {
    await kubelet?.close();
    await health.close();
    throw e;
  }
  secrets.add(loaded.state.nkeySeed);
  phase = loaded.kind === 'enrolled' ? 'running' : 'enrolling';
  ready = true;

  const producers = new AbortController();
  const transport = new AbortController();
  const queue = new MessageQueue({ maxBytes: timing.queueMaxBytes, log });
  let publisher: NatsPublisher | undefined;
  let resolveEnrolled: (identity: { agentId: string; publicKey: string }) => void = () => undefined;
  const enrolled = new Promise<{ agentId: string; publicKey: string }>((resolve) => {
    resolveEnrolled = resolve;
  });
  const running: Promise<unknown>[] = [];
  const transportRunning: Promise<unknown>[] = [];

  const main = async (): Promise<void> => {
    let state: EnrolledState;
    let heartbeatSeconds = DEFAULT_HEARTBEAT_SECONDS;
    let initial;
    if (loaded.kind === 'enrolled') {
      state = loaded.state;
      log.info({ agentId: state.agentId, name: state.name }, 'adopted the identity of the data directory');
    } else {
      const result = await enrollUntilDone(loaded.state, {
        backendUrl: config.backendUrl,
        installToken: config.installToken,
        version,
        dataDir: config.dataDir,
        log,
        timing: timing.enroll,
        signal: producers.signal,
        now: () => new Date(),
      });
      if (result === undefined) return;
      ({ state } = result);
      heartbeatSeconds = result.response.heartbeatIntervalSeconds;
      initial = result.response.nats;
    }
    phase = 'running';
    const publicKey = publicKeyOf(state.nkeySeed);
    resolveEnrolled({ agentId: state.agentId, publicKey });
    const keeper = new CredentialsKeeper({
      backendUrl: config.backendUrl,
      agentId: state.agentId,
      nkeySeed: state.nkeySeed,
      log,
      ...(initial === undefined ? {} : { initial }),
      timing: timing.credentials,
      now: () => new Date(),
    });
    keeper.onChange(() => {
      const jwt = keeper.current?.jwt;
      if (jwt !== undefined) secrets.add(jwt);
      phase = keeper.gone ? 'identity released' : 'running';
    });
    if (initial !== undefined) secrets.add(initial.jwt);
    publisher = new NatsPublisher({
      publicKey,
      nkeySeed: state.nkeySeed,
      name: state.name,
      credentials: keeper,
      natsUrls: config.natsUrls,
      queue,
      log,
      timing: timing.publisher,
    });
    const reportStop = (what: string) => (e: unknown) => {
      log.error({ reason: messageOf(e) }, `${what} stopped`);
    };
    transportRunning.push(
      keeper.run(transport.signal).catch(reportStop('credentials renewal')),
      publisher.run(transport.signal).catch(reportStop('publishing')),
    );

    const encode = (message: unknown): Uint8Array => new TextEncoder().encode(JSON.stringify(message));
    const publishSamples = async (samples: readonly Sample[]): Promise<Delivery> => {
      if (keeper.gone) return 'dropped';
      const { messages, skipped } = metricsMessages(samples, new Date());
      if (skipped > 0) log.debug({ skipped }, 'left out samples the fleet contract cannot carry');
      const deliveries = await Promise.all(messages.map((m) => queue.push('metrics', m.id, encode(m))));
      return deliveries.find((d) => d !== 'acked') ?? 'acked';
    };
    let collection: KubeletCollection | undefined;
    // The first heartbeat waits for the first collection (or one interval), so it says how it went.
    let firstTickDone: Promise<unknown> = Promise.resolve();
    if (kubelet !== undefined) {
      const activeCollection = new KubeletCollection({
        client: kubelet,
        collector: new KubeletCollector({ nodeName: config.nodeName, intervalMs: config.metricsIntervalMs }),
        log,
        publish: publishSamples,
        now: Date.now,
      });
      collection = activeCollection;
      let tickDone: () => void = () => undefined;
      firstTickDone = Promise.race([
        new Promise<void>((resolve) => {
          tickDone = resolve;
        }),
        sleep(config.metricsIntervalMs, producers.signal),
      ]);
      running.push(
        runEvery(config.metricsIntervalMs, producers.signal, async () => {
          await activeCollection.tick().catch((e: unknown) => {
            log.error({ reason: messageOf(e) }, 'a collection tick failed');
          });
          tickDone();
        }),
      );
    }
    if (config.agentType === 'k8s-node-monitor') {
      const tailer = new LogTailer({
        logDir: config.logDir,
        dataDir: config.dataDir,
        log,
        pollIntervalMs: timing.logPollMs,
        canAccept: () => queue.hasRoomForLogs() && !keeper.gone,
        emit: (entries) => {
          for (const message of logsMessages(entries, new Date()))
            void queue.push('logs', message.id, encode(message));
        },
      });
      running.push(
        tailer.run(producers.signal).catch((e: unknown) => {
          log.error({ reason: messageOf(e) }, 'log tailing stopped');
        }),
      );
    }
    const collectors = (): CollectorStatus[] => {
      if (collection !== undefined) return [collection.status()];
      if (config.agentType === 'k8s-node-monitor')
        return [
          { name: 'kubelet', kind: 'core', status: 'disabled', message: 'PROXIMA_K8S_NODE_METRICS is off' },
        ];
      return [];
    };
    const facts = {
      version,
      agentType: config.agentType,
      name: state.name,
      hostname: config.hostname,
      intervalSeconds: heartbeatSeconds,
    };
    await firstTickDone;
    running.push(
      runEvery(heartbeatSeconds * 1000, producers.signal, async () => {
        if (keeper.gone) return;
        const message = heartbeatMessage(facts, collectors(), new Date());
        void queue.push('heartbeat', message.id, encode(message));
        await Promise.resolve();
      }),
    );
  };

  let resolveFailed: (error: Error) => void = () => undefined;
  const failed = new Promise<Error>((resolve) => {
    resolveFailed = resolve;
  });
  const mainRun = main().catch((e: unknown) => {
    const error = e instanceof Error ? e : new Error(String(e));
    log.error(error instanceof AgentError ? { code: error.code } : {}, error.message);
    resolveFailed(error);
  });

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      phase = 'stopping';
      ready = false;
      producers.abort();
      await mainRun;
      await Promise.all(running);
      const deadline = Date.now() + timing.flushMs;
      while (publisher !== undefined && !publisher.idle && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 50));
      if (publisher !== undefined && !publisher.idle)
        log.warn({ queued: queue.length }, 'stopping with messages not yet acknowledged');
      transport.abort();
      await Promise.all(transportRunning);
      publisher?.abandon();
      queue.abandonAll();
      await kubelet?.close();
      await health.close();
      log.info('stopped');
    })();
    return stopping;
  };
  return { healthUrl: health.url, enrolled, failed, stop };
}

function announceMode(config: AgentConfig, log: Logger): void {
  if (config.agentType === 'k8s-node-monitor') {
    log.info(DAEMONSET_MODE_LINE);
    if (config.k8sNodeMetrics)
      log.info(
        {
          kubeletUrl: config.kubelet.url,
          intervalMs: config.metricsIntervalMs,
        },
        'collecting kubelet metrics',
      );
    else
      log.info(
        'kubelet collection is off (PROXIMA_K8S_NODE_METRICS is not true); tailing logs and sending heartbeats',
      );
  } else {
    log.info(
      'host mode: this agent has no host collectors; it sends heartbeats only (kubelet collection runs with PROXIMA_AGENT_TYPE=k8s-node-monitor)',
    );
    if (config.k8sNodeMetrics)
      log.warn('PROXIMA_K8S_NODE_METRICS applies to k8s-node-monitor agents only; ignored');
  }
}

async function kubeletClient(
  config: AgentConfig,
  log: Logger,
  secrets: SecretValues,
): Promise<KubeletClient> {
  let caPem: string | undefined;
  if (config.kubelet.caFile !== undefined) {
    try {
      caPem = await readFile(config.kubelet.caFile, 'utf8');
    } catch (e: unknown) {
      throw new AgentError(
        'USAGE',
        `PROXIMA_KUBELET_CA_FILE: cannot read ${config.kubelet.caFile}: ${messageOf(e)}`,
        {
          cause: e,
        },
      );
    }
  }
  if (config.kubelet.insecureSkipVerify)
    log.warn(
      "the kubelet's certificate is not verified (PROXIMA_KUBELET_INSECURE_SKIP_VERIFY): set PROXIMA_KUBELET_CA_FILE where the kubelet's serving certificate is signed by a known CA",
    );
  return new KubeletClient({
    url: config.kubelet.url,
    tokenFile: config.kubelet.tokenFile,
    caPem,
    insecureSkipVerify: config.kubelet.insecureSkipVerify,
    timeoutMs: Math.min(MAX_KUBELET_TIMEOUT_MS, Math.max(1_000, config.metricsIntervalMs * 0.8)),
    secrets,
  });
}

/** The host's signals from the host root's files, filled in from the kubelet's cAdvisor labels. */
async function readSignals(
  config: AgentConfig,
  kubelet: KubeletClient | undefined,
  log: Logger,
): Promise<HostSignals> {
  const fromFiles = await readHostSignalFiles(config.hostRoot);
  if (kubelet === undefined || (fromFiles.machineId !== undefined && fromFiles.systemUuid !== undefined))
    return fromFiles;
  const cadvisor = await kubelet.fetch('cadvisor', HOST_SIGNAL_FETCH_MS);
  if (!cadvisor.ok) {
    log.info(
      {
        reason: cadvisor.error,
      },
      'host signals: the files are unreadable and the kubelet did not answer; enrolling with what there is',
    );
    return fromFiles;
  }
  return mergeHostSignals(fromFiles, hostSignalsFromCadvisor(cadvisor.body));
}

/** pino writes whole lines, each ending in a newline; `writeLog` takes them one by one without it. */
function lineDestination(writeLog: (line: string) => void): { write(chunk: string): void } {
  return {
    write: (chunk) => {
      for (const line of chunk.split('\n')) if (line !== '') writeLog(line);
    },
  };
}
