import {
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  UnauthenticatedError,
} from '@noderings/domain';

import { hashToken, newOpaqueToken } from '../../crypto/opaque-token.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { InboundPeeringState } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import { agentPublicIpProblem } from './agent-public-ip.js';
import { operatorNamespace, peeringNamespace, type Agent } from './agent.js';
import { agentHealth, type AgentHealth } from './agent-health.js';
import { agentInUse } from './agent.errors.js';
import type { AgentChanges, AgentFilter, AgentRepository, NewAgent } from './agent.repository.js';
import type { AgentCredentialPurpose, AgentTokenRepository } from './agent-token.repository.js';
import { parseInboundKubeconfig } from './inbound-kubeconfig.js';
import { ClusterReachability } from './cluster-reachability.js';
import type { InboundPeeringCheck } from './inbound-peering-check.js';
import { peeringConfigYaml } from './peering-config.js';

/** The seed promises providers an hour to run the install command. */
export const INSTALL_TOKEN_TTL_MS = 60 * 60_000;
/** How long an agent credential (from an install token or a peering config) works. */
export const AGENT_CREDENTIAL_TTL_MS = 24 * 60 * 60_000;
export const REVIEW_PENDING_MESSAGE = 'Provider organization review is pending.';
const INVALID_INSTALL_TOKEN_MESSAGE = 'The install token is invalid, expired or already used.';
/** Characters that stay literal in the unquoted shell word the install command puts the URL in. */
const SHELL_SAFE_URL = /^https:\/\/[A-Za-z0-9.\-:/_~%]+$/;

/** An agent as its provider reads it: with its service status, derived when it is read. */
export type AgentWithHealth = Agent & { readonly health: AgentHealth };

/** The organisation a call acts in, as far as agents care. */
export interface ActingOrganization {
  readonly organizationId: string;
  readonly isVerified: boolean;
}

export interface AgentServiceDeps {
  readonly agents: Pick<
    AgentRepository,
    | 'list'
    | 'findById'
    | 'insert'
    | 'update'
    | 'delete'
    | 'isInUse'
    | 'startPeering'
    | 'finishPeering'
    | 'findInboundKubeconfig'
    | 'metricsReceivedAt'
  >;
  readonly tokens: Pick<
    AgentTokenRepository,
    'insertInstallToken' | 'redeemInstallToken' | 'insertAgentCredential'
  >;
  readonly secretBox: Pick<SecretBox, 'seal' | 'open'>;
  readonly checkPeering: InboundPeeringCheck;
  readonly now: () => Date;
  /** Where `curl` fetches the installer from. */
  readonly installScriptUrl: string;
  /** The API server agent clusters peer with, written into their peering kubeconfig. */
  readonly peeringApiServerUrl: string;
  /**
   * Development only (the sandbox, tests): private and documentation addresses are taken where public ones
   * are required (an agent's public IP, the kubeconfig server the control plane dials).
   */
  readonly allowPrivateDestinations: boolean;
}

export interface AgentCredential {
  readonly token: string;
  readonly expiresAt: Date;
}

export interface PeeringStatus {
  readonly inboundPeeringState: InboundPeeringState;
  readonly inboundPeeringError: string;
}

export class AgentService {
  readonly #clusters: ClusterReachability;

  constructor(private readonly deps: AgentServiceDeps) {
    this.#clusters = new ClusterReachability({ check: (id) => this.#checkCluster(id), now: deps.now });
    if (!SHELL_SAFE_URL.test(deps.installScriptUrl) || !URL.canParse(deps.installScriptUrl)) {
      throw new Error(`installScriptUrl must be a plain https:// URL, got ${deps.installScriptUrl}`);
    }
    if (!URL.canParse(deps.peeringApiServerUrl) || new URL(deps.peeringApiServerUrl).protocol !== 'https:') {
      throw new Error(`peeringApiServerUrl must be an https:// URL, got ${deps.peeringApiServerUrl}`);
    }
  }

