import { isIPv4 } from 'node:net';

import { usageError } from '../cli-error.js';
import { stringFlag, type CommandContext } from '../command.js';
import type { Host } from '../host/host.js';
import { LocalHost } from '../host/local-host.js';
import { SimulatedHost } from '../host/simulated-host.js';
import { readClusterState, type ClusterState } from './cluster-state.js';

const NAME = /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/;

/**
 * The machine cluster commands act on: this one, or with `NR_SIMULATED_HOST=DIR` the simulated host in
 * DIR (tests and the sandbox; it needs a checkout of NodeRings).
 */
export function hostOf(env: CommandContext['io']['env']): Host {
  const simulated = env.NR_SIMULATED_HOST;
  return simulated !== undefined && simulated !== '' ? new SimulatedHost(simulated) : new LocalHost();
}

export function checkClusterName(name: string): string {
  if (!NAME.test(name))
    throw usageError(`--name must be a DNS label (lowercase letters, digits, -), not "${name}"`);
  return name;
}

export function checkAgentIp(ip: string): string {
  if (!isIPv4(ip)) throw usageError(`--agent-ip must be an IPv4 address, not "${ip}"`);
  return ip;
}

/** The cluster a command is about: `--name`, else the only one registered from this config folder. */
export async function targetCluster(ctx: CommandContext): Promise<ClusterState> {
  const given = stringFlag(ctx.flags, 'name');
  const names = given === undefined ? await ctx.store.clusterNames() : [checkClusterName(given)];
  if (names.length !== 1)
    throw usageError(
      names.length === 0
        ? 'no cluster has been registered from this machine (nr cluster register)'
        : `several clusters are registered from this machine: pass --name (${names.join(', ')})`,
    );
  const name = names[0] ?? '';
  const state = await readClusterState(ctx.store, name);
  if (state === undefined) throw usageError(`no cluster named ${name} has been registered from this machine`);
  return state;
}
