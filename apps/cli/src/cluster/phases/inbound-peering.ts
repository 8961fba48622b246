import { CONTROL_PLANE_NAME } from '@noderings/deploy';
import { parse } from 'yaml';

import type { Agent } from '../../agent-view.js';
import { CliError } from '../../cli-error.js';
import { runChecked, type Host } from '../../host/host.js';
import { kubectl } from '../kubectl.js';
import type { Phase, RegisterContext } from '../phase.js';
import { agentIdOf, waitFor } from '../phase.js';
import { findAgent } from './agent.js';
import { K3S_KUBECONFIG } from './k3s.js';

const READY_STATES = new Set(['INBOUND_PEERING_STATE_READY', 'READY']);
/** A year: the control plane's access lasts until deregister deletes the service account. */
const TOKEN_DURATION = '8760h';
const READY_TIMEOUT_MS = 15 * 60_000;
const POLL_MS = 2000;

function peered(agent: Agent | undefined): boolean {
  return agent !== undefined && READY_STATES.has(agent.inboundPeeringState);
}

/** Where the control plane reaches this cluster's API: `--api-server-url`, else the agent IP on k3s' port. */
async function apiServerOf(
  host: Host,
  agentIp: string,
  override: string | undefined,
): Promise<{ server: string; ca: string }> {
  const text = await host.readFile(K3S_KUBECONFIG);
  if (text === undefined)
    throw new CliError('PHASE_FAILED', `${K3S_KUBECONFIG} is missing: is k3s installed?`);
  const config = parse(text) as {
    clusters?: { cluster?: { server?: string; 'certificate-authority-data'?: string } }[];
  };
  const cluster = config.clusters?.[0]?.cluster;
  const local = new URL(cluster?.server ?? 'https://127.0.0.1:6443');
  const server = override ?? `https://${host.publishedAddress(agentIp)}:${local.port || '443'}`;
  return { server, ca: cluster?.['certificate-authority-data'] ?? '' };
}

/**
 * The kubeconfig the control plane gets: the `noderings-control-plane` service account of the agent's
 * namespace (least privilege: our resources and cloud-init Secrets there, nothing else; ADR 0006).
 */
async function controlPlaneKubeconfig(ctx: RegisterContext): Promise<string> {
  const agentId = agentIdOf(ctx);
  const namespace = `${agentId}-operator`;
  const token = (
    await runChecked(
      ctx.host,
      kubectl(['create', 'token', CONTROL_PLANE_NAME, '-n', namespace, `--duration=${TOKEN_DURATION}`]),
    )
  ).trim();
  const { server, ca } = await apiServerOf(
    ctx.host,
    ctx.input.agentIp,
    ctx.input.apiServerUrl ?? ctx.state.register_scope.api_server_url,
  );
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'agent-cluster', cluster: { server, 'certificate-authority-data': ca } }],
    users: [{ name: CONTROL_PLANE_NAME, user: { token } }],
    contexts: [{ name: 'agent', context: { cluster: 'agent-cluster', user: CONTROL_PLANE_NAME, namespace } }],
    'current-context': 'agent',
  });
}

/** Phase 7: the control plane's kubeconfig uploaded, and its peering READY. */
export const inboundPeeringPhase: Phase = {
  name: 'inbound_peering',
  title: 'Inbound peering',
  isDone: async (ctx) => ctx.state.agent_id !== undefined && peered(await findAgent(ctx, ctx.state.agent_id)),
  plan: (ctx) =>
    Promise.resolve([
      {
        description: `create a token for ${CONTROL_PLANE_NAME}`,
        command: kubectl([
          'create',
          'token',
          CONTROL_PLANE_NAME,
          '-n',
          `${ctx.state.agent_id ?? '<agent>'}-operator`,
        ]),
      },
      {
        description: `POST /v1/agents/${ctx.state.agent_id ?? '<agent>'}:uploadInboundPeeringConfig, wait for READY`,
      },
    ]),
  run: async (ctx) => {
    const agentId = agentIdOf(ctx);
    const kubeconfig = await controlPlaneKubeconfig(ctx);
    await ctx.api.post(`/v1/agents/${agentId}:uploadInboundPeeringConfig`, { kubeconfig });
    const agent = await waitFor(
      ctx,
      'the inbound peering to be READY',
      READY_TIMEOUT_MS,
      async () => {
        const current = await findAgent(ctx, agentId);
        if (current?.inboundPeeringState.includes('FAILED') === true)
          throw new CliError(
            'PHASE_FAILED',
            `The control plane could not use the cluster: ${current.inboundPeeringError || current.inboundPeeringState}`,
          );
        return peered(current) ? current : undefined;
      },
      POLL_MS,
    );
    ctx.say(`inbound peering ${agent.inboundPeeringState}`);
  },
};
