import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { toRegionView } from '../regions/index.js';
import {
  createNodeBody,
  expandedRegionView,
  listNodesQuery,
  nodeView,
  toNodeView,
  updateNodeBody,
} from './node.schemas.js';
import type { NodeService } from './node.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['NodeService'];
const SETTINGS_APPLY_TO_NEW_VMS =
  'VM provisioning settings (network, MAC prefix, CPU type, storage) apply to VMs ordered afterwards; existing VMs keep the settings they were created with.';

const nodeResponse = z.object({ node: nodeView });

export const nodeRoutes: FastifyPluginCallbackZod<{ nodes: NodeService }> = (app, { nodes }, done) => {
  app.get(
    '/v1/nodes',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        querystring: pageQuery.extend(listNodesQuery.shape),
        response: {
          200: z.object({
            nodes: z.array(z.object({ node: nodeView, expandedRegion: expandedRegionView.optional() })),
            totalCount: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { page, pageSize, expand = [], 'expand[]': expandBrackets = [], ...filter } = request.query;
      const expandRegion = [...expand, ...expandBrackets].includes('region');
      const result = await nodes.list(
        tenantOf(request).organizationId,
        filter,
        { page, pageSize },
        { region: expandRegion },
      );
      return {
        nodes: result.items.map(({ node, region }) => ({
          node: toNodeView(node),
          ...(region !== undefined && { expandedRegion: toRegionView(region) }),
        })),
        totalCount: result.totalCount,
      };
    },
  );

  app.post(
    '/v1/node',
    {
      config: { access: PROVIDER, audit: 'node.create' },
      schema: {
        tags: TAGS,
        summary: 'Adds a hypervisor host to one of your platforms.',
        description: `The name must be the host's name on the hypervisor; only its syntax is checked here. ${SETTINGS_APPLY_TO_NEW_VMS}`,
        body: createNodeBody,
        response: { 201: nodeResponse },
      },
    },
    async (request, reply) => {
      const node = await nodes.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'node', id: node.id };
      // Deviation: the NodeRings API answers a bare Success here, which leaves the caller without the new id.
      return reply.status(201).send({ node: toNodeView(node) });
    },
  );

  app.get(
    '/v1/node/:id',
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: idParams, response: { 200: nodeResponse } },
    },
    async (request) => ({
      node: toNodeView(await nodes.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/node/:id',
    {
      config: { access: PROVIDER, audit: 'node.update' },
      schema: {
        tags: TAGS,
        summary: 'Changes the fields given; fields left out keep their values.',
        description: SETTINGS_APPLY_TO_NEW_VMS,
        params: idParams,
        body: updateNodeBody,
        response: { 200: nodeResponse },
      },
    },
    async (request) => ({
      node: toNodeView(await nodes.update(tenantOf(request).organizationId, request.params.id, request.body)),
    }),
  );

  app.delete(
    '/v1/node/:id',
    {
      config: { access: PROVIDER, audit: 'node.delete' },
      schema: { tags: TAGS, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await nodes.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
