import { CliError } from '../cli-error.js';
import { formatCommand } from '../host/host.js';
import { succeeded, writeClusterState, type Checkpoint, type PhaseName } from './cluster-state.js';
import type { Phase, RegisterContext } from './phase.js';

/** What a register run did, phase by phase: register's JSON result. */
export interface RegisterReport {
  readonly agent_id: string | undefined;
  readonly dry_run: boolean;
  readonly phases: readonly {
    readonly name: PhaseName;
    readonly outcome: 'ran' | 'already-done' | 'skipped' | 'planned';
    readonly duration_ms: number;
    readonly detail?: string;
    readonly plan?: readonly string[];
  }[];
}

/**
 * Runs the phases in order. A phase whose outcome is already there (`isDone`) is not run again, so a
 * fresh register on a half-set-up machine and `--resume` after a kill both converge; each success is a
 * checkpoint in the state file, each failure its `last_error`. With `dryRun`, phases only read and plan.
 */
export async function runPhases(ctx: RegisterContext, phases: readonly Phase[]): Promise<RegisterReport> {
  const report: RegisterReport['phases'][number][] = [];
  const dryRun = ctx.input.dryRun;
  const state = ctx.state;
  for (const [index, phase] of phases.entries()) {
    const label = `[${String(index + 1)}/${String(phases.length)}] ${phase.title}`;
    const started = Date.now();
    const elapsed = () => Date.now() - started;
    const skippedBecause = phase.skipped?.(ctx);
    if (skippedBecause !== undefined) {
      ctx.out.warn(`${label}: skipped (${skippedBecause})`);
      report.push({ name: phase.name, outcome: 'skipped', duration_ms: 0, detail: skippedBecause });
      if (!dryRun) await checkpoint(ctx, phase.name, 'skipped', 0);
      continue;
    }
    if (dryRun) {
      // What a dry run cannot read (the pins, the API) fails it: a plan without them would mislead.
      const done = await phase.isDone(ctx);
      if (done) {
        ctx.out.ok(`${label}: already done`);
        report.push({ name: phase.name, outcome: 'already-done', duration_ms: elapsed() });
        continue;
      }
      const steps = await phase.plan(ctx);
      const lines = steps.map((s) =>
        s.command === undefined ? s.description : `${s.description}\n      $ ${formatCommand(s.command)}`,
      );
      ctx.say(`${label}: would\n${lines.map((l) => `    - ${l}`).join('\n')}`);
      report.push({
        name: phase.name,
        outcome: 'planned',
        duration_ms: elapsed(),
        plan: steps.map((s) => s.description),
      });
      continue;
    }
    try {
      const wasDone = succeeded(state, phase.name);
      if (await phase.isDone(ctx)) {
        ctx.out.ok(`${label}: already done (${formatDuration(elapsed())})`);
        if (!wasDone) await checkpoint(ctx, phase.name, 'success', elapsed());
        report.push({ name: phase.name, outcome: 'already-done', duration_ms: elapsed() });
        continue;
      }
      if (wasDone && ctx.input.resume) ctx.out.warn(`${label}: was done, is not any more; running it again`);
      state.phase = phase.name;
      await writeClusterState(ctx.store, state);
      ctx.say(`${label}…`);
      await phase.run(ctx);
      await checkpoint(ctx, phase.name, 'success', elapsed());
      ctx.out.ok(`${label}: done in ${formatDuration(elapsed())}`);
      report.push({ name: phase.name, outcome: 'ran', duration_ms: elapsed() });
    } catch (e: unknown) {
      const message = e instanceof Error ? e.message : String(e);
      state.phase = 'failed';
      state.last_error = {
        phase: phase.name,
        timestamp: new Date().toISOString(),
        error: message,
        recoverable: !(e instanceof CliError && (e.code === 'USAGE' || e.code === 'REGISTER_REFUSED')),
      };
      await checkpoint(ctx, phase.name, 'failed', elapsed());
      ctx.out.fail(`${label}: failed after ${formatDuration(elapsed())}`);
      throw e instanceof CliError
        ? e
        : new CliError(
            'PHASE_FAILED',
            `${phase.title} failed: ${message}\nFix it and continue with: nr cluster register --name ${state.agent_name} --resume`,
            { cause: e },
          );
    }
  }
  if (!dryRun) {
    state.phase = 'complete';
    delete state.last_error;
    await writeClusterState(ctx.store, state);
  }
  return { agent_id: state.agent_id, dry_run: dryRun, phases: report };
}

async function checkpoint(
  ctx: RegisterContext,
  phase: PhaseName,
  status: Checkpoint['status'],
  durationMs: number,
): Promise<void> {
  // One checkpoint per phase: the latest outcome replaces an earlier one.
  ctx.state.checkpoints = ctx.state.checkpoints.filter((c) => c.phase !== phase);
  ctx.state.checkpoints.push({ phase, timestamp: new Date().toISOString(), status, duration_ms: durationMs });
  await writeClusterState(ctx.store, ctx.state);
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${String(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}
