import { TlsFingerprintMismatchError, UnreachableError } from './errors.js';
import type { RequestContext, UnreachableReason } from './errors.js';

const DNS = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NONAME']);
const TIMEOUT = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
const RESET = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
/** OpenSSL verification results that Node reports as the error code. */
const CERTIFICATE =
  /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT|HOSTNAME_MISMATCH)/;

/** Errors raised while connecting, i.e. before any byte of the request went out. */
const failedBeforeSend = new WeakSet<object>();

export function markFailedBeforeSend(error: Error): void {
  failedBeforeSend.add(error);
}

/** Turns whatever a socket, TLS or undici threw into the catalogue's UnreachableError. */
export function unreachableError(error: unknown, context: RequestContext): UnreachableError {
  if (error instanceof TlsFingerprintMismatchError) {
    return new TlsFingerprintMismatchError({ ...context, expected: error.expected, actual: error.actual });
  }
  const code = errorCode(error);
  const reason = reasonOf(code);
  const detail = error instanceof Error ? error.message : String(error);
  return new UnreachableError({
    ...context,
    reason,
    pveMessage: code === undefined || detail.includes(code) ? detail : `${code}: ${detail}`,
    cause: error,
    requestMayHaveBeenSent: !(typeof error === 'object' && error !== null && failedBeforeSend.has(error)),
    transient: isTransient(reason, code),
  });
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** Anything unrecognised (ECONNREFUSED, EHOSTUNREACH, …) counts as a failure to connect. */
function reasonOf(code: string | undefined): UnreachableReason {
  if (code === undefined) return 'connect';
  if (DNS.has(code)) return 'dns';
  if (TIMEOUT.has(code)) return 'timeout';
  if (RESET.has(code)) return 'reset';
  if (CERTIFICATE.test(code)) return 'tls';
  return 'connect';
}

function isTransient(reason: UnreachableReason, code: string | undefined): boolean {
  if (reason === 'tls') return false;
  // A name that does not resolve will not resolve a second later; a resolver hiccup (EAI_AGAIN) might.
  if (reason === 'dns') return code === 'EAI_AGAIN';
  return true;
}
