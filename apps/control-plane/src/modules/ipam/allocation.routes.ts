import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { IpAllocationService } from './allocation.service.js';
import { allocationView, listAllocationsQuery, toAllocationView } from './ipam.schemas.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };

export const allocationRoutes: FastifyPluginCallbackZod<{ allocations: IpAllocationService }> = (
  app,
  { allocations },
  done,
) => {
  app.get(
    '/v1/ipam/allocations',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['IPAMService'],
        summary: 'The addresses handed to VMs, oldest first. Read-only: orders allocate and release them.',
        description: 'IPAM lists answer `total`, as the NodeRings API does, not `totalCount`.',
        querystring: listAllocationsQuery,
        response: { 200: z.object({ allocations: z.array(allocationView), total: z.number().int() }) },
      },
    },
    async (request) => {
      const { prefixId, status, ...page } = request.query;
      const result = await allocations.list(tenantOf(request).organizationId, { prefixId, status }, page);
      return { allocations: result.items.map(toAllocationView), total: result.totalCount };
    },
  );
  done();
};