  async list(organizationId: string, filter: AgentFilter, page: Page): Promise<PageResult<AgentWithHealth>> {
    const result = await this.deps.agents.list(organizationId, filter, page);
    return { ...result, items: await this.#withHealth(result.items) };
  }

  async get(organizationId: string, id: string): Promise<AgentWithHealth> {
    const [agent] = await this.#withHealth([await this.#find(organizationId, id)]);
    if (agent === undefined) throw NotFoundError.of('Agent', id);
    return agent;
  }

  /** The agents with their service status: whether this control plane reaches each cluster, and metrics. */
  async #withHealth(agents: readonly Agent[]): Promise<AgentWithHealth[]> {
    const metrics = await this.deps.agents.metricsReceivedAt(agents.map((a) => a.id));
    const now = this.deps.now();
    return Promise.all(
      agents.map(async (agent) => {
        const cluster =
          agent.inboundPeeringState === 'INBOUND_PEERING_STATE_READY'
            ? await this.#clusters.of(agent.id)
            : undefined;
        return { ...agent, health: agentHealth(agent, cluster, metrics.get(agent.id), now) };
      }),
    );
  }

  async #find(organizationId: string, id: string): Promise<Agent> {
    const agent = await this.deps.agents.findById(organizationId, id);
    if (agent === undefined) throw NotFoundError.of('Agent', id);
    return agent;
  }

  /** Tries the agent's cluster with its kubeconfig, as the peering check did when it was uploaded. */
  async #checkCluster(agentId: string): Promise<{ reachable: boolean; error: string }> {
    const kubeconfig = parseInboundKubeconfig(await this.inboundKubeconfig(agentId));
    const outcome = await this.deps.checkPeering(kubeconfig, operatorNamespace(agentId));
    return { reachable: outcome.state === 'INBOUND_PEERING_STATE_READY', error: outcome.error };
  }

  async create(
    acting: ActingOrganization,
    input: Omit<NewAgent, 'organizationId'>,
  ): Promise<AgentWithHealth> {
    requireReviewed(acting);
    const ipProblem = agentPublicIpProblem(input.agentPublicIp, {
      allowNonPublic: this.deps.allowPrivateDestinations,
    });
    if (ipProblem !== undefined) throw InvalidArgumentError.field('agentPublicIp', ipProblem);
    const agent = await this.deps.agents.insert(
      { ...input, organizationId: acting.organizationId },
      this.deps.now(),
    );
    return { ...agent, health: agentHealth(agent, undefined, undefined, this.deps.now()) };
  }

  async update(organizationId: string, id: string, changes: AgentChanges): Promise<AgentWithHealth> {
    const agent = await this.deps.agents.update(organizationId, id, changes, this.deps.now());
    if (agent === undefined) throw NotFoundError.of('Agent', id);
    const [updated = { ...agent, health: agentHealth(agent, undefined, undefined, this.deps.now()) }] =
      await this.#withHealth([agent]);
    return updated;
  }

  async delete(organizationId: string, id: string): Promise<void> {
    await this.#find(organizationId, id);
    if (await this.deps.agents.isInUse(id)) throw agentInUse();
    await this.deps.agents.delete(organizationId, id);
    this.#clusters.forget(id);
  }

  /** A one-time install token (only its hash is kept) and the command that hands it to the installer. */
  async generateInstallCommand(
    acting: ActingOrganization,
    id: string,
  ): Promise<{ command: string; token: string; expiresAt: Date }> {
    requireReviewed(acting);
    const agent = await this.#find(acting.organizationId, id);
    const now = this.deps.now();
    const { token, hash } = newOpaqueToken('nri');
    const expiresAt = new Date(now.getTime() + INSTALL_TOKEN_TTL_MS);
    await this.deps.tokens.insertInstallToken({ agentId: agent.id, tokenHash: hash, expiresAt, now });
    const command =
      `curl -sfL ${this.deps.installScriptUrl} | ` +
      `CLUSTER_ID=${agent.id} TOKEN=${token} LIQO_GW_SERVICE_TYPE=LoadBalancer sh -`;
    return { command, token, expiresAt };
  }

  /**
   * Trades an install token for an agent credential. Every failure says the same, so a caller learns
   * nothing about which agents or tokens exist.
   */
  async redeemInstallToken(
    id: string,
    installToken: string,
  ): Promise<{ agent: AgentWithHealth; credential: AgentCredential }> {
    const now = this.deps.now();
    const { token, hash, expiresAt } = this.#newCredential(now);
    const redeemed = await this.deps.tokens.redeemInstallToken({
      agentId: id,
      installTokenHash: hashToken(installToken),
      now,
      credential: { tokenHash: hash, expiresAt, purpose: 'install' },
    });
    if (redeemed === undefined) throw new UnauthenticatedError(INVALID_INSTALL_TOKEN_MESSAGE);
    return { agent: await this.get(redeemed.organizationId, id), credential: { token, expiresAt } };
  }

  /** A kubeconfig for the agent cluster to reach NodeRings, with a fresh agent credential in it. */
  async generatePeeringConfig(organizationId: string, id: string): Promise<string> {
    const agent = await this.#find(organizationId, id);
    const { token } = await this.#mintCredential(agent, 'peering');
    return peeringConfigYaml({
      server: this.deps.peeringApiServerUrl,
      namespace: peeringNamespace(agent.id),
      token,
    });
  }

  /**
   * Stores the agent cluster's kubeconfig (sealed) and checks it by listing our orders there. A bad
   * document changes nothing; a document that does not work is kept, with the failure, so the provider
   * sees why.
   */
  async uploadInboundPeeringConfig(
    organizationId: string,
    id: string,
    kubeconfigText: string,
  ): Promise<PeeringStatus> {
    await this.#find(organizationId, id);
    const kubeconfig = parseInboundKubeconfig(kubeconfigText);
    const sealed = this.deps.secretBox.seal(kubeconfig.yaml, kubeconfigAssociatedData(id));
    if ((await this.deps.agents.startPeering(organizationId, id, sealed, this.deps.now())) === undefined) {
      throw NotFoundError.of('Agent', id);
    }
    const outcome = await this.deps.checkPeering(kubeconfig, operatorNamespace(id));
    this.#clusters.forget(id);
    const finished =
      (await this.deps.agents.finishPeering(id, sealed, outcome, this.deps.now())) ??
      // A newer upload replaced this kubeconfig while it was being checked: report where that one is.
      (await this.#find(organizationId, id));
    return {
      inboundPeeringState: finished.inboundPeeringState,
      inboundPeeringError: finished.inboundPeeringError,
    };
  }

  /**
   * The agent cluster's kubeconfig in clear, for the dispatcher. Not reachable from any route: the
   * kubeconfig never leaves the control plane.
   */
  async inboundKubeconfig(agentId: string): Promise<string> {
    const sealed = await this.deps.agents.findInboundKubeconfig(agentId);
    if (sealed === undefined) throw NotFoundError.of('Agent', agentId);
    if (sealed === null)
      throw new FailedPreconditionError(`Agent ${agentId} has no inbound peering config yet.`);
    return this.deps.secretBox.open(sealed, kubeconfigAssociatedData(agentId));
  }

  async #mintCredential(agent: Agent, purpose: AgentCredentialPurpose): Promise<AgentCredential> {
    const now = this.deps.now();
    const { token, hash, expiresAt } = this.#newCredential(now);
    await this.deps.tokens.insertAgentCredential({
      agentId: agent.id,
      organizationId: agent.organizationId,
      tokenHash: hash,
      expiresAt,
      purpose,
      now,
    });
    return { token, expiresAt };
  }

  #newCredential(now: Date): { token: string; hash: Buffer; expiresAt: Date } {
    return { ...newOpaqueToken('nra'), expiresAt: new Date(now.getTime() + AGENT_CREDENTIAL_TTL_MS) };
  }
}

/** Binds a sealed kubeconfig to its agent, so a ciphertext copied onto another agent does not open. */
function kubeconfigAssociatedData(agentId: string): string {
  return `agents/${agentId}/inbound-kubeconfig`;
}

function requireReviewed(acting: ActingOrganization): void {
  if (!acting.isVerified) throw new FailedPreconditionError(REVIEW_PENDING_MESSAGE);
}
