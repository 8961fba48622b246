import type { MemberRole, OrganizationType } from '../db/schema.js';
import type { Principal, Tenant } from './principal.js';

/**
 * Who may call a route; every route declares one in its `config.access`, and the server refuses to start
 * with a route that does not.
 */
export type RouteAccess =
  /** Anyone, signed in or not (register, login, catalogues). */
  | { readonly kind: 'public' }
  /** A signed-in user, in no particular organisation (logout, the list of one's organisations). */
  | { readonly kind: 'user' }
  /** Platform staff. */
  | { readonly kind: 'staff' }
  /** A member of the organisation selected by `X-Organization-ID`. */
  | {
      readonly kind: 'tenant';
      /** Defaults to `member` for reads and `admin` for writes. */
      readonly minRole?: MemberRole;
      readonly organizationType?: OrganizationType;
      /** An agent's own install credential may call this route for its own agent (`:id`). */
      readonly agentSelf?: boolean;
      /**
       * Creates or widens a credential (service accounts and their tokens, invitations, roles): only a
       * signed-in user may, never a token, so that a stolen token cannot outlive its revocation by
       * minting another (ADR 0019).
       */
      readonly signedInUser?: boolean;
    };

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
    /** The audit action of a mutating route, like `region.create`. */
    audit?: string;
  }
  interface FastifyRequest {
    principal: Principal | undefined;
    tenant: Tenant | undefined;
    /** Set by a handler when the audit target is not the `:id` path parameter (creates, for example). */
    auditTarget: { readonly type: string; readonly id: string; readonly organizationId?: string } | undefined;
  }
}
