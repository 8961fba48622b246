import type { FastifyInstance, FastifyRequest } from 'fastify';

import { actorId } from '../../http/principal.js';
import type { AuditRepository, OwnedObject } from './audit.repository.js';
import { clientAddress, routeOf } from './audit-trail.js';
import { TENANT_OBJECT_TABLES } from './tenant-objects.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The audit action of an attempt on another organisation's object. */
export const CROSS_TENANT_ACTION = 'crossTenant.attempt';

/**
 * When a signed-in caller names an object in a path and is told it does not exist (404), the object may
 * exist in another organisation: that organisation's log gets an event saying who tried, from which
 * organisation, through which route, on which object. The caller's answer is the same 404 as for an id
 * that exists nowhere, and costs the same: the ids are looked up (one round trip of primary-key probes)
 * for every such 404 before it is sent, and the event is written after it has gone.
 */
export function installCrossTenantAudit(
  app: FastifyInstance,
  audit: Pick<AuditRepository, 'ownersOf' | 'membershipsAmong' | 'insert'>,
): void {
  const found = new WeakMap<FastifyRequest, OwnedObject[]>();
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode !== 404 || request.principal === undefined) return;
    const params = (request.params ?? {}) as Record<string, unknown>;
    const ids = Object.values(params).filter((v): v is string => typeof v === 'string' && UUID.test(v));
    if (ids.length === 0) return;
    try {
      const owners = await audit.ownersOf(ids, TENANT_OBJECT_TABLES);
      if (owners.length > 0) found.set(request, owners);
    } catch (e: unknown) {
      request.log.error({ err: e }, 'could not look up the owners of the objects a 404 named');
    }
  });
  app.addHook('onResponse', async (request, reply) => {
    const owners = found.get(request);
    const principal = request.principal;
    if (owners === undefined || principal === undefined) return;
    const callerOrganization = request.tenant?.organizationId ?? null;
    try {
      // A user who belongs to the owner organisation only chose another tenant: not an attempt.
      const own =
        principal.kind === 'session'
          ? await audit.membershipsAmong(
              principal.userId,
              owners.map((o) => o.organizationId),
            )
          : new Set([principal.organizationId]);
      for (const owner of owners) {
        if (owner.organizationId === callerOrganization || own.has(owner.organizationId)) continue;
        await audit.insert({
          organizationId: owner.organizationId,
          actorKind: principal.kind,
          actorId: actorId(principal),
          action: CROSS_TENANT_ACTION,
          targetType: owner.kind,
          targetId: owner.id,
          statusCode: reply.statusCode,
          requestId: request.id,
          ip: clientAddress(request),
          actorOrganizationId: callerOrganization,
          route: routeOf(request),
        });
      }
    } catch (e: unknown) {
      request.log.error({ err: e }, 'could not record an attempt on another organization’s object');
    }
  });
}
