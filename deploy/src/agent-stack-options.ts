/** The operator's own namespace: it runs there and the Proxmox credential Secrets live there (DESIGN §3.1). */
export const OPERATOR_NAMESPACE = 'proxmox-system';
export const OPERATOR_NAME = 'proxmox-operator';
export const CONTROL_PLANE_NAME = 'noderings-control-plane';
export const METRICS_PORT = 8080;

export interface AgentStackOptions {
  /** The agent's uuid; the custom resources live in `{agentId}-operator`. */
  agentId: string;
  /** The operator's container image, e.g. `registry.example/noderings/operator:1.2.3`. */
  image: string;
  /** Default 2: one leader, one standby on the `proxmox-operator` Lease. */
  replicas?: number;
}

/** The options with defaults applied, checked once. */
export interface AgentStack {
  agentId: string;
  image: string;
  replicas: number;
  watchNamespace: string;
}

export class InvalidAgentStackOptionsError extends Error {
  readonly code = 'INVALID_AGENT_STACK_OPTIONS';
}

// A namespace is a DNS label of at most 63 characters; `-operator` takes 9 of them.
const AGENT_ID = /^[a-z0-9]([-a-z0-9]{0,52}[a-z0-9])?$/;
// A reference without whitespace; the registry decides the rest.
const IMAGE = /^[^\s]+$/;

export function agentStack(options: AgentStackOptions): AgentStack {
  if (!AGENT_ID.test(options.agentId))
    throw new InvalidAgentStackOptionsError(`agentId: not usable in a namespace name: '${options.agentId}'`);
  if (!IMAGE.test(options.image))
    throw new InvalidAgentStackOptionsError(`image: not an image reference: '${options.image}'`);
  const replicas = options.replicas ?? 2;
  if (!Number.isSafeInteger(replicas) || replicas < 1)
    throw new InvalidAgentStackOptionsError(`replicas: not a positive integer: ${replicas}`);
  return {
    agentId: options.agentId,
    image: options.image,
    replicas,
    watchNamespace: `${options.agentId}-operator`,
  };
}
