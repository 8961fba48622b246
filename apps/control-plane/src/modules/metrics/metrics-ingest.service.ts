import { InvalidArgumentError, PermissionDeniedError, UnauthenticatedError } from '@noderings/domain';
import { decodeWriteRequest, RemoteWriteError, type TimeSeries } from '@noderings/remote-write';
import type { BaseLogger } from 'pino';

import { hashToken } from '../../crypto/opaque-token.js';
import type { MetricsCredentialRepository } from './metrics-credential.repository.js';
import type { AgentPlatform, MetricsIngestRepository } from './metrics-ingest.repository.js';
import { readMetricFacts, ScopeViolation, type MetricFacts } from './metric-facts.js';
import { planVmUsage } from './vm-usage-plan.js';

/** What one accepted request did; logged at debug level and returned to tests. */
export interface IngestResult {
  readonly series: number;
  /** Dropped by the forwarding rules: non-NR guests, families not forwarded. */
  readonly dropped: number;
  /** For a platform this agent does not serve (its `instance` matches none of the agent's endpoints). */
  readonly unknownInstance: number;
  /** For a VM that is not this agent's, is gone, or carries another VMID. */
  readonly unknownVm: number;
  /** VM samples applied (replays excluded). */
  readonly applied: number;
}

export interface IngestLimits {
  readonly maxCompressedBytes: number;
  readonly maxDecompressedBytes: number;
}

const TOUCH_INTERVAL_MS = 60_000;

/** Answered 413 like a body over the route's limit (http/error-handler.ts): decompressed, it would be. */
class PayloadTooLarge extends Error {
  readonly statusCode = 413;
  readonly code = 'FST_ERR_CTP_BODY_TOO_LARGE';
}

/** `https://host[:port]` as platforms store it → the `host:port` the forwarder labels series with. */
function metricsInstanceOf(endpointUrl: string): string {
  const url = new URL(endpointUrl);
  // An IPv6 host keeps its brackets in `hostname`: `[2001:db8::1]:8006`.
  return `${url.hostname}:${url.port === '' ? '443' : url.port}`;
}

/**
 * Prometheus remote-write ingest (DESIGN §3.4): authenticates the agent's credential, decodes the whole
 * request before anything is written (a malformed request stores nothing), applies the forwarding rules
 * again, and updates what the control plane derives from metrics: platform and node status, node
 * inventory, VM power state, traffic per billing hour and chart rollups. Every write is idempotent, so a
 * request retried after a failure changes nothing twice.
 */
export class MetricsIngestService {
  constructor(
    private readonly deps: {
      readonly credentials: Pick<MetricsCredentialRepository, 'findWriter' | 'touch'>;
      readonly ingest: MetricsIngestRepository;
      readonly now: () => Date;
      /** A platform whose hosts have been silent this long is offline. */
      readonly silenceSeconds: number;
      readonly limits: IngestLimits;
      /** Something placement or preflight reads changed for the organisation. */
      readonly capacityChanged: (organizationId: string) => void;
      /** Accepted series, for an optional long-term store. */
      readonly forward?: ((series: readonly TimeSeries[]) => void) | undefined;
      readonly logger: Pick<BaseLogger, 'debug'>;
    },
  ) {}

  async write(bearerToken: string | undefined, body: Uint8Array): Promise<IngestResult> {
    const writer = await this.#authenticate(bearerToken);
    let facts: MetricFacts;
    try {
      const request = decodeWriteRequest(body, this.deps.limits);
      facts = readMetricFacts(request.timeseries, writer.agentId);
    } catch (e: unknown) {
      if (e instanceof RemoteWriteError && e.code === 'REMOTE_WRITE_TOO_LARGE')
        throw new PayloadTooLarge(e.message);
      if (e instanceof RemoteWriteError)
        throw new InvalidArgumentError(`Malformed remote-write request: ${e.message}`, [
          { field: e.location, description: e.description },
        ]);
      if (e instanceof ScopeViolation) throw new PermissionDeniedError(e.message);
      throw e;
    }
    const platforms = new Map(
      (await this.deps.ingest.platformsOfAgent(writer.agentId)).map((p) => [
        metricsInstanceOf(p.endpointUrl),
        p,
      ]),
    );
    let unknownInstance = await this.#platformHealth(facts, platforms);
    unknownInstance += await this.#nodes(facts, platforms);
    const { applied, unknownVm } = await this.#vms(facts, writer.agentId);
    this.deps.forward?.(facts.forwarded);
    const result = {
      series: facts.forwarded.length + facts.dropped,
      dropped: facts.dropped,
      unknownInstance,
      unknownVm,
      applied,
    };
    this.deps.logger.debug({ agentId: writer.agentId, ...result }, 'metrics ingested');
    return result;
  }

