import { NotFoundError } from '@noderings/domain';

import { newOpaqueToken } from '../../crypto/opaque-token.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type {
  FleetEnvironment,
  FleetEnvironmentRepository,
  FleetInstallToken,
} from './fleet-environment.repository.js';

/** An install token with its secret: the only moment the token exists outside the installer's hands. */
export interface MintedInstallToken {
  readonly token: string;
  readonly installToken: FleetInstallToken;
}

export const DEFAULT_INSTALL_TOKEN_SECONDS = 30 * 24 * 3600;

/**
 * A provider's fleet environments and the install tokens its node agents enroll with. A token is shown
 * once, kept as its SHA-256, reusable by every agent of the environment until it expires or is revoked
 * (a DaemonSet's pods all enroll with the one token of their Secret).
 */
export class FleetEnvironmentService {
  constructor(
    private readonly deps: {
      readonly environments: FleetEnvironmentRepository;
      readonly now: () => Date;
    },
  ) {}

  async create(organizationId: string, name: string): Promise<FleetEnvironment> {
    return await this.deps.environments.create(organizationId, name, this.deps.now());
  }

  async get(organizationId: string, id: string): Promise<FleetEnvironment> {
    const environment = await this.deps.environments.get(organizationId, id);
    if (environment === undefined) throw NotFoundError.of('Environment', id);
    return environment;
  }

  list(organizationId: string, page: Page): Promise<PageResult<FleetEnvironment>> {
    return this.deps.environments.list(organizationId, page);
  }

  async createInstallToken(
    organizationId: string,
    environmentId: string,
    input: { description: string; expiresInSeconds: number },
  ): Promise<MintedInstallToken> {
    const now = this.deps.now();
    const { token, hash } = newOpaqueToken('nrf');
    const installToken = await this.deps.environments.createInstallToken({
      organizationId,
      environmentId,
      description: input.description,
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + input.expiresInSeconds * 1000),
      now,
    });
    if (installToken === undefined) throw NotFoundError.of('Environment', environmentId);
    return { token, installToken };
  }

  async listInstallTokens(
    organizationId: string,
    environmentId: string,
    page: Page,
  ): Promise<PageResult<FleetInstallToken>> {
    await this.get(organizationId, environmentId);
    return this.deps.environments.listInstallTokens(organizationId, environmentId, page);
  }

  async revokeInstallToken(organizationId: string, environmentId: string, tokenId: string): Promise<void> {
    const revoked = await this.deps.environments.revokeInstallToken(
      organizationId,
      environmentId,
      tokenId,
      this.deps.now(),
    );
    if (!revoked) throw NotFoundError.of('Install token', tokenId);
  }
}
