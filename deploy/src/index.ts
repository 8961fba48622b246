export type { AgentStackImages, AgentStackMetrics, AgentStackOptions } from './agent-stack-options.js';
export {
  ALLOY_NAME,
  CONTROL_PLANE_NAME,
  InvalidAgentStackOptionsError,
  OPERATOR_NAME,
  OPERATOR_NAMESPACE,
  PVE_EXPORTER_NAME,
} from './agent-stack-options.js';
export { renderAgentStack } from './agent-stack.js';
export { toYaml } from './manifest-yaml.js';
export type { AlloyForwardingOptions, MetricsForwardingOptions } from './metrics-forwarding-config.js';
export { renderAlloyConfig, renderPrometheusConfig } from './metrics-forwarding-config.js';
export {
  METRICS_WRITE_CREDENTIAL_KEY,
  METRICS_WRITE_CREDENTIAL_SECRET,
  metricsWriteCredentialSecret,
  PVE_EXPORTER_CONFIG_KEY,
  PVE_EXPORTER_CONFIG_SECRET,
  pveExporterConfigSecret,
  type PveExporterCredential,
} from './metrics-secrets.js';
export type { NodeAgentManifestOptions } from './node-agent-manifests.js';
export {
  INSTALL_TOKEN_SECRET,
  InvalidNodeAgentOptionsError,
  NODE_AGENT_NAME,
  renderNodeAgent,
} from './node-agent-manifests.js';
