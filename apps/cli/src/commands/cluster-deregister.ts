import { renderAgentStack, toYaml } from '@noderings/deploy';

import { ApiError } from '../api-client.js';
import { booleanFlag, type Command } from '../command.js';
import { openClusterSession } from '../cluster/cluster-session.js';
import { kubectl } from '../cluster/kubectl.js';
import { K3S_BINARY, K3S_DATA, K3S_SERVICE } from '../cluster/phases/k3s.js';
import { runChecked } from '../host/host.js';

async function deleteIgnoringMissing(call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
  } catch (e: unknown) {
    if (!(e instanceof ApiError && e.status === 404)) throw e;
  }
}

export const clusterDeregister: Command = {
  path: ['cluster', 'deregister'],
  summary:
    'removes the agent record, its platform and nodes, the stack and the local state (with --uninstall-k3s, k3s too)',
  synopsis: '[--name NAME] [--yes] [--uninstall-k3s]',
  options: {
    name: { type: 'string' },
    yes: { type: 'boolean', short: 'y' },
    'uninstall-k3s': { type: 'boolean' },
  },
  args: [],
  run: async (ctx) => {
    const { host, api, state } = await openClusterSession(ctx);
    const uninstall = booleanFlag(ctx.flags, 'uninstall-k3s');
    await ctx.out.confirm(
      `Deregister ${state.agent_name}${state.agent_id === undefined ? '' : ` (agent ${state.agent_id})`}: delete the agent record, its stack${uninstall ? ' and k3s' : ''} on ${host.description}?`,
      booleanFlag(ctx.flags, 'yes'),
    );
    const removed: string[] = [];
    if (state.platform_id !== undefined) {
      const platformId = state.platform_id;
      const { nodes } = await api
        .get<{ nodes: { node: { id: string } }[] }>(`/v1/nodes?platformId=${platformId}&pageSize=100`)
        .catch(() => ({ nodes: [] }));
      for (const { node } of nodes) await deleteIgnoringMissing(() => api.delete(`/v1/node/${node.id}`));
      await deleteIgnoringMissing(() => api.delete(`/v1/platform/${platformId}`));
      removed.push(`platform ${platformId} and its ${String(nodes.length)} nodes`);
    }
    if (state.agent_id !== undefined) {
      const agentId = state.agent_id;
      await deleteIgnoringMissing(() => api.delete(`/v1/agents/${agentId}`));
      removed.push(`agent ${agentId}`);
    }
    const k3sRuns = (await host.serviceState(K3S_SERVICE)) === 'active';
    if (k3sRuns && !uninstall && state.agent_id !== undefined) {
      // Exactly what register applied: its namespaces (with the Secrets and custom resources in them),
      // CRDs and RBAC. The image does not matter to a delete.
      const stack = renderAgentStack({ agentId: state.agent_id, image: 'deleted' });
      await runChecked(
        host,
        kubectl(['delete', '-f', '-', '--ignore-not-found', '--wait=true'], toYaml(stack)),
      );
      removed.push(`the stack (${String(stack.length)} objects)`);
    }
    if (uninstall) {
      await host.removeService(K3S_SERVICE);
      await host.remove(K3S_BINARY);
      for (const path of K3S_DATA) await host.remove(path);
      removed.push('k3s');
    }
    await ctx.store.deleteCluster(state.agent_name);
    removed.push('the local state');
    ctx.out.result(
      { agent_id: state.agent_id ?? null, removed },
      () => `Deregistered ${state.agent_name}: removed ${removed.join(', ')}.\n`,
    );
  },
};
