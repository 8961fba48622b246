/**
 * The Kubernetes node agent (DaemonSet) and host agent runtime: configuration, identity and enrollment,
 * kubelet collection, log tailing, heartbeats, publishing over NATS JetStream.
 */
export { startNodeAgent, DAEMONSET_MODE_LINE } from './agent.js';
export type { AgentTiming, NodeAgent, NodeAgentOptions } from './agent.js';
export { loadAgentConfig, USAGE } from './config.js';
export type { AgentConfig, KubeletConfig, NodeAgentType } from './config.js';
export { runAgentCommand } from './agent-command.js';
export type { CommandIo } from './agent-command.js';
export { AgentError, exitCodeOf } from './agent-error.js';
export type { AgentErrorCode } from './agent-error.js';
