import { KubeApiError } from '@noderings/kube';

/** A provider's API server chooses its own messages; this keeps one from filling the VM row. */
const MAX_REASON_LENGTH = 500;

/** The previous ProxmoxVM of the same name is still being deleted: the order waits until it is gone. */
export class StillDeletingError extends Error {
  override readonly name = 'StillDeletingError';
}

/** The VM's sealed cloud-init does not open or is not the order flow's JSON: retrying cannot fix it alone. */
export class CloudInitUnreadableError extends Error {
  override readonly name = 'CloudInitUnreadableError';
}

/** A resource of a VM (snapshot, console) waits for the VM's ProxmoxVM, which it refers to. */
export class VmNotInClusterError extends Error {
  override readonly name = 'VmNotInClusterError';
}

/**
 * The short reason the API shows while a VM waits (`dispatch_error`). The cluster's own words are kept
 * (Status reason and message, or the network error), never a credential of the kubeconfig.
 */
export function describeFailure(
  error: unknown,
  context: { timedOut: boolean; timeoutMs: number; secrets: readonly string[] },
): string {
  let reason: string;
  if (context.timedOut) {
    reason = `waiting for agent cluster: no answer within ${String(context.timeoutMs / 1000)} s`;
  } else if (error instanceof KubeApiError) {
    reason = `agent cluster answered ${String(error.httpStatus)} ${error.status?.reason ?? error.code}: ${error.message}`;
  } else if (
    error instanceof StillDeletingError ||
    error instanceof CloudInitUnreadableError ||
    error instanceof VmNotInClusterError
  ) {
    reason = error.message;
  } else {
    reason = `waiting for agent cluster: ${networkReason(error)}`;
  }
  return redact(reason, context.secrets).slice(0, MAX_REASON_LENGTH);
}

/** An error in a log line: the cluster's Status or the network's cause, credentials redacted. */
export function describeError(error: unknown, secrets: readonly string[]): string {
  const text =
    error instanceof KubeApiError
      ? `${String(error.httpStatus)} ${error.status?.reason ?? error.code}: ${error.message}`
      : networkReason(error);
  return redact(text, secrets).slice(0, MAX_REASON_LENGTH);
}

function networkReason(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  // fetch reports every network failure as "fetch failed"; what happened is in the cause.
  const cause: unknown = e.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    const message = cause.message;
    return typeof code === 'string' && !message.includes(code) ? `${code} ${message}` : message;
  }
  return e.message;
}

function redact(message: string, secrets: readonly string[]): string {
  return secrets.reduce((m, secret) => (secret === '' ? m : m.replaceAll(secret, '[redacted]')), message);
}
