import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';

import { registerArgs, startRegisterWorld, type RegisterWorld } from '@noderings/e2e/register-world';

import { figureReporter, reportFigure } from './bench-result.js';

const BENCH = 'register';
const figure = figureReporter(BENCH);
const RUNS = 3;

interface PhaseReport {
  readonly phases: readonly { readonly name: string; readonly duration_ms: number }[];
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

async function timed(
  world: RegisterWorld,
  argv: readonly string[],
): Promise<{ seconds: number; stdout: string }> {
  const t0 = performance.now();
  const run = await world.nr(argv);
  const seconds = (performance.now() - t0) / 1000;
  if (run.code !== 0) throw new Error(`nr ${argv.join(' ')} exited ${String(run.code)}:\n${run.stderr}`);
  return { seconds, stdout: run.stdout };
}

/**
 * `nr cluster register` on a simulated host against a control plane and pve-sim, each run in a world of
 * its own and nr in a process of its own: the wall time of a full register with each phase's time, and
 * of a `--resume` after nr was killed (SIGKILL) as the stack phase began, next to the full register.
 */
export async function registerBenchmark(): Promise<void> {
  process.stdout.write(
    `register: ${String(RUNS)} runs each, ${String(cpus().length)} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  const full: number[] = [];
  const phases = new Map<string, number[]>();
  for (let i = 0; i < RUNS; i++) {
    const world = await startRegisterWorld();
    try {
      const { seconds, stdout } = await timed(world, [...registerArgs(world), '--output', 'json']);
      full.push(seconds);
      for (const phase of (JSON.parse(stdout) as PhaseReport).phases)
        phases.set(phase.name, [...(phases.get(phase.name) ?? []), phase.duration_ms]);
    } finally {
      await world.close();
    }
  }
  const resumed: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const world = await startRegisterWorld();
    try {
      const killed = await world.nr(registerArgs(world), {
        killWhen: (stderr) => stderr.includes('[6/9] Agent stack…'),
      });
      if (killed.signal !== 'SIGKILL')
        throw new Error(`register was not killed in the stack phase:\n${killed.stderr}`);
      resumed.push((await timed(world, ['cluster', 'register', '--name', 'agent-a', '--resume'])).seconds);
    } finally {
      await world.close();
    }
  }
  const fullMedian = median(full);
  process.stdout.write(
    `full register: median ${fullMedian.toFixed(2)} s (${full.map((s) => s.toFixed(2)).join(', ')})\n`,
  );
  figure('full_register_s', fullMedian, 's');
  for (const [name, values] of phases) {
    process.stdout.write(`  ${name.padEnd(16)} median ${String(median(values))} ms\n`);
    figure(`phase_${name}_ms`, median(values), 'ms');
  }
  const resumeMedian = median(resumed);
  process.stdout.write(
    `--resume after a kill in the stack phase: median ${resumeMedian.toFixed(2)} s (${resumed.map((s) => s.toFixed(2)).join(', ')})\n`,
  );
  reportFigure({
    bench: BENCH,
    figure: 'resume_after_stack_kill_s',
    value: resumeMedian,
    unit: 's',
    anchor: 'full register (s)',
    anchorValue: fullMedian,
  });
}
