import { FailedPreconditionError, NotFoundError, PermissionDeniedError } from '@noderings/domain';

import { newOpaqueToken } from '../../crypto/opaque-token.js';
import type { MemberRole } from '../../db/schema.js';
import type { Page, PageResult } from '../../http/pagination.js';
import type { Tenant } from '../../http/principal.js';
import type { AuthRepository } from '../auth/index.js';
import type { MembershipWithOrganization, OrganizationRepository } from '../organizations/index.js';
import {
  stateOf,
  type Invitation,
  type InvitationRepository,
  type ReceivedInvitation,
} from './invitation.repository.js';

/** How long an invitation can be accepted. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/**
 * Membership by invitation: an organisation's admin invites an email address, and whoever signs in with
 * that address accepts or declines. Inviting says nothing about whether the address has an account or is
 * a member already (the answer is the same invitation either way).
 */
export class InvitationService {
  constructor(
    private readonly deps: {
      readonly invitations: Pick<
        InvitationRepository,
        | 'insert'
        | 'findInOrganization'
        | 'listForOrganization'
        | 'findForInvitee'
        | 'listOpenForInvitee'
        | 'accept'
        | 'close'
      >;
      readonly users: Pick<AuthRepository, 'findUserById'>;
      readonly memberships: Pick<OrganizationRepository, 'findMembership'>;
      readonly now: () => Date;
    },
  ) {}

  async invite(
    tenant: Tenant,
    invitedBy: string,
    input: { email: string; role: MemberRole },
  ): Promise<Invitation> {
    mayGrant(tenant, input.role);
    const now = this.deps.now();
    return this.deps.invitations.insert({
      organizationId: tenant.organizationId,
      email: input.email.toLowerCase(),
      role: input.role,
      // The invitation link holds this token; only its hash is kept.
      tokenHash: newOpaqueToken('nrinv').hash,
      invitedBy,
      now,
      expiresAt: new Date(now.getTime() + INVITATION_LIFETIME_MS),
    });
  }

  listForOrganization(tenant: Tenant, page: Page): Promise<PageResult<Invitation>> {
    return this.deps.invitations.listForOrganization(tenant.organizationId, page);
  }

  async revoke(tenant: Tenant, id: string): Promise<void> {
    const invitation = await this.deps.invitations.findInOrganization(tenant.organizationId, id);
    if (invitation === undefined) throw NotFoundError.of('Invitation', id);
    mayGrant(tenant, invitation.role);
    if (!(await this.deps.invitations.close(id, 'revoked', this.deps.now())))
      throw notOpen(invitation, this.deps.now());
  }

  async listReceived(userId: string): Promise<ReceivedInvitation[]> {
    return this.deps.invitations.listOpenForInvitee(await this.#emailOf(userId), this.deps.now());
  }

  /** Joins the organisation; answers the membership the user now has there. */
  async accept(
    userId: string,
    id: string,
  ): Promise<{ invitation: ReceivedInvitation; membership: MembershipWithOrganization }> {
    const invitation = await this.#received(userId, id);
    const now = this.deps.now();
    if (!(await this.deps.invitations.accept({ id, userId, now }))) throw notOpen(invitation, now);
    const membership = await this.deps.memberships.findMembership(userId, invitation.organizationId);
    if (membership === undefined) throw new Error(`accepted invitation ${id} left no membership`);
    return { invitation, membership };
  }

  async decline(userId: string, id: string): Promise<ReceivedInvitation> {
    const invitation = await this.#received(userId, id);
    const now = this.deps.now();
    if (stateOf(invitation, now) === 'expired' || !(await this.deps.invitations.close(id, 'declined', now)))
      throw notOpen(invitation, now);
    return invitation;
  }

  /** An invitation addressed to the user's email; anyone else's is not found, whether it exists or not. */
  async #received(userId: string, id: string): Promise<ReceivedInvitation> {
    const invitation = await this.deps.invitations.findForInvitee(await this.#emailOf(userId), id);
    if (invitation === undefined) throw NotFoundError.of('Invitation', id);
    return invitation;
  }

  async #emailOf(userId: string): Promise<string> {
    const user = await this.deps.users.findUserById(userId);
    if (user === undefined) throw NotFoundError.of('User', userId);
    return user.email;
  }
}

/** Only owners hand out ownership, or take back an invitation to it. */
function mayGrant(tenant: Tenant, role: MemberRole): void {
  if (role === 'owner' && tenant.role !== 'owner')
    throw new PermissionDeniedError('Only an owner can invite an owner or revoke such an invitation.');
}

function notOpen(invitation: Invitation, now: Date): FailedPreconditionError {
  const state = stateOf(invitation, now);
  return new FailedPreconditionError(
    state === 'expired'
      ? 'This invitation has expired: ask the organization for a new one.'
      : `This invitation was ${state === 'pending' ? 'just closed' : state} and cannot be used.`,
  );
}
