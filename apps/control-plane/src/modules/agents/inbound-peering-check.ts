import { KubeApiError, type KubeClient } from '@noderings/kube';

import type { PeeringOutcome } from './agent.repository.js';
import type { InboundKubeconfig } from './inbound-kubeconfig.js';
import { agentKubeClient, NonPublicDestinationError } from './public-destination.js';

/** How long the agent cluster has to answer; the provider waits on the upload call for this long. */
export const PEERING_CHECK_TIMEOUT_MS = 10_000;
/** A provider's API server chooses its own messages; this keeps one from filling the agent row. */
const MAX_ERROR_LENGTH = 1_000;

/** Shows that the control plane can reach the agent cluster and read its orders with this kubeconfig. */
export type InboundPeeringCheck = (
  kubeconfig: InboundKubeconfig,
  namespace: string,
) => Promise<PeeringOutcome>;

/**
 * Lists ProxmoxVMs in the operator namespace, the least the dispatcher will need. TLS is verified
 * against the kubeconfig's CA (or the system's); the kubeconfig cannot turn that off. Unless
 * `allowPrivateDestinations` (development), the server must be public: its address, or every address
 * its name resolves to, and the connection goes to the checked address.
 */
export function inboundPeeringCheck(options: {
  readonly allowPrivateDestinations: boolean;
}): InboundPeeringCheck {
  return async (kubeconfig, namespace) => {
    const signal = AbortSignal.timeout(PEERING_CHECK_TIMEOUT_MS);
    let kube: KubeClient | undefined;
    try {
      kube = agentKubeClient(kubeconfig.yaml, options);
      await kube.proxmoxVMs.list(namespace, { limit: 1, signal });
      return { state: 'INBOUND_PEERING_STATE_READY', error: '' };
    } catch (e: unknown) {
      return {
        state: 'INBOUND_PEERING_STATE_FAILED',
        error: redact(
          `listing ProxmoxVMs in ${namespace} failed: ${describe(e, kubeconfig.server)}`,
          kubeconfig.secrets,
        ).slice(0, MAX_ERROR_LENGTH),
      };
    } finally {
      await kube?.close();
    }
  };
}

/**
 * An answer from the API server (which passed TLS verification against the kubeconfig's CA) is the
 * provider's cluster talking and is told as it is. Every other failure (refused, reset, timed out, a TLS
 * or plain-HTTP server, no DNS answer) reads the same, so the upload cannot be used to map a network.
 */
function describe(e: unknown, server: string): string {
  if (e instanceof KubeApiError) {
    return `${String(e.httpStatus)} ${e.status?.reason ?? e.code}: ${e.message}`;
  }
  if (e instanceof NonPublicDestinationError || causeOf(e) instanceof NonPublicDestinationError)
    return `the control plane dials public addresses only, and ${server} is not one (or its name resolves to one that is not)`;
  return unreachableMessage(server);
}

/** What every failure to reach the API server reads as, whatever the network said. */
export function unreachableMessage(server: string): string {
  return `the control plane could not talk to a Kubernetes API server at ${server} (it waits ${String(PEERING_CHECK_TIMEOUT_MS / 1000)} s; check the address, the port, the firewall and the CA)`;
}

function causeOf(e: unknown): unknown {
  return e instanceof Error ? e.cause : undefined;
}

/** A server's message is the provider's cluster talking: it must still never echo a credential back. */
function redact(message: string, secrets: readonly string[]): string {
  return secrets.reduce((m, secret) => (secret === '' ? m : m.replaceAll(secret, '[redacted]')), message);
}
