import { fleetMessageSchema, parseFleetSubject, type FleetMessage } from '@noderings/fleet';

import type { FleetIngestRepository } from './fleet-ingest.repository.js';
import { integrationAssets } from './integration-assets.js';
import { planSeries } from './series-plan.js';

/** What became of one NATS message; the consumer acks, terminates or naks by it. */
export type IngestOutcome =
  | { readonly kind: 'stored'; readonly agentId: string; readonly messageKind: FleetMessage['kind'] }
  /** Stored before (redelivered, or republished by the agent): nothing changed. */
  | { readonly kind: 'duplicate'; readonly agentId: string }
  /** Not a fleet subject, or no live record's current key (released, re-bound or unknown). */
  | { readonly kind: 'dropped'; readonly reason: 'not-a-fleet-subject' | 'unknown-publisher' }
  /** Not JSON, or not a fleet message of the subject's kind. */
  | { readonly kind: 'invalid'; readonly agentId: string; readonly reason: string };

const MAX_REASON_CHARS = 500;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** PostgreSQL text holds no NUL: one in a log line would fail the message on every redelivery. */
function withoutNul(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? value.replaceAll('\u0000', '\uFFFD') : value;
}

function describeIssues(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  return error.issues
    .map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    .join('; ')
    .slice(0, MAX_REASON_CHARS);
}

/**
 * Turns a fleet message into stored state: the publisher is the live record whose current key is in the
 * subject; heartbeats update the agent and its integration assets, metrics become series and samples
 * (with `cluster_id` when the agent's host is linked to a cluster), logs become entries. Throws only on
 * database errors, which the consumer retries.
 */
export class FleetIngestService {
  constructor(
    private readonly deps: { readonly ingest: Pick<FleetIngestRepository, 'publisher' | 'store'> },
  ) {}

  /** `heardAt`: when NATS received the message (its stream timestamp), never later than now. */
  async handle(subject: string, data: Uint8Array, heardAt: Date): Promise<IngestOutcome> {
    const parsedSubject = parseFleetSubject(subject);
    if (parsedSubject === undefined) return { kind: 'dropped', reason: 'not-a-fleet-subject' };
    const publisher = await this.deps.ingest.publisher(parsedSubject.publicKey);
    if (publisher === undefined) return { kind: 'dropped', reason: 'unknown-publisher' };
    const { agentId } = publisher;
    let json: unknown;
    try {
      json = JSON.parse(utf8.decode(data), withoutNul);
    } catch (e: unknown) {
      return {
        kind: 'invalid',
        agentId,
        reason: `not UTF-8 JSON: ${e instanceof Error ? e.message : String(e)}`,
      };
    }
    const parsed = fleetMessageSchema.safeParse(json);
    if (!parsed.success) return { kind: 'invalid', agentId, reason: describeIssues(parsed.error) };
    const message = parsed.data;
    if (message.kind !== parsedSubject.kind)
      return {
        kind: 'invalid',
        agentId,
        reason: `a ${message.kind} message on a ${parsedSubject.kind} subject`,
      };
    const stored = await this.deps.ingest.store(
      parsedSubject.publicKey,
      message.id,
      heardAt,
      async (writer) => {
        switch (message.kind) {
          case 'heartbeat':
            await writer.heartbeat({
              version: message.version,
              hostname: message.hostname,
              intervalSeconds: message.intervalSeconds,
              collectors: message.collectors,
              assets: integrationAssets(message.collectors),
            });
            return;
          case 'metrics':
            await writer.metrics(
              planSeries(writer.publisher.agentId, message.samples, await writer.clusterOfHost()),
            );
            return;
          case 'logs':
            await writer.logs(message.entries);
            return;
        }
      },
    );
    if (stored === 'unknown-publisher') return { kind: 'dropped', reason: 'unknown-publisher' };
    return stored === 'duplicate'
      ? { kind: 'duplicate', agentId }
      : { kind: 'stored', agentId, messageKind: message.kind };
  }
}
