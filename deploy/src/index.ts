export type { AgentStackOptions } from './agent-stack-options.js';
export {
  CONTROL_PLANE_NAME,
  InvalidAgentStackOptionsError,
  OPERATOR_NAME,
  OPERATOR_NAMESPACE,
} from './agent-stack-options.js';
export { renderAgentStack } from './agent-stack.js';
export { toYaml } from './manifest-yaml.js';
export type { MetricsForwardingOptions } from './metrics-forwarding-config.js';
export { renderAlloyConfig, renderPrometheusConfig } from './metrics-forwarding-config.js';
export type { NodeAgentManifestOptions } from './node-agent-manifests.js';
export {
  INSTALL_TOKEN_SECRET,
  InvalidNodeAgentOptionsError,
  NODE_AGENT_NAME,
  renderNodeAgent,
} from './node-agent-manifests.js';
