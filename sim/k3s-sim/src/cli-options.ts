import { isIPv4 } from 'node:net';
import { parseArgs } from 'node:util';

export const USAGE = `usage: k3s-sim --root DIR [--node-name NAME] [--version VERSION] server --node-ip=IP [k3s server flags…]

Runs k3s as a simulated host has it, under DIR: a kube-sim with k3s' kubeconfig, state and logs at their
real paths, one Ready node and a pod runner. k3s server flags other than --node-ip are accepted and
have no effect (the simulator has no network to configure).
`;

export interface K3sSimCliOptions {
  readonly root: string;
  readonly nodeName: string;
  readonly version: string;
  readonly nodeIp: string;
  /** The k3s server flags as given, for the log. */
  readonly serverFlags: readonly string[];
}

export class UsageError extends Error {}

export function parseK3sSimArgs(argv: readonly string[]): K3sSimCliOptions | 'help' {
  const split = argv.indexOf('server');
  if (argv.includes('--help') || argv.includes('-h')) return 'help';
  if (split < 0) throw new UsageError('the k3s subcommand `server` is missing');
  const { values } = parseArgs({
    args: argv.slice(0, split),
    options: {
      root: { type: 'string' },
      'node-name': { type: 'string' },
      version: { type: 'string' },
    },
    strict: true,
  });
  if (values.root === undefined || values.root === '') throw new UsageError('--root is required');
  const serverFlags = argv.slice(split + 1);
  let nodeIp: string | undefined;
  for (let i = 0; i < serverFlags.length; i++) {
    const flag = serverFlags[i] ?? '';
    if (flag.startsWith('--node-ip=')) nodeIp = flag.slice('--node-ip='.length);
    else if (flag === '--node-ip') nodeIp = serverFlags[++i];
  }
  if (nodeIp === undefined || !isIPv4(nodeIp))
    throw new UsageError('server: --node-ip must be an IPv4 address');
  return {
    root: values.root,
    nodeName: values['node-name'] ?? 'agent',
    version: values.version ?? 'v0.0.0-sim',
    nodeIp,
    serverFlags,
  };
}
