import { OPERATOR_NAME } from '@noderings/deploy';

import { CliError } from '../cli-error.js';
import type { Command } from '../command.js';
import { openClusterSession } from '../cluster/cluster-session.js';
import {
  type NodeList,
  getJson,
  kubectl,
  readyCount,
  readyNodes,
  stackDeployment,
} from '../cluster/kubectl.js';
import { calicoReadiness } from '../cluster/phases/calico.js';
import { findAgent } from '../cluster/phases/agent.js';
import { K3S_SERVICE } from '../cluster/phases/k3s.js';
import { renderTable } from '../output.js';

/** One line of `nr cluster health -o json`. */
interface ComponentHealth {
  readonly component: string;
  readonly status: 'healthy' | 'degraded' | 'unhealthy';
  readonly message: string;
}

export const clusterHealth: Command = {
  path: ['cluster', 'health'],
  summary:
    'the health of each component (k3s, API, node, Calico, operator, peering); exits 1 when one is unhealthy',
  synopsis: '[--name NAME]',
  options: { name: { type: 'string' } },
  args: [],
  run: async (ctx) => {
    const { host, api, state } = await openClusterSession(ctx);
    const health: ComponentHealth[] = [];
    const add = (component: string, status: ComponentHealth['status'], message: string) =>
      health.push({ component, status, message });
    const service = await host.serviceState(K3S_SERVICE);
    add('k3s', service === 'active' ? 'healthy' : 'unhealthy', `k3s.service is ${service}`);
    const version = await host.run(kubectl(['version', '-o', 'json']));
    add(
      'kubernetes-api',
      version.exitCode === 0 ? 'healthy' : 'unhealthy',
      version.exitCode === 0 ? 'answers' : version.stderr.trim(),
    );
    if (version.exitCode === 0) {
      const nodes = readyNodes(await getJson<NodeList>(host, ['nodes']));
      add(
        'node',
        nodes.length > 0 ? 'healthy' : 'unhealthy',
        nodes.length > 0 ? `Ready: ${nodes.join(', ')}` : 'no Ready node',
      );
      const calico = await calicoReadiness({ host });
      add(
        'calico',
        calico.nodes > 0 && calico.ready >= calico.nodes ? 'healthy' : 'unhealthy',
        `calico-node ready on ${String(calico.ready)} of ${String(calico.nodes)} nodes`,
      );
      if (!state.register_scope.skip_operator_install) {
        const operator = await stackDeployment(host, OPERATOR_NAME);
        const available = readyCount(operator);
        const desired = operator?.spec?.replicas ?? 1;
        add(
          'operator',
          available < 1 ? 'unhealthy' : available < desired ? 'degraded' : 'healthy',
          operator === undefined
            ? 'not installed'
            : `${String(available)} of ${String(desired)} replicas available`,
        );
      }
    }
    if (state.agent_id !== undefined) {
      const agent = await findAgent({ api }, state.agent_id);
      add(
        'inbound-peering',
        agent?.inboundPeeringState === 'INBOUND_PEERING_STATE_READY' ? 'healthy' : 'unhealthy',
        agent === undefined ? 'the API has no such agent' : agent.inboundPeeringState,
      );
    }
    ctx.out.result(health, () =>
      renderTable(
        ['COMPONENT', 'STATUS', 'MESSAGE'],
        health.map((h) => [h.component, h.status, h.message]),
      ),
    );
    if (health.some((h) => h.status === 'unhealthy'))
      throw new CliError('CHECK_FAILED', 'health: a component is unhealthy.');
  },
};
