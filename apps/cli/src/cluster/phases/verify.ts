import { CliError } from '../../cli-error.js';
import type { Phase } from '../phase.js';
import { verifyCluster, verifyPassed } from '../verify.js';

/** Phase 9: the health gate; its report is register's result. */
export const verifyPhase: Phase = {
  name: 'verify',
  title: 'Verify',
  isDone: () => Promise.resolve(false),
  plan: () => Promise.resolve([{ description: 'verify kubernetes, calico, agent, operator and platform' }]),
  run: async (ctx) => {
    const report = await verifyCluster({ host: ctx.host, api: ctx.api, state: ctx.state });
    for (const section of report.sections)
      for (const check of section.checks) {
        const line = `${section.name}/${check.name}: ${check.message}`;
        if (check.status === 'fail') ctx.out.fail(line);
        else if (check.status === 'warn') ctx.out.warn(line);
        else ctx.out.ok(line);
      }
    if (!verifyPassed(report))
      throw new CliError('CHECK_FAILED', 'The cluster did not pass verify; see the failed checks above.');
  },
};
