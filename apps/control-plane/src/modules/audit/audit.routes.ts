import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { AuditRepository } from './audit.repository.js';

const auditEvent = z
  .object({
    id: z.string(),
    organizationId: z.string().nullable(),
    actorKind: z.string(),
    actorId: z.string().nullable(),
    action: z.string(),
    targetType: z.string().nullable(),
    targetId: z.string().nullable(),
    statusCode: z.number().int(),
    requestId: z.string(),
    ip: z.string(),
    actorOrganizationId: z
      .string()
      .nullable()
      .describe(
        "Set when the actor belongs to another organization: it named one of this organization's objects.",
      ),
    route: z.string().nullable(),
    createTime: z.string(),
  })
  .meta({ id: 'AuditEvent' });

export const auditRoutes: FastifyPluginCallbackZod<{ audit: Pick<AuditRepository, 'list'> }> = (
  app,
  { audit },
  done,
) => {
  app.get(
    '/v1/audit-events',
    {
      config: { access: { kind: 'tenant', minRole: 'admin' } },
      schema: {
        tags: ['AuditService'],
        summary: "The organization's audit log, newest first (admins only).",
        querystring: pageQuery.extend({ action: z.string().max(100).optional() }),
        response: { 200: z.object({ events: z.array(auditEvent), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { action, ...page } = request.query;
      const result = await audit.list(tenantOf(request).organizationId, { action }, page);
      return {
        totalCount: result.totalCount,
        events: result.items.map(({ createdAt, ...e }) => ({ ...e, createTime: createdAt.toISOString() })),
      };
    },
  );
  done();
};
