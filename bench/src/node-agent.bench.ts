import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';

import { startFleetSite } from '@noderings/e2e/fleet-site';
import { startNodeAgentProcess } from '@noderings/e2e/node-agent-process';
import {
  createSimulatedNode,
  renderCadvisorMetrics,
  renderPodList,
  renderStatsSummary,
} from '@noderings/kubelet-sim';
import { CADVISOR_FAMILIES, KubeletCollector } from '@noderings/node-agent/collect';
import { parseExposition, scanExposition } from '@noderings/prom';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';

import { reportFigure } from './bench-result.js';
import { cpuSeconds, formatResidentMemory, readResidentMemory } from './process-usage.js';

const BENCH = 'node-agent';
const ANCHOR = 'parse-prometheus-text-format';
const PODS = 110;
/** The agent's tick in the process part: short, so that enough ticks fit in the run. */
const AGENT_INTERVAL_SECONDS = 2;

/** Runs `parse` over `text` for about `seconds` (at least 5 runs), after 2 warm-up runs; MB/s. */
function throughput(
  text: string,
  seconds: number,
  parse: (text: string) => number,
): { mbps: number; samples: number } {
  let samples = 0;
  for (let i = 0; i < 2; i++) samples = parse(text);
  const started = performance.now();
  let runs = 0;
  while (runs < 5 || performance.now() - started < seconds * 1000) {
    parse(text);
    runs++;
  }
  const elapsed = (performance.now() - started) / 1000;
  return { mbps: (Buffer.byteLength(text) * runs) / elapsed / 1e6, samples };
}

function measureParsers(seconds: number): void {
  const node = createSimulatedNode({ pods: PODS, seed: 1 });
  const text = renderCadvisorMetrics(node);
  const mb = Buffer.byteLength(text) / 1e6;
  process.stdout.write(
    `\ncAdvisor text of a ${PODS}-pod node from kubelet-sim: ${mb.toFixed(1)} MB, ${text.split('\n').length} lines\n`,
  );
  const each = Math.max(1, seconds / 4);
  const rows: [string, string, { mbps: number; samples: number }][] = [
    [
      'parse_prometheus_text_format_mb_per_s',
      'parse-prometheus-text-format 1.1.1 (npm)',
      throughput(text, each, (t) => parsePrometheusTextFormat(t).reduce((n, f) => n + f.metrics.length, 0)),
    ],
    [
      'parse_exposition_mb_per_s',
      'parseExposition (ours, whole tree)',
      throughput(text, each, (t) => count(parseExposition(t))),
    ],
    [
      'scan_exposition_all_families_mb_per_s',
      'scanExposition (ours, every family)',
      throughput(text, each, (t) => {
        let n = 0;
        scanExposition(
          t,
          () => true,
          () => n++,
        );
        return n;
      }),
    ],
    [
      'scan_exposition_agent_families_mb_per_s',
      `scanExposition (ours, the agent's ${CADVISOR_FAMILIES.size} families)`,
      throughput(text, each, (t) => {
        let n = 0;
        scanExposition(
          t,
          (name) => CADVISOR_FAMILIES.has(name),
          () => n++,
        );
        return n;
      }),
    ],
  ];
  const anchor = rows[0]?.[2].mbps ?? NaN;
  process.stdout.write('| parser | MB/s | samples | ratio to the npm package |\n|---|---|---|---|\n');
  for (const [, name, r] of rows)
    process.stdout.write(
      `| ${name} | ${r.mbps.toFixed(1)} | ${r.samples} | ${(r.mbps / anchor).toFixed(2)}× |\n`,
    );
  for (const [i, [figure, , r]] of rows.entries()) {
    const measured = { bench: BENCH, figure, value: r.mbps, unit: 'MB/s' };
    // The first row is the anchor itself.
    reportFigure(i === 0 ? measured : { ...measured, anchor: ANCHOR, anchorValue: anchor });
  }
}

function count(families: ReturnType<typeof parseExposition>): number {
  return families.reduce((n, f) => n + f.samples.length, 0);
}

