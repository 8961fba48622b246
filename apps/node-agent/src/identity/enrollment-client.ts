import { ENROLL_PATH, type EnrollRequest, type EnrollResponse } from '@noderings/fleet';

import { backendErrorCode, backendMessage, jsonOf, parseEnrollResponse } from './backend-answer.js';

const REQUEST_TIMEOUT_MS = 30_000;

/** What one enrollment attempt came to. */
export type EnrollOutcome =
  | { readonly kind: 'enrolled'; readonly response: EnrollResponse }
  /** 409: the name is held by another key; retried while the process stays up. */
  | { readonly kind: 'conflict'; readonly message: string; readonly code: string | undefined }
  /** No answer, a 5xx, 429 or an answer the agent cannot read: retried with backoff. */
  | { readonly kind: 'retry'; readonly reason: string; readonly retryAfterMs?: number }
  /** The control plane refused for good (400, 401, 403, 404): the agent stops. */
  | { readonly kind: 'rejected'; readonly message: string };

/** `POST <backend>/api/v1/fleet/agents/enroll` with the install token. Never throws. */
export async function requestEnrollment(
  backendUrl: string,
  installToken: string,
  request: EnrollRequest,
  signal?: AbortSignal,
): Promise<EnrollOutcome> {
  const url = `${backendUrl}${ENROLL_PATH}`;
  let response: Response;
  let body: string;
  try {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${installToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(request),
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    body = await response.text();
  } catch (e: unknown) {
    return { kind: 'retry', reason: `no answer from ${url}: ${causeOf(e)}` };
  }
  const status = response.status;
  if (status === 200 || status === 201) {
    const enrolled = parseEnrollResponse(jsonOf(body));
    return enrolled === undefined
      ? { kind: 'retry', reason: `the enrollment answer (${status}) lacks what the agent needs` }
      : { kind: 'enrolled', response: enrolled };
  }
  const message = backendMessage(body);
  if (status === 409) return { kind: 'conflict', message, code: backendErrorCode(body) };
  if (status === 401 || status === 403) {
    return {
      kind: 'rejected',
      message: `the control plane refused the install token (${status}): it is invalid, expired or revoked; create a new one in the console and set PROXIMA_INSTALL_TOKEN (${message})`,
    };
  }
  if (status === 400 || status === 422) {
    return {
      kind: 'rejected',
      message: `the control plane refused the enrollment request (${status}): ${message}`,
    };
  }
  if (status === 404) {
    return {
      kind: 'rejected',
      message: `${url} does not exist (404): check PROXIMA_BACKEND_URL (${message})`,
    };
  }
  const retryAfter = Number(response.headers.get('retry-after'));
  return {
    kind: 'retry',
    reason: `the control plane answered ${status}: ${message}`,
    ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfterMs: retryAfter * 1000 } : {}),
  };
}

/** fetch's "fetch failed" hides the reason (refused, reset, DNS) in its cause. */
export function causeOf(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  if (e.name === 'TimeoutError') return 'timed out';
  const cause: unknown = e.cause;
  return cause instanceof Error ? `${e.message} (${cause.message})` : e.message;
}
