import { CliError, usageError } from '../cli-error.js';
import { stringFlag, type Command } from '../command.js';
import { openClusterSession } from '../cluster/cluster-session.js';
import {
  renderVerify,
  VERIFY_SECTIONS,
  verifyCluster,
  verifyPassed,
  type VerifySection,
} from '../cluster/verify.js';

function sectionsOf(value: string | undefined): VerifySection[] | undefined {
  if (value === undefined) return undefined;
  return value.split(',').map((s) => {
    if (!(VERIFY_SECTIONS as readonly string[]).includes(s))
      throw usageError(`--section must be one of ${VERIFY_SECTIONS.join(', ')}, not "${s}"`);
    return s as VerifySection;
  });
}

export const clusterVerify: Command = {
  path: ['cluster', 'verify'],
  summary: 'checks the registered cluster section by section; exits 1 when a check fails',
  synopsis: `[--name NAME] [--section ${VERIFY_SECTIONS.join('|')}[,…]]`,
  options: { name: { type: 'string' }, section: { type: 'string' } },
  args: [],
  check: (flags) => {
    sectionsOf(stringFlag(flags, 'section'));
  },
  run: async (ctx) => {
    const session = await openClusterSession(ctx);
    const sections = sectionsOf(stringFlag(ctx.flags, 'section'));
    const report = await verifyCluster({ ...session, ...(sections === undefined ? {} : { sections }) });
    ctx.out.result(report, () => renderVerify(report));
    if (!verifyPassed(report)) throw new CliError('CHECK_FAILED', 'verify: a check failed.');
  },
};
