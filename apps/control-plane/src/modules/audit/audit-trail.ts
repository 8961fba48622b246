import type { FastifyInstance, FastifyRequest } from 'fastify';

import { actorId } from '../../http/principal.js';
import { documentedPath } from '../../http/verb-route.js';
import type { AuditRepository } from './audit.repository.js';

/**
 * Records every call to a mutating route (declared by its `config.audit` action), refused ones included:
 * who, in which organisation, what, on which object, with what outcome. Written before the response
 * leaves, so a caller who has the answer can already find the event.
 */
export function installAuditTrail(app: FastifyInstance, audit: Pick<AuditRepository, 'insert'>): void {
  app.addHook('onSend', async (request, reply) => {
    const action = request.routeOptions.config.audit;
    if (action === undefined) return;
    const principal = request.principal;
    const params = request.params as { id?: unknown } | undefined;
    const target = request.auditTarget;
    const pathId = typeof params?.id === 'string' ? params.id : null;
    try {
      await audit.insert({
        // A token's organisation is known even when the call is refused before a tenant is chosen, so
        // its owners see what a token of theirs was refused.
        organizationId:
          target?.organizationId ??
          request.tenant?.organizationId ??
          (principal !== undefined && principal.kind !== 'session' ? principal.organizationId : null),
        actorKind: principal?.kind ?? 'anonymous',
        actorId: principal === undefined ? null : actorId(principal),
        action,
        targetType: target?.type ?? action.split('.')[0] ?? null,
        targetId: target?.id ?? pathId,
        statusCode: reply.statusCode,
        requestId: request.id,
        ip: clientAddress(request),
        actorOrganizationId: null,
        route: routeOf(request),
      });
    } catch (e: unknown) {
      request.log.error({ err: e, action }, 'could not write the audit event');
    }
  });
}

/** `POST /v1/invitations/{id}:accept`: the route as the API document names it. */
export function routeOf(request: FastifyRequest): string {
  return `${request.method} ${documentedPath(request.routeOptions.url ?? request.url.split('?')[0] ?? '')}`;
}

/** Fastify types the address as always there, but a client that hung up early leaves none to read. */
export function clientAddress(request: FastifyRequest): string {
  const ip: unknown = request.ip;
  return typeof ip === 'string' ? ip : '';
}
