import { NotFoundError, UnauthenticatedError, UnavailableError } from '@noderings/domain';
import {
  agentInboxPrefix,
  verifyCredentialsRequest,
  type EnrollRequest,
  type EnrollResponse,
  type NatsCredentials,
} from '@noderings/fleet';
import { issueAgentJwt } from '@noderings/fleet/nats-authority';
import type { BaseLogger } from 'pino';

import { hashToken } from '../../crypto/opaque-token.js';
import { decideEnrollment, normalizeSystemUuid, REBIND_QUIET_MS } from './enrollment-decision.js';
import type { EnrollmentOutcome, FleetAgentRecord, FleetAgentRepository } from './fleet-agent.repository.js';
import type { FleetEnvironmentRepository } from './fleet-environment.repository.js';
import { FLEET_PREFIX } from './fleet.schemas.js';

/** What agents need of NATS: the account whose key signs their user JWTs, and where to connect. */
export interface FleetNatsSettings {
  /** The fleet account's seed (`SA…`): a secret, never logged or returned. */
  readonly accountSeed: string;
  /** The URLs given to agents. */
  readonly agentServers: readonly string[];
}

export type EnrollAnswer =
  | { readonly kind: 'enrolled'; readonly created: boolean; readonly response: EnrollResponse }
  | {
      readonly kind: 'conflict';
      readonly code: 'identity_in_use' | 'public_key_in_use';
      readonly message: string;
    };

export type CredentialsAnswer =
  | { readonly kind: 'issued'; readonly nats: NatsCredentials }
  | {
      readonly kind: 'gone';
      readonly code: 'identity_released' | 'identity_rebound';
      readonly message: string;
    };

/** How long an agent's NATS user JWT is valid; it asks for a new one (signed with its key) before then. */
const JWT_LIFETIME_MS = 24 * 3600_000;
const INSTALL_TOKEN = /^Bearer (nrf_[A-Za-z0-9_-]{1,100})$/;
const TOUCH_INTERVAL_MS = 60_000;

function releasePath(agentId: string): string {
  return `POST ${FLEET_PREFIX}/agents/${agentId}/release-identity`;
}

/**
 * Enrollment and NATS credentials (seed 004, DESIGN §3.6): an agent enrolls with an install token and
 * its nkey public key, idempotently by (environment, agent type, name), and later proves it holds that key
 * by signing its credentials request. The user JWT it gets allows publishing under its own key's subjects
 * only, so what the control plane receives names its sender.
 */
export class FleetEnrollmentService {
  constructor(
    private readonly deps: {
      readonly tokens: Pick<FleetEnvironmentRepository, 'findInstallToken' | 'touchInstallToken'>;
      readonly agents: Pick<FleetAgentRepository, 'enroll' | 'credentialHolder'>;
      /** Undefined when the control plane has no NATS: agents can neither enroll nor get credentials. */
      readonly nats: FleetNatsSettings | undefined;
      readonly heartbeatIntervalSeconds: number;
      readonly now: () => Date;
      readonly logger: Pick<BaseLogger, 'info'>;
    },
  ) {}

  async enroll(authorization: string | undefined, request: EnrollRequest): Promise<EnrollAnswer> {
    const nats = this.#nats();
    const now = this.deps.now();
    const token = INSTALL_TOKEN.exec(authorization ?? '')?.[1];
    const grant =
      token === undefined ? undefined : await this.deps.tokens.findInstallToken(hashToken(token), now);
    if (grant === undefined)
      throw new UnauthenticatedError(
        'A live fleet install token is needed (Authorization: Bearer nrf_…); this one is missing, unknown, expired or revoked.',
      );
    if (grant.lastUsedAt === null || now.getTime() - grant.lastUsedAt.getTime() > TOUCH_INTERVAL_MS)
      await this.deps.tokens.touchInstallToken(grant.tokenId, now);
    const outcome = await this.deps.agents.enroll(
      {
        organizationId: grant.organizationId,
        environmentId: grant.environmentId,
        installTokenId: grant.tokenId,
        agentType: request.agentType,
        name: request.name,
        publicKey: request.publicKey,
        version: request.version,
        machineId: request.hostSignals.machineId,
        systemUuid: normalizeSystemUuid(request.hostSignals.systemUuid),
        heartbeatIntervalSeconds: this.deps.heartbeatIntervalSeconds,
        now,
      },
      (held) => decideEnrollment(held, request, now),
    );
    if (outcome.kind === 'key-in-use') {
      return {
        kind: 'conflict',
        code: 'public_key_in_use',
        message: `This public key is already bound to agent ${outcome.agentId} under another name or type; every agent needs a key of its own (a separate data directory).`,
      };
    }
    if (outcome.kind === 'in-use')
      return { kind: 'conflict', code: 'identity_in_use', message: inUseMessage(outcome, now) };
    const { agent } = outcome;
    if (outcome.kind !== 'same-key')
      this.deps.logger.info(
        {
          agentId: agent.id,
          environmentId: agent.environmentId,
          agentType: agent.agentType,
          name: agent.name,
        },
        outcome.kind === 'rebound' ? 'fleet agent re-bound to a new key' : 'fleet agent enrolled',
      );
    return {
      kind: 'enrolled',
      created: outcome.kind === 'created',
      response: {
        agentId: agent.id,
        environmentId: agent.environmentId,
        agentType: agent.agentType,
        name: agent.name,
        rebound: outcome.kind === 'rebound',
        heartbeatIntervalSeconds: this.deps.heartbeatIntervalSeconds,
        nats: await this.#credentials(nats, agent, now),
      },
    };
  }