/** The collection core alone, in this process: one tick over freshly rendered documents 30 s apart. */
function measureTicks(seconds: number): void {
  let clock = Date.parse('2026-11-30T12:00:00Z');
  const node = createSimulatedNode({ pods: PODS, seed: 1, now: () => clock });
  const collector = new KubeletCollector({ nodeName: node.nodeName, intervalMs: 30_000 });
  const documents = () => ({
    nowMs: clock,
    summary: { ok: true as const, body: renderStatsSummary(node) },
    cadvisor: { ok: true as const, body: renderCadvisorMetrics(node) },
    pods: { ok: true as const, body: renderPodList(node) },
  });
  let ticks = 0;
  let cpuMicros = 0;
  let samples = 0;
  const started = performance.now();
  while (ticks < 10 || performance.now() - started < seconds * 1000) {
    clock += 30_000;
    const input = documents();
    const before = process.cpuUsage();
    samples = collector.tick(input).samples.length;
    const used = process.cpuUsage(before);
    if (ticks >= 2) cpuMicros += used.user + used.system;
    ticks++;
  }
  const cpuMsPerTick = cpuMicros / 1000 / (ticks - 2);
  process.stdout.write(
    `\nKubeletCollector.tick alone (parse + series) on a ${PODS}-pod node: ${cpuMsPerTick.toFixed(1)} ms CPU per tick over ${ticks - 2} ticks, ${samples} samples per tick\n`,
  );
  reportFigure({ bench: BENCH, figure: 'collector_tick_cpu_ms', value: cpuMsPerTick, unit: 'ms' });
  reportFigure({ bench: BENCH, figure: 'collector_tick_samples', value: samples, unit: 'samples' });
}

/**
 * The agent as it runs: its own process (`npm run node-agent`), against a kubelet-sim with a 110-pod node
 * over HTTPS, enrolled with the control plane and publishing over a real nats-server. CPU and resident
 * memory are read from /proc for the agent's process only.
 */
async function measureAgentProcess(seconds: number): Promise<void> {
  const site = await startFleetSite({ pods: PODS });
  const dataDir = await mkdtemp(join(tmpdir(), 'noderings-agent-bench-'));
  const agent = startNodeAgentProcess([
    ...['--backend-url', site.controlPlane.url, '--install-token', site.installToken],
    ...['--agent-type', 'k8s-node-monitor', '--k8s-node-metrics', '--node-name', site.nodeName],
    ...['--data-dir', join(dataDir, 'state'), '--log-dir', join(dataDir, 'pods')],
    ...['--metrics-interval', `${AGENT_INTERVAL_SECONDS}s`, '--kubelet-url', site.kubelet.url],
    ...['--kubelet-token-file', site.kubeletTokenFile, '--kubelet-ca-file', site.kubeletCaFile],
    ...['--health-listen', '127.0.0.1:0', '--log-level', 'warn'],
  ]);
  try {
    // Warm-up: enrolled, connected, a few ticks published (JIT, TLS sessions, first documents).
    const warm = () => site.kubelet.requestCount('/stats/summary') >= 3;
    const deadline = Date.now() + 60_000;
    while (!warm()) {
      if (Date.now() > deadline)
        throw new Error(`the agent did not start ticking:\n${agent.lines.join('\n')}`);
      await delay(100);
    }
    const ticksBefore = site.kubelet.requestCount('/stats/summary');
    const cpuBefore = await cpuSeconds(agent.pid);
    await delay(Math.max(seconds, 10 * AGENT_INTERVAL_SECONDS) * 1000);
    const ticks = site.kubelet.requestCount('/stats/summary') - ticksBefore;
    const cpu = (await cpuSeconds(agent.pid)) - cpuBefore;
    const memory = await readResidentMemory(agent.pid);
    const agents = await site.api.call<{ agents: { id: string }[] }>(
      'GET',
      `/api/v1/fleet/agents?environmentId=${site.environmentId}`,
      200,
      { as: site.provider },
    );
    const agentId = agents.agents[0]?.id ?? '';
    const series = await site.api.call<{ totalCount: number }>(
      'GET',
      `/api/v1/fleet/agents/${agentId}/series`,
      200,
      {
        as: site.provider,
      },
    );
    process.stdout.write(
      [
        '',
        `node agent process, ${PODS}-pod node, one tick every ${AGENT_INTERVAL_SECONDS} s (fetch over HTTPS, parse, publish over NATS):`,
        `  ${ticks} ticks: ${((cpu * 1000) / ticks).toFixed(1)} ms CPU per tick (user + system, /proc), resident ${formatResidentMemory(memory)}`,
        `  the control plane holds ${series.totalCount} series for the agent`,
        '',
      ].join('\n'),
    );
    reportFigure({ bench: BENCH, figure: 'agent_tick_cpu_ms', value: (cpu * 1000) / ticks, unit: 'ms' });
    if (typeof memory !== 'string') {
      reportFigure({ bench: BENCH, figure: 'agent_rss_mib', value: memory.rssMiB, unit: 'MiB' });
      reportFigure({ bench: BENCH, figure: 'agent_peak_rss_mib', value: memory.peakMiB, unit: 'MiB' });
    }
    reportFigure({ bench: BENCH, figure: 'agent_series', value: series.totalCount, unit: 'series' });
  } finally {
    await agent.stop();
    await site.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** `npm run bench -- node-agent [--seconds N]` */
export async function nodeAgentBenchmark(seconds: number): Promise<void> {
  measureParsers(seconds);
  measureTicks(seconds);
  await measureAgentProcess(seconds);
}
