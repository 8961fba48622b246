import { InvalidArgumentError, PermissionDeniedError, UnauthenticatedError } from '@noderings/domain';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';

import { hashToken } from '../crypto/opaque-token.js';
import type { AuthRepository, CredentialRecord } from '../modules/auth/auth.repository.js';
import { isAllowed } from './client-ip.js';
import { roleAtLeast, type Principal, type Tenant } from './principal.js';
import type { RouteAccess } from './route-access.js';

export interface AuthenticationDeps {
  readonly credentials: Pick<AuthRepository, 'findCredential' | 'touchCredential'>;
  readonly now: () => Date;
}

const TOUCH_INTERVAL_MS = 60_000;
const BEARER = /^Bearer ([A-Za-z0-9_-]{1,200})$/;
const organizationHeader = z.uuid();

const ORGANIZATION_TYPE_LABEL = {
  ORGANIZATION_TYPE_PROVIDER: 'provider',
  ORGANIZATION_TYPE_CLIENT: 'client',
} as const;

/**
 * Establishes `request.principal` and `request.tenant` before validation, and enforces the route's
 * declared access. Objects of other tenants are hidden by the repositories (404), not here.
 */
export function installAuthentication(app: FastifyInstance, deps: AuthenticationDeps): void {
  app.decorateRequest('principal', undefined);
  app.decorateRequest('tenant', undefined);
  app.decorateRequest('auditTarget', undefined);

  app.addHook('onRequest', async (request) => {
    const access = request.routeOptions.config.access;
    if (access === undefined || access.kind === 'public') return;
    // Read before the lookup, which resolves the membership in the same query; refused only once the
    // caller is known, so an anonymous caller always gets 401.
    const requested = access.kind === 'tenant' ? requestedOrganization(request) : { id: undefined };
    const credential = await findCredential(request, deps, requested.id);
    if (requested.error !== undefined) throw requested.error;
    const principal = toPrincipal(credential);
    request.principal = principal;
    if (credential.kind === 'service_account' && !isAllowed(credential.allowedIps, request.ip)) {
      throw new PermissionDeniedError('This service account may not be used from this address.');
    }
    touchLater(request, credential, deps);
    switch (access.kind) {
      case 'user':
        if (principal.kind !== 'session')
          throw new PermissionDeniedError('This call needs a signed-in user.');
        return;
      case 'staff':
        if (principal.kind !== 'session' || !principal.isStaff) {
          throw new PermissionDeniedError('This call is reserved for platform staff.');
        }
        return;
      case 'tenant':
        request.tenant = resolveTenant(request, principal, credential, access, requested.id);
        return;
    }
  });
}

async function findCredential(
  request: FastifyRequest,
  deps: AuthenticationDeps,
  organizationId: string | undefined,
): Promise<CredentialRecord> {
  const header = request.headers.authorization;
  if (header === undefined) throw new UnauthenticatedError('This call needs a bearer token.');
  const token = BEARER.exec(header)?.[1];
  const credential =
    token === undefined
      ? undefined
      : await deps.credentials.findCredential(hashToken(token), deps.now(), organizationId);
  if (credential === undefined)
    throw new UnauthenticatedError('The bearer token is invalid, expired or revoked.');
  return credential;
}

function toPrincipal(c: CredentialRecord): Principal {
  if (c.kind === 'session' && c.userId !== null) {
    return { kind: 'session', tokenId: c.tokenId, userId: c.userId, isStaff: c.isStaff };
  }
  if (
    c.kind === 'service_account' &&
    c.serviceAccountId !== null &&
    c.organizationId !== null &&
    c.serviceAccountRole !== null
  ) {
    return {
      kind: 'service_account',
      tokenId: c.tokenId,
      serviceAccountId: c.serviceAccountId,
      organizationId: c.organizationId,
      role: c.serviceAccountRole,
    };
  }
  if (c.kind === 'agent' && c.agentId !== null && c.organizationId !== null) {
    return { kind: 'agent', tokenId: c.tokenId, agentId: c.agentId, organizationId: c.organizationId };
  }
  throw new UnauthenticatedError('The bearer token is invalid, expired or revoked.');
}

function touchLater(request: FastifyRequest, credential: CredentialRecord, deps: AuthenticationDeps): void {
  const now = deps.now();
  if (credential.lastUsedAt !== null && now.getTime() - credential.lastUsedAt.getTime() < TOUCH_INTERVAL_MS)
    return;
  deps.credentials.touchCredential(credential.tokenId, now).catch((e: unknown) => {
    request.log.warn({ err: e }, 'could not record token use');
  });
}

function requestedOrganization(request: FastifyRequest): { id?: string; error?: InvalidArgumentError } {
  const header = request.headers['x-organization-id'];
  if (header === undefined || header === '') return {};
  const parsed = organizationHeader.safeParse(header);
  if (!parsed.success) {
    return {
      error: InvalidArgumentError.field('header.x-organization-id', 'must be an organization id (UUID)'),
    };
  }
  return { id: parsed.data };
}

function resolveTenant(
  request: FastifyRequest,
  principal: Principal,
  credential: CredentialRecord,
  access: Extract<RouteAccess, { kind: 'tenant' }>,
  requested: string | undefined,
): Tenant {
  let tenant: Tenant;
  if (principal.kind === 'session') {
    const membership = credential.membership;
    if (membership === null) {
      throw new PermissionDeniedError(
        requested === undefined
          ? 'You are not a member of any organization.'
          : `You are not a member of organization ${requested}.`,
      );
    }
    tenant = {
      organizationId: membership.organizationId,
      role: membership.role,
      organizationType: membership.organizationType,
      isVerified: membership.organizationVerified,
    };
  } else {
    if (requested !== undefined && requested !== principal.organizationId) {
      throw new PermissionDeniedError(`This token belongs to another organization than ${requested}.`);
    }
    if (credential.organizationType === null)
      throw new UnauthenticatedError('The bearer token is invalid, expired or revoked.');
    tenant = {
      organizationId: principal.organizationId,
      role: principal.kind === 'service_account' ? principal.role : 'member',
      organizationType: credential.organizationType,
      isVerified: credential.organizationVerified,
    };
  }
  if (access.signedInUser === true && principal.kind !== 'session') {
    throw new PermissionDeniedError(
      'Only a signed-in user can do this: a token may not create or widen credentials.',
    );
  }
  if (principal.kind === 'agent') {
    const params = request.params as { id?: unknown };
    if (access.agentSelf !== true || params.id !== principal.agentId) {
      throw new PermissionDeniedError('An install credential may only act on its own agent.');
    }
  } else {
    const minRole =
      access.minRole ?? (request.method === 'GET' || request.method === 'HEAD' ? 'member' : 'admin');
    if (!roleAtLeast(tenant.role, minRole)) {
      throw new PermissionDeniedError(`This call needs the ${minRole} role in the organization.`);
    }
  }
  if (access.organizationType !== undefined && tenant.organizationType !== access.organizationType) {
    throw new PermissionDeniedError(
      `This call is for ${ORGANIZATION_TYPE_LABEL[access.organizationType]} organizations.`,
    );
  }
  return tenant;
}
