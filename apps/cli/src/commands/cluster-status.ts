import { renderFields, renderTable } from '../output.js';
import type { Command } from '../command.js';
import { checkpointOf, PHASE_NAMES } from '../cluster/cluster-state.js';
import { openClusterSession } from '../cluster/cluster-session.js';
import { kubectl, readyCount, stackDeployment } from '../cluster/kubectl.js';
import { calicoReadiness } from '../cluster/phases/calico.js';
import { findAgent } from '../cluster/phases/agent.js';
import { K3S_BINARY, K3S_SERVICE } from '../cluster/phases/k3s.js';
import { SEED_PHASES, SEED_PHASES_NOT_RUN } from '../cluster/register-phases.js';
import { OPERATOR_NAME } from '@noderings/deploy';

export const clusterStatus: Command = {
  path: ['cluster', 'status'],
  summary: "where the cluster's register got to, phase by phase, and what runs",
  synopsis: '[--name NAME]',
  options: { name: { type: 'string' } },
  args: [],
  run: async (ctx) => {
    const { host, api, state } = await openClusterSession(ctx);
    const apiAnswers = (await host.run(kubectl(['version', '-o', 'json']))).exitCode === 0;
    const agent =
      state.agent_id === undefined
        ? undefined
        : await findAgent({ api }, state.agent_id).catch(() => undefined);
    const calico = apiAnswers ? await calicoReadiness({ host }) : { ready: 0, nodes: 0 };
    const operator = apiAnswers ? await stackDeployment(host, OPERATOR_NAME) : undefined;
    const status = {
      phase: state.phase,
      agent_id: state.agent_id ?? null,
      agent_name: state.agent_name,
      api_reachable: agent !== undefined,
      k3s_installed: (await host.modeOf(K3S_BINARY)) !== undefined,
      k3s_service: await host.serviceState(K3S_SERVICE),
      calico_ok: calico.nodes > 0 && calico.ready >= calico.nodes,
      operator_ok: readyCount(operator) >= 1,
      peering_summary: agent?.inboundPeeringState ?? 'unknown',
      last_error: state.last_error ?? null,
      phases: PHASE_NAMES.map((name) => {
        const checkpoint = checkpointOf(state, name);
        return {
          name,
          seed_phases: SEED_PHASES[name],
          status: checkpoint?.status ?? 'pending',
          duration_ms: checkpoint?.duration_ms ?? null,
        };
      }),
      seed_phases_not_run: SEED_PHASES_NOT_RUN,
    };
    ctx.out.result(status, () =>
      [
        renderFields([
          ['Cluster', state.agent_name],
          ['Agent', state.agent_id ?? '-'],
          ['Phase', state.phase],
          ['k3s', `${status.k3s_installed ? 'installed' : 'not installed'}, service ${status.k3s_service}`],
          ['Calico', status.calico_ok ? 'ready' : 'not ready'],
          ['Operator', status.operator_ok ? 'available' : 'not available'],
          ['Inbound peering', status.peering_summary],
          ...(state.last_error === undefined
            ? []
            : ([['Last error', `${state.last_error.phase}: ${state.last_error.error}`]] as const)),
        ]),
        '\n',
        renderTable(
          ['PHASE', 'SEED 001 PHASES', 'STATUS', 'TIME'],
          status.phases.map((p) => [
            p.name,
            p.seed_phases.join(', ') || '-',
            p.status,
            p.duration_ms === null ? '-' : `${(p.duration_ms / 1000).toFixed(1)} s`,
          ]),
        ),
        `Seed 001 phases nr has no counterpart for: ${SEED_PHASES_NOT_RUN.join(', ')} (ADR 0029).\n`,
      ].join(''),
    );
  },
};
