import { FailedPreconditionError, NotFoundError, PermissionDeniedError } from '@noderings/domain';

import type { MemberRole, OrganizationType } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { Tenant } from '../../http/principal.js';
import type {
  Membership,
  MembershipWithOrganization,
  Organization,
  OrganizationRepository,
} from './organization.repository.js';

export interface OrganizationServiceDeps {
  readonly organizations: Pick<
    OrganizationRepository,
    | 'findById'
    | 'listForUser'
    | 'createWithOwner'
    | 'rename'
    | 'markVerified'
    | 'listAll'
    | 'listMembers'
    | 'setMemberRole'
    | 'removeMember'
    | 'countOwners'
  >;
  readonly now: () => Date;
}

export class OrganizationService {
  constructor(private readonly deps: OrganizationServiceDeps) {}

  listMine(userId: string): Promise<MembershipWithOrganization[]> {
    return this.deps.organizations.listForUser(userId);
  }

  create(userId: string, input: { name: string; type: OrganizationType }): Promise<Organization> {
    return this.deps.organizations.createWithOwner({ ...input, ownerId: userId });
  }

  async current(tenant: Tenant): Promise<Organization> {
    const organization = await this.deps.organizations.findById(tenant.organizationId);
    if (organization === undefined) throw NotFoundError.of('Organization', tenant.organizationId);
    return organization;
  }

  async rename(tenant: Tenant, name: string): Promise<Organization> {
    const organization = await this.deps.organizations.rename(tenant.organizationId, name);
    if (organization === undefined) throw NotFoundError.of('Organization', tenant.organizationId);
    return organization;
  }

  /** Staff review of a provider organisation: until verified, it cannot create agents. */
  async verify(organizationId: string): Promise<Organization> {
    const organization = await this.deps.organizations.findById(organizationId);
    if (organization === undefined) throw NotFoundError.of('Organization', organizationId);
    if (organization.type !== 'ORGANIZATION_TYPE_PROVIDER') {
      throw new FailedPreconditionError('Only provider organizations are verified.');
    }
    const verified = await this.deps.organizations.markVerified(organizationId, this.deps.now());
    if (verified === undefined) throw NotFoundError.of('Organization', organizationId);
    return verified;
  }

  listAll(
    filter: { type?: OrganizationType; isVerified?: boolean },
    page: Page,
  ): Promise<PageResult<Organization>> {
    return this.deps.organizations.listAll(filter, page);
  }

  listMembers(tenant: Tenant): Promise<Membership[]> {
    return this.deps.organizations.listMembers(tenant.organizationId);
  }

  async setMemberRole(tenant: Tenant, userId: string, role: MemberRole): Promise<Membership> {
    const member = await this.#member(tenant, userId);
    this.#mayGrant(tenant, role);
    this.#mayGrant(tenant, member.role);
    if (member.role === 'owner' && role !== 'owner') await this.#keepAnOwner(tenant);
    await this.deps.organizations.setMemberRole({ organizationId: tenant.organizationId, userId, role });
    return this.#member(tenant, userId);
  }

  async removeMember(tenant: Tenant, userId: string): Promise<void> {
    const member = await this.#member(tenant, userId);
    this.#mayGrant(tenant, member.role);
    if (member.role === 'owner') await this.#keepAnOwner(tenant);
    await this.deps.organizations.removeMember(tenant.organizationId, userId);
  }

  /** Only owners hand out or take away ownership. */
  #mayGrant(tenant: Tenant, role: MemberRole): void {
    if (role === 'owner' && tenant.role !== 'owner') {
      throw new PermissionDeniedError('Only an owner can grant or remove the owner role.');
    }
  }

  async #keepAnOwner(tenant: Tenant): Promise<void> {
    if ((await this.deps.organizations.countOwners(tenant.organizationId)) <= 1) {
      throw new FailedPreconditionError('An organization must keep at least one owner.');
    }
  }

  async #member(tenant: Tenant, userId: string): Promise<Membership> {
    const member = (await this.deps.organizations.listMembers(tenant.organizationId)).find(
      (m) => m.userId === userId,
    );
    if (member === undefined) throw NotFoundError.of('Member', userId);
    return member;
  }
}
