import { KubeApiError, KubeClient } from '@noderings/kube';

import type { PeeringOutcome } from './agent.repository.js';
import type { InboundKubeconfig } from './inbound-kubeconfig.js';

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
 * against the kubeconfig's CA (or the system's); the kubeconfig cannot turn that off.
 */
export const checkInboundPeering: InboundPeeringCheck = async (kubeconfig, namespace) => {
  const signal = AbortSignal.timeout(PEERING_CHECK_TIMEOUT_MS);
  let kube: KubeClient | undefined;
  try {
    kube = new KubeClient({ kubeconfigYaml: kubeconfig.yaml });
    await kube.proxmoxVMs.list(namespace, { limit: 1, signal });
    return { state: 'INBOUND_PEERING_STATE_READY', error: '' };
  } catch (e: unknown) {
    // undici's own connect timeout (10 s, TLS handshake included) can fire just before ours: the same silence.
    const reason =
      signal.aborted || causeCode(e) === 'UND_ERR_CONNECT_TIMEOUT'
        ? `no answer from ${kubeconfig.server} within ${String(PEERING_CHECK_TIMEOUT_MS / 1000)} s`
        : describe(e);
    return {
      state: 'INBOUND_PEERING_STATE_FAILED',
      error: redact(`listing ProxmoxVMs in ${namespace} failed: ${reason}`, kubeconfig.secrets).slice(
        0,
        MAX_ERROR_LENGTH,
      ),
    };
  } finally {
    await kube?.close();
  }
};

function causeCode(e: unknown): string | undefined {
  const cause: unknown = e instanceof Error ? e.cause : undefined;
  const code: unknown = cause instanceof Error ? (cause as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function describe(e: unknown): string {
  if (e instanceof KubeApiError) {
    return `${String(e.httpStatus)} ${e.status?.reason ?? e.code}: ${e.message}`;
  }
  if (!(e instanceof Error)) return String(e);
  // fetch reports every network failure as "fetch failed"; what happened is in the cause.
  const cause: unknown = e.cause;
  if (cause instanceof Error) {
    const code = causeCode(e);
    return `${e.message}: ${code === undefined ? '' : `${code} `}${cause.message}`;
  }
  return e.message;
}

/** A server's message is the provider's cluster talking: it must still never echo a credential back. */
function redact(message: string, secrets: readonly string[]): string {
  return secrets.reduce((m, secret) => (secret === '' ? m : m.replaceAll(secret, '[redacted]')), message);
}
