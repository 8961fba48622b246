import { ApiError } from '../../api-client.js';
import type { Agent } from '../../agent-view.js';
import { CliError } from '../../cli-error.js';
import { readClusterState, writeClusterState } from '../cluster-state.js';
import { K3S_BINARY } from './k3s.js';
import type { Phase, RegisterContext } from '../phase.js';

const HYPERVISOR_DRIVER = 'HYPERVISOR_DRIVER_PROXMOX';

/** `GET /v1/agents/{id}`, or undefined when the API has no such agent. */
export async function findAgent(ctx: Pick<RegisterContext, 'api'>, id: string): Promise<Agent | undefined> {
  try {
    return (await ctx.api.get<{ agent: Agent }>(`/v1/agents/${id}`)).agent;
  } catch (e: unknown) {
    if (e instanceof ApiError && e.status === 404) return undefined;
    throw e;
  }
}

async function agentNamed(ctx: RegisterContext, name: string): Promise<Agent | undefined> {
  const { agents } = await ctx.api.get<{ agents: { agent: Agent }[] }>(
    `/v1/agents?search=${encodeURIComponent(name)}&pageSize=100`,
  );
  return agents.map((a) => a.agent).find((a) => a.name === name);
}

/**
 * Phase 3: the agent record. Reused by `--agent-id` or by name (its name and IP must match this
 * register's, and one another machine has provisioned needs `--force`), created otherwise. A machine
 * whose k3s belongs to another agent's register is refused: its stack would be mixed into this one's.
 */
export const agentPhase: Phase = {
  name: 'agent',
  title: 'Agent record',
  isDone: async (ctx) => {
    const id = ctx.state.agent_id;
    if (id === undefined) return false;
    const agent = await findAgent(ctx, id);
    return agent?.name === ctx.input.name;
  },
  plan: async (ctx) => {
    const existing = ctx.input.agentId ?? (await agentNamed(ctx, ctx.input.name))?.id;
    return [
      existing === undefined
        ? { description: `POST /v1/agents {name: ${ctx.input.name}, agentPublicIp: ${ctx.input.agentIp}}` }
        : { description: `reuse agent ${existing}` },
    ];
  },
  run: async (ctx) => {
    await refuseLeftovers(ctx);
    const agent =
      ctx.input.agentId !== undefined ? await agentById(ctx, ctx.input.agentId) : await reuseOrCreate(ctx);
    ctx.state.agent_id = agent.id;
    // Kept at once: a kill from here on resumes with this agent, never a second one.
    await writeClusterState(ctx.store, ctx.state);
    ctx.say(`agent ${agent.name} (${agent.id})`);
  },
};

async function agentById(ctx: RegisterContext, id: string): Promise<Agent> {
  const agent = await findAgent(ctx, id);
  if (agent === undefined)
    throw new CliError('REGISTER_REFUSED', `There is no agent ${id} in this organization.`);
  checkReusable(ctx, agent);
  return agent;
}

async function reuseOrCreate(ctx: RegisterContext): Promise<Agent> {
  const existing = await agentNamed(ctx, ctx.input.name);
  if (existing !== undefined) {
    checkReusable(ctx, existing);
    return existing;
  }
  const { agent } = await ctx.api.post<{ agent: Agent }>('/v1/agents', {
    name: ctx.input.name,
    agentPublicIp: ctx.input.agentIp,
    gatewayRegion: ctx.input.gatewayRegion,
    hypervisorDriver: HYPERVISOR_DRIVER,
    description: `registered by nr from ${ctx.host.description}`,
  });
  return agent;
}

function checkReusable(ctx: RegisterContext, agent: Agent): void {
  if (agent.name !== ctx.input.name)
    throw new CliError(
      'REGISTER_REFUSED',
      `Agent ${agent.id} is named ${agent.name}, not ${ctx.input.name}.`,
    );
  if (agent.agentPublicIp !== ctx.input.agentIp)
    throw new CliError(
      'REGISTER_REFUSED',
      `Agent ${agent.name} has the IP ${agent.agentPublicIp}, not ${ctx.input.agentIp}: register with --agent-ip ${agent.agentPublicIp}, or under another --name.`,
    );
  const ours = ctx.state.agent_id === agent.id;
  if (agent.provisioned && !ours && !ctx.input.force)
    throw new CliError(
      'REGISTER_REFUSED',
      `Agent ${agent.name} is already provisioned (registered from another machine); pass --force to register this machine as it.`,
    );
}

/** Another agent's register left k3s on this machine: refuse, naming the remedy. */
async function refuseLeftovers(ctx: RegisterContext): Promise<void> {
  if (ctx.input.force) return;
  const k3sPresent =
    (await ctx.host.modeOf(K3S_BINARY)) !== undefined || (await ctx.host.serviceState('k3s')) !== 'not-found';
  if (!k3sPresent) return;
  for (const name of await ctx.store.clusterNames()) {
    if (name === ctx.input.name) continue;
    const other = await readClusterState(ctx.store, name);
    if (other?.agent_id !== undefined && other.agent_id !== ctx.state.agent_id)
      throw new CliError(
        'REGISTER_REFUSED',
        `k3s on ${ctx.host.description} was installed for agent ${other.agent_name} (${other.agent_id}). Remove it first: nr cluster deregister --name ${other.agent_name} --uninstall-k3s (or pass --force to reuse it).`,
      );
  }
}
