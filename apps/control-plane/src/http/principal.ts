import type { MemberRole, OrganizationType } from '../db/schema.js';

/** Who is calling, established from the bearer token before anything else runs. */
export type Principal =
  | { readonly kind: 'session'; readonly tokenId: string; readonly userId: string; readonly isStaff: boolean }
  | {
      readonly kind: 'service_account';
      readonly tokenId: string;
      readonly serviceAccountId: string;
      readonly organizationId: string;
      readonly role: MemberRole;
    }
  /** An agent cluster's installer, redeemed from a one-time install token: may act on its own agent only. */
  | {
      readonly kind: 'agent';
      readonly tokenId: string;
      readonly agentId: string;
      readonly organizationId: string;
    };

/** The organisation a request acts in, chosen by `X-Organization-ID` among the caller's memberships. */
export interface Tenant {
  readonly organizationId: string;
  readonly role: MemberRole;
  readonly organizationType: OrganizationType;
  readonly isVerified: boolean;
}

const ROLE_RANK: Readonly<Record<MemberRole, number>> = { member: 0, admin: 1, owner: 2 };

export function roleAtLeast(role: MemberRole, minimum: MemberRole): boolean {
  return ROLE_RANK[role] >= ROLE_RANK[minimum];
}

/** The id recorded as the actor of an audit event. */
export function actorId(principal: Principal): string {
  switch (principal.kind) {
    case 'session':
      return principal.userId;
    case 'service_account':
      return principal.serviceAccountId;
    case 'agent':
      return principal.agentId;
  }
}

/** The tenant of a `tenant` route; the authentication hook has set it before any handler runs. */
export function tenantOf(request: { readonly tenant: Tenant | undefined }): Tenant {
  if (request.tenant === undefined) throw new Error('tenant route without a resolved tenant');
  return request.tenant;
}

export function principalOf(request: { readonly principal: Principal | undefined }): Principal {
  if (request.principal === undefined) throw new Error('authenticated route without a principal');
  return request.principal;
}
