import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { ORDER_REFUSAL_RETENTION_DAYS, type OrderRefusalRepository } from './order-refusal.repository.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };

const orderRefusalView = z
  .object({
    id: z.string(),
    planId: z.string(),
    planCode: z.string(),
    regionId: z.string().nullable().describe('The region ordered in; null once that region is deleted.'),
    summary: z.string().describe('Why no node could take the order, naming your infrastructure.'),
    nodes: z.array(z.object({ nodeId: z.string(), nodeName: z.string(), reasons: z.array(z.string()) })),
    createTime: z.iso.datetime(),
  })
  .meta({ id: 'OrderRefusal' });

export const orderRefusalRoutes: FastifyPluginCallbackZod<{
  refusals: Pick<OrderRefusalRepository, 'list'>;
}> = (app, { refusals }, done) => {
  app.get(
    '/v1/provider/order-refusals',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['VirtualMachineService'],
        summary: "Orders of your plans that no node could take, newest first, with each node's reasons.",
        description: `The customer was told only that the plan had no capacity in the region; refusals are kept ${String(ORDER_REFUSAL_RETENTION_DAYS)} days.`,
        querystring: pageQuery,
        response: {
          200: z.object({ orderRefusals: z.array(orderRefusalView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const result = await refusals.list(tenantOf(request).organizationId, request.query);
      return {
        totalCount: result.totalCount,
        orderRefusals: result.items.map((r) => ({
          id: r.id,
          planId: r.planId,
          planCode: r.planCode,
          regionId: r.regionId,
          summary: r.summary,
          nodes: r.nodes.map((n) => ({ ...n, reasons: [...n.reasons] })),
          createTime: r.createdAt.toISOString(),
        })),
      };
    },
  );
  done();
};
