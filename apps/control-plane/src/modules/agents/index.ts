export { operatorNamespace } from './agent.js';
export { AgentRepository } from './agent.repository.js';
export { agentRoutes } from './agent.routes.js';
export { serviceStatus } from './agent.schemas.js';
export { AgentService } from './agent.service.js';
export { AgentTokenRepository } from './agent-token.repository.js';
export { inboundPeeringCheck } from './inbound-peering-check.js';
export { agentKubeClient } from './public-destination.js';
