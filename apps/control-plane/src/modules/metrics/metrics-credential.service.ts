import { NotFoundError } from '@noderings/domain';

import { newOpaqueToken } from '../../crypto/opaque-token.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type {
  MetricsCredentialRecord,
  MetricsCredentialRepository,
} from './metrics-credential.repository.js';

/** A credential with its token: the only moment the token exists outside the agent's hands. */
export interface MintedMetricsCredential {
  readonly credential: MetricsCredentialRecord;
  readonly token: string;
}

/**
 * Metrics write credentials: what an agent's forwarder (Alloy, or Prometheus in agent mode) presents to
 * `POST /api/v1/write`. Each writes for one agent only. Tokens are shown once; a rotation may keep the
 * previous token working for a grace period so the agent's secret can be updated without a gap.
 */
export class MetricsCredentialService {
  constructor(
    private readonly deps: {
      readonly credentials: MetricsCredentialRepository;
      readonly now: () => Date;
    },
  ) {}

  async create(
    organizationId: string,
    input: { agentId: string; name: string },
  ): Promise<MintedMetricsCredential> {
    const { token, hash } = newOpaqueToken('nrm');
    const credential = await this.deps.credentials.create({ organizationId, ...input, tokenHash: hash });
    if (credential === undefined) throw NotFoundError.of('Agent', input.agentId);
    return { credential, token };
  }

  async get(organizationId: string, id: string): Promise<MetricsCredentialRecord> {
    const credential = await this.deps.credentials.get(organizationId, id);
    if (credential === undefined) throw NotFoundError.of('Metrics credential', id);
    return credential;
  }

  list(
    organizationId: string,
    filter: { agentId?: string | undefined; includeRevoked: boolean },
    page: Page,
  ): Promise<PageResult<MetricsCredentialRecord>> {
    return this.deps.credentials.list(organizationId, filter, page);
  }

  async rotate(
    organizationId: string,
    id: string,
    gracePeriodSeconds: number,
  ): Promise<MintedMetricsCredential> {
    const now = this.deps.now();
    const { token, hash } = newOpaqueToken('nrm');
    const until = gracePeriodSeconds > 0 ? new Date(now.getTime() + gracePeriodSeconds * 1000) : null;
    const credential = await this.deps.credentials.rotate(organizationId, id, hash, now, until);
    if (credential === undefined) throw NotFoundError.of('Metrics credential', id);
    return { credential, token };
  }

  async revoke(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.credentials.revoke(organizationId, id, this.deps.now())))
      throw NotFoundError.of('Metrics credential', id);
  }
}
