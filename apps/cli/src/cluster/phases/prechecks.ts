import { CliError } from '../../cli-error.js';
import type { Phase } from '../phase.js';
import { runPrechecks } from '../prechecks.js';

/** Phase 2: what seed 000 asks of the machine, each failure saying what was found and what is needed. */
export const precheckPhase: Phase = {
  name: 'prechecks',
  title: 'Prechecks',
  skipped: (ctx) => (ctx.input.skipPrechecks ? '--skip-prechecks' : undefined),
  // A check, not a state: a run that passed once stays passed (k3s, once installed, holds the ports).
  isDone: (ctx) =>
    Promise.resolve(ctx.state.checkpoints.some((c) => c.phase === 'prechecks' && c.status === 'success')),
  plan: () =>
    Promise.resolve([{ description: 'check OS, CPUs, memory, disk, ports, agent IP, API, DNS, privilege' }]),
  run: async (ctx) => {
    const results = await runPrechecks(ctx.host, {
      agentIp: ctx.input.agentIp,
      controlPlaneUrl: new URL(ctx.apiUrl),
      apiReachable: async () => {
        const response = await fetch(`${ctx.apiUrl}/v1/platform-versions`, {
          signal: AbortSignal.timeout(10_000),
        });
        await response.body?.cancel();
      },
    });
    for (const check of results) {
      if (check.status === 'pass') ctx.out.ok(`${check.name}: ${check.message}`);
      else if (check.status === 'warn') ctx.out.warn(`${check.name}: ${check.message}`);
      else ctx.out.fail(`${check.name}: ${check.message}`);
    }
    const failed = results.filter((c) => c.status === 'fail');
    if (failed.length > 0)
      throw new CliError(
        'PRECHECK_FAILED',
        `${String(failed.length)} precheck${failed.length === 1 ? '' : 's'} failed (${failed.map((c) => c.name).join(', ')}); fix them and run again, or pass --skip-prechecks.`,
      );
  },
};
