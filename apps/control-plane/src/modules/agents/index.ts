export { operatorNamespace } from './agent.js';
export { AgentRepository } from './agent.repository.js';
export { serviceStatus } from './agent.schemas.js';
export { AgentService } from './agent.service.js';
export { agentKubeClient } from './public-destination.js';
export { registerAgentModule } from './agent.module.js';
