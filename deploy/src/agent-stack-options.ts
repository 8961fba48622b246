/** The operator's own namespace: it runs there and the Proxmox credential Secrets live there (DESIGN §3.1). */
export const OPERATOR_NAMESPACE = 'proxmox-system';
export const OPERATOR_NAME = 'proxmox-operator';
export const CONTROL_PLANE_NAME = 'noderings-control-plane';
export const METRICS_PORT = 8080;
export const PVE_EXPORTER_NAME = 'pve-exporter';
/** prometheus-pve-exporter's port. */
export const PVE_EXPORTER_PORT = 9221;
export const ALLOY_NAME = 'alloy';
/** Alloy's own HTTP server (its UI, `/-/ready`). */
export const ALLOY_HTTP_PORT = 12345;

/** The images of the metrics path; both are needed when `metrics` is given. */
export interface AgentStackImages {
  /** e.g. `registry.example/noderings/pve-exporter:1.2.3`. */
  readonly pveExporter: string;
  /** e.g. `docker.io/grafana/alloy:v1.11.0`. */
  readonly alloy: string;
}

/** Where the agent's NR-VM metrics come from and go to (DESIGN §3.4). */
export interface AgentStackMetrics {
  /** The control plane's `…/api/v1/write`. */
  readonly remoteWriteUrl: string;
  /** `host:port` of the Proxmox API: the exporter's target and every series' `instance`. */
  readonly proxmoxEndpoint: string;
}

export interface AgentStackOptions {
  /** The agent's uuid; the custom resources live in `{agentId}-operator`. */
  agentId: string;
  /** The operator's container image, e.g. `registry.example/noderings/operator:1.2.3`. */
  image: string;
  /** Default 2: one leader, one standby on the `proxmox-operator` Lease. */
  replicas?: number;
  images?: AgentStackImages;
  /** With it, the stack also runs the pve-exporter and Alloy; without, only the operator. */
  metrics?: AgentStackMetrics;
}

/** The options with defaults applied, checked once. */
export interface AgentStack {
  agentId: string;
  image: string;
  replicas: number;
  watchNamespace: string;
  metrics?: AgentStackMetrics & { images: AgentStackImages };
}

export class InvalidAgentStackOptionsError extends Error {
  readonly code = 'INVALID_AGENT_STACK_OPTIONS';
}

// A namespace is a DNS label of at most 63 characters; `-operator` takes 9 of them.
const AGENT_ID = /^[a-z0-9]([-a-z0-9]{0,52}[a-z0-9])?$/;
// A reference without whitespace; the registry decides the rest.
const IMAGE = /^[^\s]+$/;
// A host name, IPv4 address or bracketed IPv6 address, and a port.
const ENDPOINT = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9]([-.A-Za-z0-9]*[A-Za-z0-9])?):(\d{1,5})$/;

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
    ...(options.metrics !== undefined && { metrics: metricsOf(options.metrics, options.images) }),
  };
}

function metricsOf(
  metrics: AgentStackMetrics,
  images: AgentStackImages | undefined,
): AgentStackMetrics & { images: AgentStackImages } {
  if (images === undefined)
    throw new InvalidAgentStackOptionsError('images: metrics needs images.pveExporter and images.alloy');
  for (const [name, image] of Object.entries({ pveExporter: images.pveExporter, alloy: images.alloy }))
    if (!IMAGE.test(image))
      throw new InvalidAgentStackOptionsError(`images.${name}: not an image reference: '${image}'`);
  let url: URL | undefined;
  try {
    url = new URL(metrics.remoteWriteUrl);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new InvalidAgentStackOptionsError(
      `metrics.remoteWriteUrl: not an http(s) URL: '${metrics.remoteWriteUrl}'`,
    );
  const port = Number(ENDPOINT.exec(metrics.proxmoxEndpoint)?.[3] ?? 0);
  if (port < 1 || port > 65_535)
    throw new InvalidAgentStackOptionsError(
      `metrics.proxmoxEndpoint: not host:port: '${metrics.proxmoxEndpoint}'`,
    );
  return {
    remoteWriteUrl: metrics.remoteWriteUrl,
    proxmoxEndpoint: metrics.proxmoxEndpoint,
    images: { pveExporter: images.pveExporter, alloy: images.alloy },
  };
}
