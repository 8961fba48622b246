import {
  createSimulatedNode,
  renderCadvisorMetrics,
  renderPodList,
  renderStatsSummary,
} from '@noderings/kubelet-sim';
import { describe, expect, it } from 'vitest';

import { ExpositionError, parseExposition, scanExposition } from '@noderings/prom';
import { KubeletCollector } from './kubelet-collector.js';
import { KubeletDocumentError, parsePodList, parseStatsSummary } from './kubelet-documents.js';

/**
 * Kubelet answers the agent has never seen: real-shaped documents (kubelet-sim's) with random damage. The
 * agent may refuse them, but only with its own errors naming what is wrong, never with a TypeError, and
 * the collector never throws: a damaged source just fails this tick.
 */

const ITERATIONS = 400;
const NOISE = [
  '{',
  '}',
  '"',
  ',',
  '=',
  '\n',
  ' ',
  '#',
  '\\',
  'e',
  '-',
  '+',
  'N',
  'I',
  '0',
  '9',
  '.',
  ':',
  '[',
  ']',
  'x',
];

/** A small deterministic generator (mulberry32), so a failure can be replayed from its iteration. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function damage(text: string, next: () => number): string {
  let out = text;
  const edits = 1 + Math.floor(next() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * out.length);
    const kind = Math.floor(next() * 4);
    if (kind === 0) out = out.slice(0, at) + out.slice(at + 1 + Math.floor(next() * 8));
    else if (kind === 1)
      out = out.slice(0, at) + (NOISE[Math.floor(next() * NOISE.length)] ?? '') + out.slice(at);
    else if (kind === 2) out = out.slice(0, at);
    else out = out.slice(0, at) + out.slice(Math.floor(next() * out.length));
  }
  return out;
}

const clock = Date.parse('2026-11-30T12:00:00Z');
const node = createSimulatedNode({ pods: 6, seed: 3, now: () => clock });
const cadvisor = renderCadvisorMetrics(node);
const summary = renderStatsSummary(node);
const pods = renderPodList(node);

function refusesOnlyWith(parse: () => unknown, errorType: new (...args: never[]) => Error): void {
  try {
    parse();
  } catch (e: unknown) {
    expect(e).toBeInstanceOf(errorType);
  }
}

describe('damaged kubelet documents', () => {
  it('exposition: only ExpositionError, and the scanner agrees with the full parser on what it accepts', () => {
    const next = random(1);
    for (let i = 0; i < ITERATIONS; i++) {
      const text = damage(cadvisor, next);
      let families;
      try {
        families = parseExposition(text);
      } catch (e: unknown) {
        expect(e, `iteration ${i}`).toBeInstanceOf(ExpositionError);
        continue;
      }
      const scanned: unknown[] = [];
      scanExposition(
        text,
        () => true,
        (name, labels, value, timestampMs) => scanned.push({ name, labels, value, timestampMs }),
      );
      // The full parser groups a family's samples even where another name interrupts them (as Go's
      // expfmt does); the scanner reports them in stream order. The same samples either way.
      const sorted = (samples: unknown[]): string[] => samples.map((x) => JSON.stringify(x)).sort();
      expect(sorted(scanned), `iteration ${i}`).toEqual(sorted(families.flatMap((f) => f.samples)));
    }
  });

  it('summary and pod list: only KubeletDocumentError', () => {
    const next = random(2);
    for (let i = 0; i < ITERATIONS; i++) {
      refusesOnlyWith(() => parseStatsSummary(damage(summary, next)), KubeletDocumentError);
      refusesOnlyWith(() => parsePodList(damage(pods, next)), KubeletDocumentError);
    }
  });

  it('the collector never throws, and a damaged source only fails itself', () => {
    const next = random(3);
    const collector = new KubeletCollector({ nodeName: node.nodeName, intervalMs: 30_000 });
    for (let i = 0; i < ITERATIONS / 4; i++) {
      const result = collector.tick({
        nowMs: clock + i * 30_000,
        summary: { ok: true, body: damage(summary, next) },
        cadvisor: { ok: true, body: cadvisor },
        pods: { ok: true, body: damage(pods, next) },
      });
      expect(result.sources.cadvisor, `iteration ${i}`).toBe('ok');
    }
  });
});