  async #authenticate(bearerToken: string | undefined) {
    const token =
      bearerToken === undefined ? undefined : /^Bearer (nrm_[A-Za-z0-9_-]{1,100})$/.exec(bearerToken)?.[1];
    const now = this.deps.now();
    const writer =
      token === undefined ? undefined : await this.deps.credentials.findWriter(hashToken(token), now);
    if (writer === undefined)
      throw new UnauthenticatedError(
        'A live metrics write credential is needed (Authorization: Bearer nrm_…).',
      );
    if (writer.lastUsedAt === null || now.getTime() - writer.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)
      await this.deps.credentials.touch(writer.credentialId, now);
    return writer;
  }

  async #platformHealth(facts: MetricFacts, platforms: ReadonlyMap<string, AgentPlatform>): Promise<number> {
    let unknown = 0;
    // Senders may repeat a series within a request (Prometheus sends a sample per entry): the newest wins.
    const ups = new Map<string, { platformId: string; host: string; up: boolean; timestampMs: number }>();
    for (const h of facts.hostUps) {
      const platform = platforms.get(h.instance);
      if (platform === undefined) {
        unknown++;
        continue;
      }
      const key = `${platform.id}/${h.host}`;
      if ((ups.get(key)?.timestampMs ?? -Infinity) <= h.timestampMs)
        ups.set(key, { ...h, platformId: platform.id });
    }
    const changed = await this.deps.ingest.recordHostUps(
      [...ups.values()],
      this.deps.now(),
      this.deps.silenceSeconds,
    );
    for (const organizationId of new Set(changed)) this.deps.capacityChanged(organizationId);
    return unknown;
  }

  async #nodes(facts: MetricFacts, platforms: ReadonlyMap<string, AgentPlatform>): Promise<number> {
    let unknown = 0;
    for (const [instance, nodes] of facts.nodes) {
      const platform = platforms.get(instance);
      if (platform === undefined) {
        unknown += nodes.size;
        continue;
      }
      const ups = new Map<string, { up: boolean; timestampMs: number }>();
      for (const h of facts.hostUps) {
        if (h.instance !== instance || !h.host.startsWith('node/')) continue;
        const node = h.host.slice('node/'.length);
        if ((ups.get(node)?.timestampMs ?? -Infinity) <= h.timestampMs) ups.set(node, h);
      }
      const nodeUps = new Map([...ups].map(([node, h]) => [node, h.up]));
      if (await this.deps.ingest.updateNodes(platform.id, nodes, nodeUps, this.deps.now()))
        this.deps.capacityChanged(platform.organizationId);
    }
    return unknown;
  }

  async #vms(facts: MetricFacts, agentId: string): Promise<{ applied: number; unknownVm: number }> {
    if (facts.vmSeries.length === 0) return { applied: 0, unknownVm: 0 };
    const vms = new Map(
      (await this.deps.ingest.vmsOfAgent(agentId, [...new Set(facts.vmSeries.map((s) => s.vmId))])).map(
        (v) => [v.id, v.vmid],
      ),
    );
    const series = facts.vmSeries.filter((s) => vms.get(s.vmId) === s.vmid);
    const unknownVm = facts.vmSeries.length - series.length;
    if (series.length === 0) return { applied: 0, unknownVm };
    const plan = await this.deps.ingest.applyVmUsage(series, (cursors) => planVmUsage(series, cursors));
    return { applied: plan.applied, unknownVm };
  }
}
