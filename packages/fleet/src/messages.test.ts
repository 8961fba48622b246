import { randomUUID } from 'node:crypto';

import { describe, expect, it } from 'vitest';

import {
  decodeSampleValue,
  encodeSampleValue,
  fleetMessageSchema,
  MAX_SAMPLES_PER_MESSAGE,
} from './messages.js';
import { fleetSubject, parseFleetSubject } from './subjects.js';

const KEY = `U${'A'.repeat(55)}`;
const head = { id: randomUUID(), sentAt: '2026-11-30T12:00:00.000Z' };

describe('fleet messages', () => {
  it('carries NaN and infinities through JSON as strings', () => {
    for (const value of [NaN, Infinity, -Infinity, 0, -1.5e-300, 2.5]) {
      const sample = { n: 'x', l: {}, v: encodeSampleValue(value), t: 1 };
      const back = fleetMessageSchema.parse(
        JSON.parse(JSON.stringify({ kind: 'metrics', ...head, samples: [sample] })),
      );
      expect(back.kind === 'metrics' && decodeSampleValue(back.samples[0]?.v ?? 0)).toBe(value);
    }
  });

  it.each([
    ['a bad metric name', { kind: 'metrics', ...head, samples: [{ n: '1x', l: {}, v: 1, t: 1 }] }],
    ['a bad label name', { kind: 'metrics', ...head, samples: [{ n: 'x', l: { 'a-b': '1' }, v: 1, t: 1 }] }],
    ['no samples', { kind: 'metrics', ...head, samples: [] }],
    [
      'too many samples',
      {
        kind: 'metrics',
        ...head,
        samples: Array(MAX_SAMPLES_PER_MESSAGE + 1).fill({ n: 'x', l: {}, v: 1, t: 1 }),
      },
    ],
    ['a fractional timestamp', { kind: 'metrics', ...head, samples: [{ n: 'x', l: {}, v: 1, t: 1.5 }] }],
    ['an unknown kind', { kind: 'traces', ...head }],
    ['no id', { kind: 'logs', sentAt: head.sentAt, entries: [] }],
  ])('refuses %s', (_, message) => {
    expect(fleetMessageSchema.safeParse(message).success).toBe(false);
  });

  it('names the publisher in the subject and refuses anything else', () => {
    expect(parseFleetSubject(fleetSubject(KEY, 'heartbeat'))).toEqual({ publicKey: KEY, kind: 'heartbeat' });
    expect(parseFleetSubject(`fleet.${KEY}.traces`)).toBeUndefined();
    expect(parseFleetSubject(`fleet.${KEY.toLowerCase()}.logs`)).toBeUndefined();
    expect(parseFleetSubject(`fleet.${KEY}.logs.more`)).toBeUndefined();
    expect(parseFleetSubject(`other.${KEY}.logs`)).toBeUndefined();
  });
});
