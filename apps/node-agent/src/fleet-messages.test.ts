import {
  MAX_LOG_LINE_CHARS,
  MAX_MESSAGE_BYTES,
  MAX_SAMPLES_PER_MESSAGE,
  fleetMessageSchema,
} from '@noderings/fleet';
import { describe, expect, test } from 'vitest';

import { logsMessages, metricsMessages } from './fleet-messages.js';

const SENT = new Date('2026-05-01T00:00:00Z');

describe('metricsMessages', () => {
  test('splits at the sample limit and every message passes the contract', () => {
    const samples = Array.from({ length: MAX_SAMPLES_PER_MESSAGE * 2 + 5 }, (_, i) => ({
      name: 'container_cpu_usage_ratio',
      labels: { node: 'n1', pod: `p${i}` },
      value: i === 0 ? NaN : i,
      timestampMs: 1_700_000_000_000,
    }));
    const { messages, skipped } = metricsMessages(samples, SENT);
    expect(skipped).toBe(0);
    expect(messages.map((m) => m.samples.length)).toEqual([
      MAX_SAMPLES_PER_MESSAGE,
      MAX_SAMPLES_PER_MESSAGE,
      5,
    ]);
    expect(messages[0]?.samples[0]).toEqual({
      n: 'container_cpu_usage_ratio',
      l: { node: 'n1', pod: 'p0' },
      v: 'NaN',
      t: 1_700_000_000_000,
    });
    expect(new Set(messages.map((m) => m.id)).size).toBe(3);
    for (const message of messages) expect(fleetMessageSchema.safeParse(message).success).toBe(true);
  });

  test('splits at the byte limit', () => {
    const samples = Array.from({ length: 3_000 }, (_, i) => ({
      name: 'pod_memory_used_bytes',
      labels: Object.fromEntries(Array.from({ length: 8 }, (_l, j) => [`l${j}`, `${i}-${'x'.repeat(100)}`])),
      value: i,
      timestampMs: 1,
    }));
    const { messages } = metricsMessages(samples, SENT);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) {
      expect(Buffer.byteLength(JSON.stringify(message))).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
      expect(fleetMessageSchema.safeParse(message).success).toBe(true);
    }
    expect(messages.reduce((n, m) => n + m.samples.length, 0)).toBe(3_000);
  });

  test('leaves out samples the contract cannot carry, and cuts long label values', () => {
    const { messages, skipped } = metricsMessages(
      [
        { name: 'bad name', labels: {}, value: 1, timestampMs: 1 },
        { name: 'ok', labels: { 'bad-label': 'x' }, value: 1, timestampMs: 1 },
        { name: 'ok', labels: {}, value: 1, timestampMs: -5 },
        { name: 'ok', labels: { long: 'y'.repeat(5_000) }, value: Infinity, timestampMs: 1 },
      ],
      SENT,
    );
    expect(skipped).toBe(3);
    expect(messages[0]?.samples).toEqual([{ n: 'ok', l: { long: 'y'.repeat(1_024) }, v: '+Inf', t: 1 }]);
  });
});

describe('logsMessages', () => {
  test('cuts over-long lines and passes the contract', () => {
    const [message] = logsMessages(
      [{ t: 1, stream: 'stderr', line: 'z'.repeat(MAX_LOG_LINE_CHARS + 10), fields: { k8s_pod: 'web' } }],
      SENT,
    );
    expect(message?.entries[0]?.line).toHaveLength(MAX_LOG_LINE_CHARS);
    expect(fleetMessageSchema.safeParse(message).success).toBe(true);
  });
});
