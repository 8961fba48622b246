import { fromPublic, fromSeed } from '@nats-io/nkeys';
import { z } from 'zod';

import { AGENT_TYPES } from './messages.js';
import { isUserPublicKey } from './subjects.js';

/**
 * The HTTP side of the fleet contract: enrollment with an install token, and fresh NATS credentials for
 * an enrolled agent, which proves who it is by signing with the nkey whose public key it enrolled.
 */

export const ENROLL_PATH = '/api/v1/fleet/agents/enroll';
export const credentialsPath = (agentId: string): string =>
  `/api/v1/fleet/agents/${encodeURIComponent(agentId)}/nats-credentials`;

/** What the host tells about itself; each is a hint (clones share them), used only to re-bind a name. */
export const hostSignalsSchema = z.strictObject({
  /** `/etc/machine-id`: 32 lowercase hex digits. */
  machineId: z
    .string()
    .regex(/^[0-9a-f]{32}$/)
    .optional(),
  /** DMI `product_uuid`. */
  systemUuid: z
    .string()
    .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/)
    .optional(),
});
export type HostSignals = z.infer<typeof hostSignalsSchema>;

export const enrollRequestSchema = z.strictObject({
  agentType: z.enum(AGENT_TYPES),
  /** The node or host name the agent enrolls as; unique per (environment, agent type). */
  name: z
    .string()
    .min(1)
    .max(253)
    .regex(/^[a-zA-Z0-9]([a-zA-Z0-9._-]*[a-zA-Z0-9])?$/, 'a host name (letters, digits, dots, dashes)'),
  version: z.string().min(1).max(64),
  /** The agent's nkey public key (`U…`); the seed never leaves the agent. */
  publicKey: z.string().refine(isUserPublicKey, 'an nkey user public key (U followed by 55 characters)'),
  hostSignals: hostSignalsSchema.default({}),
});
export type EnrollRequest = z.infer<typeof enrollRequestSchema>;

export interface NatsCredentials {
  /** NATS URLs to connect to. */
  readonly servers: readonly string[];
  /** A user JWT for the agent's key, allowing it to publish under its own subjects only. */
  readonly jwt: string;
  /** The reply-inbox prefix the JWT lets the agent subscribe to. */
  readonly inboxPrefix: string;
  readonly expiresAt: string;
}

export interface EnrollResponse {
  readonly agentId: string;
  readonly environmentId: string;
  readonly agentType: (typeof AGENT_TYPES)[number];
  readonly name: string;
  /** True when this enrollment took over a quiet record of the same name on the same host. */
  readonly rebound: boolean;
  readonly heartbeatIntervalSeconds: number;
  readonly nats: NatsCredentials;
}

/** The scheme of the credentials request's `Authorization` header. */
const NKEY_SCHEME = 'Nkey';
/** How far a signed request's clock may be from the control plane's. */
export const SIGNATURE_SKEW_SECONDS = 300;

function signedText(agentId: string, unixSeconds: number): Uint8Array {
  return new TextEncoder().encode(`noderings-fleet-credentials:${agentId}:${unixSeconds}`);
}

/** `Authorization: Nkey <unix seconds>.<base64url signature>` for an agent's credentials request. */
export function signCredentialsRequest(seed: string, agentId: string, unixSeconds: number): string {
  const pair = fromSeed(new TextEncoder().encode(seed));
  const signature = Buffer.from(pair.sign(signedText(agentId, unixSeconds))).toString('base64url');
  return `${NKEY_SCHEME} ${unixSeconds}.${signature}`;
}

export type SignatureCheck = 'valid' | 'malformed' | 'expired' | 'bad-signature';

/** Checks an `Authorization` header made by `signCredentialsRequest` against the agent's public key. */
export function verifyCredentialsRequest(
  header: string | undefined,
  publicKey: string,
  agentId: string,
  nowUnixSeconds: number,
): SignatureCheck {
  const match = /^Nkey (\d{1,12})\.([A-Za-z0-9_-]{86})$/.exec(header ?? '');
  if (match === null) return 'malformed';
  const [, seconds = '', signature = ''] = match;
  const unixSeconds = Number(seconds);
  if (Math.abs(nowUnixSeconds - unixSeconds) > SIGNATURE_SKEW_SECONDS) return 'expired';
  const valid = fromPublic(publicKey).verify(
    signedText(agentId, unixSeconds),
    Buffer.from(signature, 'base64url'),
  );
  return valid ? 'valid' : 'bad-signature';
}
