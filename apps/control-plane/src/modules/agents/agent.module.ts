import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { AgentRepository } from './agent.repository.js';
import { agentRoutes } from './agent.routes.js';
import { AgentService } from './agent.service.js';
import { AgentTokenRepository } from './agent-token.repository.js';
import { inboundPeeringCheck } from './inbound-peering-check.js';

export interface AgentModuleDeps extends ModuleContext {
  /** Where the agent install command fetches the installer from. */
  readonly installScriptUrl: string;
  /** The API server agent clusters peer with, written into their peering kubeconfig. */
  readonly peeringApiServerUrl: string;
  /** Development only: private addresses are taken where public ones are required. */
  readonly allowPrivateDestinations: boolean;
}

/** Providers' agent clusters: install tokens, peering, and the inbound kubeconfig other modules dial. */
export async function registerAgentModule(
  app: FastifyInstance,
  deps: AgentModuleDeps,
): Promise<{ readonly agents: AgentService; readonly agentRecords: AgentRepository }> {
  const agentRecords = new AgentRepository(deps.db);
  const agents = new AgentService({
    agents: agentRecords,
    tokens: new AgentTokenRepository(deps.db),
    secretBox: deps.secretBox,
    checkPeering: inboundPeeringCheck({ allowPrivateDestinations: deps.allowPrivateDestinations }),
    now: deps.now,
    installScriptUrl: deps.installScriptUrl,
    peeringApiServerUrl: deps.peeringApiServerUrl,
    allowPrivateDestinations: deps.allowPrivateDestinations,
  });
  await app.register(agentRoutes, { agents });
  return { agents, agentRecords };
}
