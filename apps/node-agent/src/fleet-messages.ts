import { randomUUID } from 'node:crypto';

import {
  type LogEntry,
  type LogsMessage,
  MAX_LOG_ENTRIES_PER_MESSAGE,
  MAX_LOG_LINE_CHARS,
  MAX_MESSAGE_BYTES,
  MAX_SAMPLES_PER_MESSAGE,
  type MetricsMessage,
  type WireSample,
  encodeSampleValue,
} from '@noderings/fleet';

import type { Sample } from './collect/index.js';

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const FIELD_NAME = /^[a-z_][a-z0-9_]*$/;
const MAX_METRIC_NAME_CHARS = 200;
const MAX_LABEL_NAME_CHARS = 100;
const MAX_LABEL_VALUE_CHARS = 1_024;
const MAX_LABELS = 32;
const MAX_FIELD_VALUE_CHARS = 253;
const MAX_FIELDS = 16;
const MAX_TIMESTAMP_MS = 8_640_000_000_000;
/** Room for `{"kind":"metrics","id":"<uuid>","sentAt":"<iso>","samples":[]}` and then some. */
const ENVELOPE_BYTES = 256;

/** A sample in the wire shape, or undefined when the contract cannot carry it (it would fail the whole message). */
function toWireSample(sample: Sample): WireSample | undefined {
  if (!METRIC_NAME.test(sample.name) || sample.name.length > MAX_METRIC_NAME_CHARS) return undefined;
  const entries = Object.entries(sample.labels);
  if (entries.length > MAX_LABELS) return undefined;
  const labels: Record<string, string> = {};
  for (const [name, value] of entries) {
    if (!LABEL_NAME.test(name) || name.length > MAX_LABEL_NAME_CHARS) return undefined;
    labels[name] = value.length > MAX_LABEL_VALUE_CHARS ? value.slice(0, MAX_LABEL_VALUE_CHARS) : value;
  }
  const t = Math.round(sample.timestampMs);
  if (!Number.isFinite(t) || t < 0 || t > MAX_TIMESTAMP_MS) return undefined;
  return { n: sample.name, l: labels, v: encodeSampleValue(sample.value), t };
}

/** A log entry the contract accepts: the line cut to its limit, fields that break the rules left out. */
function toLogEntry(entry: LogEntry): LogEntry {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(entry.fields).slice(0, MAX_FIELDS)) {
    if (FIELD_NAME.test(name) && name.length <= 64) fields[name] = value.slice(0, MAX_FIELD_VALUE_CHARS);
  }
  const line = entry.line.length > MAX_LOG_LINE_CHARS ? entry.line.slice(0, MAX_LOG_LINE_CHARS) : entry.line;
  const t = Math.min(Math.max(0, Math.round(entry.t)), MAX_TIMESTAMP_MS);
  return { t, stream: entry.stream, line, fields };
}

/** Cuts items into runs of at most `maxCount` items and `maxBytes` of JSON each. */
function splitByLimits<T>(items: readonly T[], maxCount: number, maxBytes: number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = Buffer.byteLength(JSON.stringify(item)) + 1;
    if (run.length > 0 && (run.length >= maxCount || bytes + size > maxBytes)) {
      runs.push(run);
      run = [];
      bytes = 0;
    }
    run.push(item);
    bytes += size;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

/** Metrics messages for the samples, each within the sample and byte limits; unsendable samples counted. */
export function metricsMessages(
  samples: readonly Sample[],
  sentAt: Date,
): { readonly messages: MetricsMessage[]; readonly skipped: number } {
  const wire = samples.map(toWireSample).filter((s): s is WireSample => s !== undefined);
  const messages = splitByLimits(wire, MAX_SAMPLES_PER_MESSAGE, MAX_MESSAGE_BYTES - ENVELOPE_BYTES).map(
    (run): MetricsMessage => ({
      kind: 'metrics',
      id: randomUUID(),
      sentAt: sentAt.toISOString(),
      samples: run,
    }),
  );
  return { messages, skipped: samples.length - wire.length };
}

/** Logs messages for the entries, each within the entry and byte limits. */
export function logsMessages(entries: readonly LogEntry[], sentAt: Date): LogsMessage[] {
  return splitByLimits(
    entries.map(toLogEntry),
    MAX_LOG_ENTRIES_PER_MESSAGE,
    MAX_MESSAGE_BYTES - ENVELOPE_BYTES,
  ).map((run): LogsMessage => ({
    kind: 'logs',
    id: randomUUID(),
    sentAt: sentAt.toISOString(),
    entries: run,
  }));
}
