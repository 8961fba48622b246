import { z } from 'zod';

/**
 * What agents publish over NATS, as JSON. Each message has an `id` (a UUID, also sent as the
 * `Nats-Msg-Id` header): JetStream drops a re-publish within its duplicate window, and the control plane
 * stores every message at most once by it, so at-least-once delivery never double-counts.
 */

/** Larger messages are split by the agent; NATS refuses payloads over its max_payload (1 MiB default). */
export const MAX_MESSAGE_BYTES = 768 * 1024;
export const MAX_SAMPLES_PER_MESSAGE = 4_000;
export const MAX_LOG_ENTRIES_PER_MESSAGE = 1_000;
export const MAX_LOG_LINE_CHARS = 16_384;

export const AGENT_TYPES = ['host', 'k8s-node-monitor', 'collector'] as const;
export type AgentType = (typeof AGENT_TYPES)[number];

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const FIELD_NAME = /^[a-z_][a-z0-9_]*$/;

const messageHead = {
  id: z.uuid(),
  sentAt: z.iso.datetime({ offset: true }),
};

export const collectorStatusSchema = z.strictObject({
  /** `kubelet`, or an integration such as `postgresql`, `redis`, `nginx`, `docker`. */
  name: z.string().regex(/^[a-z][a-z0-9_-]{0,62}$/),
  /** `core` collectors are the agent's own work; `integration` ones found a service on the host. */
  kind: z.enum(['core', 'integration']),
  status: z.enum(['ok', 'degraded', 'failing', 'disabled']),
  message: z.string().max(1_000).optional(),
  lastSuccessAt: z.iso.datetime({ offset: true }).optional(),
  /** Where an integration's service answers, e.g. `127.0.0.1:5432`. */
  target: z.string().max(256).optional(),
  /** What an integration reports of itself, e.g. `{ version: '16.4' }`. */
  details: z
    .record(z.string().regex(FIELD_NAME).max(64), z.string().max(256))
    .refine((d) => Object.keys(d).length <= 32, 'at most 32 details')
    .optional(),
});
export type CollectorStatus = z.infer<typeof collectorStatusSchema>;

export const heartbeatMessageSchema = z.strictObject({
  kind: z.literal('heartbeat'),
  ...messageHead,
  version: z.string().min(1).max(64),
  agentType: z.enum(AGENT_TYPES),
  name: z.string().min(1).max(253),
  hostname: z.string().min(1).max(253),
  /** How often the agent sends heartbeats; the control plane calls it stale after three missed. */
  intervalSeconds: z.int().min(1).max(3_600),
  collectors: z.array(collectorStatusSchema).max(64),
});
export type HeartbeatMessage = z.infer<typeof heartbeatMessageSchema>;

/** JSON has no NaN or infinities: those travel as these strings. */
const sampleValueSchema = z.union([z.number(), z.enum(['NaN', '+Inf', '-Inf'])]);

export const wireSampleSchema = z.strictObject({
  /** Metric name. */
  n: z.string().regex(METRIC_NAME).max(200),
  /** Labels. */
  l: z
    .record(z.string().regex(LABEL_NAME).max(100), z.string().max(1_024))
    .refine((l) => Object.keys(l).length <= 32, 'at most 32 labels'),
  /** Value. */
  v: sampleValueSchema,
  /** Timestamp, Unix milliseconds. */
  t: z.int().min(0).max(8_640_000_000_000),
});
export type WireSample = z.infer<typeof wireSampleSchema>;

export const metricsMessageSchema = z.strictObject({
  kind: z.literal('metrics'),
  ...messageHead,
  samples: z.array(wireSampleSchema).min(1).max(MAX_SAMPLES_PER_MESSAGE),
});
export type MetricsMessage = z.infer<typeof metricsMessageSchema>;

export const logEntrySchema = z.strictObject({
  /** Unix milliseconds, from the log line's own timestamp. */
  t: z.int().min(0).max(8_640_000_000_000),
  stream: z.enum(['stdout', 'stderr']),
  line: z.string().max(MAX_LOG_LINE_CHARS),
  /** Enrichment, e.g. `k8s_namespace`, `k8s_pod`, `k8s_container`, `k8s_pod_uid`. */
  fields: z
    .record(z.string().regex(FIELD_NAME).max(64), z.string().max(253))
    .refine((f) => Object.keys(f).length <= 16, 'at most 16 fields'),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const logsMessageSchema = z.strictObject({
  kind: z.literal('logs'),
  ...messageHead,
  entries: z.array(logEntrySchema).min(1).max(MAX_LOG_ENTRIES_PER_MESSAGE),
});
export type LogsMessage = z.infer<typeof logsMessageSchema>;

export const fleetMessageSchema = z.discriminatedUnion('kind', [
  heartbeatMessageSchema,
  metricsMessageSchema,
  logsMessageSchema,
]);
export type FleetMessage = z.infer<typeof fleetMessageSchema>;

export function encodeSampleValue(value: number): WireSample['v'] {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return '+Inf';
  if (value === -Infinity) return '-Inf';
  return value;
}

export function decodeSampleValue(value: WireSample['v']): number {
  if (typeof value === 'number') return value;
  if (value === 'NaN') return NaN;
  return value === '+Inf' ? Infinity : -Infinity;
}
