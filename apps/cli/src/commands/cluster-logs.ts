import { OPERATOR_NAME, OPERATOR_NAMESPACE } from '@noderings/deploy';

import { usageError } from '../cli-error.js';
import { stringFlag, type Command } from '../command.js';
import { openClusterSession } from '../cluster/cluster-session.js';
import { kubectl } from '../cluster/kubectl.js';
import { runChecked } from '../host/host.js';

const COMPONENTS = ['k3s', 'operator'] as const;
const DEFAULT_LINES = 100;

function linesOf(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LINES;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 1 || n > 100_000)
    throw usageError(`--lines must be a whole number from 1 to 100000, not "${value}"`);
  return n;
}

export const clusterLogs: Command = {
  path: ['cluster', 'logs'],
  summary: "the last lines of k3s' journal or the operator's log",
  synopsis: '[--name NAME] [--component k3s|operator] [--lines N]',
  options: { name: { type: 'string' }, component: { type: 'string' }, lines: { type: 'string' } },
  args: [],
  check: (flags) => {
    const component = stringFlag(flags, 'component');
    if (component !== undefined && !(COMPONENTS as readonly string[]).includes(component))
      throw usageError(`--component must be k3s or operator, not "${component}"`);
    linesOf(stringFlag(flags, 'lines'));
  },
  run: async (ctx) => {
    const { host } = await openClusterSession(ctx);
    const lines = linesOf(stringFlag(ctx.flags, 'lines'));
    const component = stringFlag(ctx.flags, 'component') ?? 'operator';
    const text =
      component === 'k3s'
        ? await runChecked(host, {
            argv: ['journalctl', '-u', 'k3s', '--no-pager', '-n', String(lines)],
            asRoot: true,
          })
        : await runChecked(
            host,
            kubectl([
              'logs',
              '-n',
              OPERATOR_NAMESPACE,
              `deployment/${OPERATOR_NAME}`,
              `--tail=${String(lines)}`,
            ]),
          );
    ctx.out.result({ component, lines: text.split('\n').filter((l) => l !== '') }, () => text);
  },
};
