import { NODE_PLACEMENT_STRATEGIES, type PlacementPolicy } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { PlacementPolicyService } from './placement-policy.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['NodePlacementService'];
/** More than any provider has regions; it bounds the request. */
const MAX_REGION_OVERRIDES = 500;

const strategy = z.enum(NODE_PLACEMENT_STRATEGIES);

const policyView = z
  .object({
    defaultStrategy: strategy,
    regionOverrides: z.array(z.object({ regionId: z.string(), strategy })),
  })
  .meta({ id: 'NodePlacementPolicy' });

const policyResponse = z.object({ policy: policyView });

const putPolicyBody = z.strictObject({
  defaultStrategy: strategy.describe('How VMs are placed in regions without an override.'),
  regionOverrides: z
    .array(z.strictObject({ regionId: z.uuid(), strategy }))
    .max(MAX_REGION_OVERRIDES)
    .default([])
    .describe('Another strategy for some of your regions, at most one per region.'),
});

function toPolicyView(p: PlacementPolicy): z.infer<typeof policyView> {
  return {
    defaultStrategy: p.defaultStrategy,
    regionOverrides: p.regionOverrides.map((o) => ({ regionId: o.regionId, strategy: o.strategy })),
  };
}

export const placementPolicyRoutes: FastifyPluginCallbackZod<{ policies: PlacementPolicyService }> = (
  app,
  { policies },
  done,
) => {
  app.get(
    '/v1/node-placement-policy',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: 'How new VMs choose among the nodes of a plan that can take them.',
        description: 'An organisation that never set a policy places by FIRST_STABLE everywhere.',
        response: { 200: policyResponse },
      },
    },
    async (request) => ({ policy: toPolicyView(await policies.get(tenantOf(request).organizationId)) }),
  );

  app.put(
    '/v1/node-placement-policy',
    {
      config: { access: PROVIDER, audit: 'node-placement-policy.update' },
      schema: {
        tags: TAGS,
        summary: 'Replaces the placement policy: the default strategy and every region override.',
        description:
          'FIRST_STABLE fills the oldest node first; ROUND_ROBIN takes turns per plan; LEAST_ASSIGNED_VMS takes the node with the fewest VMs; RANDOM any. Only nodes that are ready and have capacity left are ever chosen.',
        body: putPolicyBody,
        response: { 200: policyResponse },
      },
    },
    async (request) => {
      const { organizationId } = tenantOf(request);
      request.auditTarget = { type: 'node_placement_policy', id: organizationId };
      return { policy: toPolicyView(await policies.put(organizationId, request.body)) };
    },
  );
  done();
};
