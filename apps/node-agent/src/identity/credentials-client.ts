import { type NatsCredentials, credentialsPath, signCredentialsRequest } from '@noderings/fleet';

import {
  backendErrorCode,
  backendMessage,
  isRecord,
  jsonOf,
  parseNatsCredentials,
} from './backend-answer.js';
import { causeOf } from './enrollment-client.js';

const REQUEST_TIMEOUT_MS = 30_000;

export type CredentialsOutcome =
  | { readonly kind: 'issued'; readonly nats: NatsCredentials }
  /** 410: the identity was released or re-bound to another agent; this one must stop publishing. */
  | { readonly kind: 'gone'; readonly message: string; readonly code: string | undefined }
  | { readonly kind: 'retry'; readonly reason: string };

/** Fresh NATS credentials for an enrolled agent, the request signed with its nkey. Never throws. */
export async function requestCredentials(
  backendUrl: string,
  identity: { readonly agentId: string; readonly nkeySeed: string },
  now: Date,
  signal?: AbortSignal,
): Promise<CredentialsOutcome> {
  const url = `${backendUrl}${credentialsPath(identity.agentId)}`;
  let response: Response;
  let body: string;
  try {
    const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
    const authorization = signCredentialsRequest(
      identity.nkeySeed,
      identity.agentId,
      Math.floor(now.getTime() / 1000),
    );
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization },
      signal: signal === undefined ? timeout : AbortSignal.any([signal, timeout]),
    });
    body = await response.text();
  } catch (e: unknown) {
    return { kind: 'retry', reason: `no answer from ${url}: ${causeOf(e)}` };
  }
  if (response.status === 410)
    return { kind: 'gone', message: backendMessage(body), code: backendErrorCode(body) };
  if (response.status !== 200 && response.status !== 201) {
    return {
      kind: 'retry',
      reason: `the control plane answered ${response.status}: ${backendMessage(body)}`,
    };
  }
  const value = jsonOf(body);
  const nats = isRecord(value) ? parseNatsCredentials(value.nats) : undefined;
  return nats === undefined
    ? { kind: 'retry', reason: 'the credentials answer lacks what the agent needs' }
    : { kind: 'issued', nats };
}