  /** Fresh NATS credentials for the agent whose current key signed `authorization`. */
  async natsCredentials(agentId: string, authorization: string | undefined): Promise<CredentialsAnswer> {
    const nats = this.#nats();
    const now = this.deps.now();
    const holder = await this.deps.agents.credentialHolder(agentId);
    if (holder === undefined) throw NotFoundError.of('Agent', agentId);
    const { agent } = holder;
    const seconds = Math.floor(now.getTime() / 1000);
    const check = verifyCredentialsRequest(authorization, agent.publicKey, agentId, seconds);
    if (check === 'malformed')
      throw new UnauthenticatedError(
        'Sign the request with the agent key: Authorization: Nkey <unix seconds>.<signature>.',
      );
    if (check === 'expired')
      throw new UnauthenticatedError(
        "The signed time is more than five minutes away from the control plane's clock: check the host's clock.",
      );
    if (check === 'bad-signature') {
      const retired = holder.retiredKeys.find(
        (k) => verifyCredentialsRequest(authorization, k.publicKey, agentId, seconds) === 'valid',
      );
      if (retired === undefined)
        throw new UnauthenticatedError("The signature does not match the agent's key.");
      return {
        kind: 'gone',
        code: 'identity_rebound',
        message: `Agent ${agentId} was re-bound to another key at ${retired.retiredAt.toISOString()} (another agent on the same host took the record over after it went quiet): this key is no longer accepted. Enroll again.`,
      };
    }
    if (agent.releasedAt !== null) {
      return {
        kind: 'gone',
        code: 'identity_released',
        message: `Agent ${agentId} was released at ${agent.releasedAt.toISOString()} (${releasePath(agentId)}): its key is no longer accepted. Enroll again with an install token.`,
      };
    }
    return { kind: 'issued', nats: await this.#credentials(nats, agent, now) };
  }

  #nats(): FleetNatsSettings {
    if (this.deps.nats === undefined)
      throw new UnavailableError(
        'This control plane has no NATS configured (NR_NATS_URL, NR_NATS_ACCOUNT_SEED_FILE), so fleet agents cannot enroll or get credentials.',
      );
    return this.deps.nats;
  }

  async #credentials(nats: FleetNatsSettings, agent: FleetAgentRecord, now: Date): Promise<NatsCredentials> {
    const issued = await issueAgentJwt(
      nats.accountSeed,
      agent.publicKey,
      `fleet-agent-${agent.id}`,
      new Date(now.getTime() + JWT_LIFETIME_MS),
    );
    return {
      servers: nats.agentServers,
      jwt: issued.jwt,
      inboxPrefix: agentInboxPrefix(agent.publicKey),
      expiresAt: issued.expiresAt.toISOString(),
    };
  }
}

function inUseMessage(outcome: Extract<EnrollmentOutcome, { kind: 'in-use' }>, now: Date): string {
  const { agent, decision } = outcome;
  const heard =
    agent.lastSeenAt === null
      ? `has never been heard from since ${decision.quietSince.toISOString()}`
      : `was last heard from at ${agent.lastSeenAt.toISOString()}`;
  const quietMinutes = Math.floor((now.getTime() - decision.quietSince.getTime()) / 60_000);
  const why =
    decision.reason === 'live'
      ? `it has been quiet for ${quietMinutes} of the ${REBIND_QUIET_MS / 60_000} minutes after which an agent on the same host may take it over`
      : 'this enrollment presents no machineId or systemUuid matching the ones stored on it';
  return (
    `The name ${agent.name} (${agent.agentType}) is held by agent ${agent.id} under another key; it ${heard}. ` +
    `It was not re-bound because ${why}. If that agent is gone, free the name with ${releasePath(agent.id)}.`
  );
}
