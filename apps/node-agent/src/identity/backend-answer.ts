import { AGENT_TYPES, type EnrollResponse, type NatsCredentials } from '@noderings/fleet';

const MAX_MESSAGE_CHARS = 300;

/** The control plane's `{ code, message }` error text, or the start of whatever else it answered. */
export function backendMessage(body: string): string {
  let text = body;
  try {
    const value: unknown = JSON.parse(body);
    if (isRecord(value) && typeof value.message === 'string') text = value.message;
  } catch {
    // Not JSON: the body itself says what happened.
  }
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > MAX_MESSAGE_CHARS ? `${line.slice(0, MAX_MESSAGE_CHARS)}…` : line;
}

/** The fleet's own error code (`identity_in_use`, `identity_released`, …), else the API's, if any. */
export function backendErrorCode(body: string): string | undefined {
  const value = jsonOf(body);
  if (!isRecord(value)) return undefined;
  if (isRecord(value.error) && typeof value.error.code === 'string') return value.error.code;
  return typeof value.code === 'string' ? value.code : undefined;
}

/** NATS credentials as the control plane sends them, or undefined for anything else. */
export function parseNatsCredentials(value: unknown): NatsCredentials | undefined {
  if (!isRecord(value)) return undefined;
  const { servers, jwt, inboxPrefix, expiresAt } = value;
  if (!Array.isArray(servers) || !servers.every((s): s is string => typeof s === 'string')) return undefined;
  if (typeof jwt !== 'string' || jwt === '' || typeof inboxPrefix !== 'string' || inboxPrefix === '')
    return undefined;
  if (typeof expiresAt !== 'string' || Number.isNaN(Date.parse(expiresAt))) return undefined;
  return { servers, jwt, inboxPrefix, expiresAt };
}

/** An enrollment answer, or undefined when it lacks something the agent needs. */
export function parseEnrollResponse(value: unknown): EnrollResponse | undefined {
  if (!isRecord(value)) return undefined;
  const nats = parseNatsCredentials(value.nats);
  const agentType = AGENT_TYPES.find((t) => t === value.agentType);
  const { agentId, environmentId, name, heartbeatIntervalSeconds, rebound } = value;
  if (nats === undefined || agentType === undefined) return undefined;
  if (
    typeof agentId !== 'string' ||
    agentId === '' ||
    typeof environmentId !== 'string' ||
    environmentId === ''
  )
    return undefined;
  if (typeof name !== 'string' || name === '') return undefined;
  if (typeof heartbeatIntervalSeconds !== 'number' || !Number.isInteger(heartbeatIntervalSeconds))
    return undefined;
  if (heartbeatIntervalSeconds < 1) return undefined;
  return {
    agentId,
    environmentId,
    agentType,
    name,
    rebound: rebound === true,
    heartbeatIntervalSeconds,
    nats,
  };
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a JSON body, undefined when it is not JSON. */
export function jsonOf(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
