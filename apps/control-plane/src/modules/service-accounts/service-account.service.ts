import { FailedPreconditionError, NotFoundError } from '@noderings/domain';

import { newOpaqueToken } from '../../crypto/opaque-token.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type {
  ServiceAccountChanges,
  ServiceAccountRecord,
  ServiceAccountRepository,
  ServiceAccountRole,
  ServiceAccountTokenRecord,
} from './service-account.repository.js';

export type ServiceAccount = ServiceAccountRecord;
export type ServiceAccountToken = ServiceAccountTokenRecord;

/** How long a token lives, in days; the default is the NodeRings CLI's. */
export const TOKEN_LIFETIME_DAYS = { min: 1, max: 365, default: 90 } as const;

const DAY_MS = 24 * 60 * 60_000;

/** A freshly minted token: the only moment its text exists outside the caller's hands. */
export interface MintedToken {
  readonly token: string;
  readonly tokenId: string;
  readonly expiresAt: Date;
}

/**
 * Non-human members of an organisation. Their tokens are checked by the authentication hook, which also
 * refuses tokens of inactive or deleted accounts and enforces `allowedIps`.
 */
export class ServiceAccountService {
  constructor(
    private readonly deps: {
      readonly accounts: Pick<
        ServiceAccountRepository,
        | 'list'
        | 'findById'
        | 'insert'
        | 'update'
        | 'softDelete'
        | 'listTokens'
        | 'insertToken'
        | 'revokeToken'
      >;
      readonly now: () => Date;
    },
  ) {}

  list(
    organizationId: string,
    filter: { includeInactive: boolean },
    page: Page,
  ): Promise<PageResult<ServiceAccount>> {
    return this.deps.accounts.list(organizationId, filter, page, this.deps.now());
  }

  async get(organizationId: string, id: string): Promise<ServiceAccount> {
    const account = await this.deps.accounts.findById(organizationId, id, this.deps.now());
    if (account === undefined) throw NotFoundError.of('Service account', id);
    return account;
  }

  async create(
    organizationId: string,
    input: {
      name: string;
      description: string;
      role: ServiceAccountRole;
      allowedIps: readonly string[];
    },
  ): Promise<ServiceAccount> {
    return await this.deps.accounts.insert({ organizationId, ...input, now: this.deps.now() });
  }

  async update(organizationId: string, id: string, changes: ServiceAccountChanges): Promise<ServiceAccount> {
    const found = await this.deps.accounts.update(organizationId, id, changes);
    if (!found) throw NotFoundError.of('Service account', id);
    return this.get(organizationId, id);
  }

  /** Soft delete: the row stays for the audit trail, its tokens are revoked and it is not found any more. */
  async delete(organizationId: string, id: string): Promise<void> {
    if (!(await this.deps.accounts.softDelete(organizationId, id, this.deps.now())))
      throw NotFoundError.of('Service account', id);
  }

  async listTokens(organizationId: string, id: string, page: Page): Promise<PageResult<ServiceAccountToken>> {
    await this.get(organizationId, id);
    return this.deps.accounts.listTokens(organizationId, id, page);
  }

  async createToken(
    organizationId: string,
    id: string,
    input: { name: string; expiresInDays: number },
  ): Promise<MintedToken> {
    const account = await this.get(organizationId, id);
    // Its tokens would be refused at once; saying so beats handing out a token that never works.
    if (!account.isActive)
      throw new FailedPreconditionError(
        'The service account is inactive: activate it before creating tokens.',
      );
    const now = this.deps.now();
    const { token, hash } = newOpaqueToken('nrsa');
    const created = await this.deps.accounts.insertToken({
      organizationId,
      serviceAccountId: id,
      name: input.name,
      tokenHash: hash,
      expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
      now,
    });
    return { token, tokenId: created.id, expiresAt: created.expiresAt };
  }

  async revokeToken(organizationId: string, tokenId: string): Promise<void> {
    if (!(await this.deps.accounts.revokeToken(organizationId, tokenId, this.deps.now())))
      throw NotFoundError.of('Service account token', tokenId);
  }
}
