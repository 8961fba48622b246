import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import {
  assignNodesBody,
  createNetworkBody,
  networkNodesResponse,
  networkView,
  toNetworkView,
  updateNetworkBody,
} from './ipam.schemas.js';
import type { NetworkService } from './network.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['IPAMService'];
const networkResponse = z.object({ network: networkView });
const emptyBody = z.strictObject({}).nullish();

export const networkRoutes: FastifyPluginCallbackZod<{ networks: NetworkService }> = (
  app,
  { networks },
  done,
) => {
  app.get(
    '/v1/ipam/networks',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        description: 'IPAM lists answer `total`, as the NodeRings API does, not `totalCount`.',
        querystring: pageQuery,
        response: { 200: z.object({ networks: z.array(networkView), total: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await networks.list(tenantOf(request).organizationId, request.query);
      return { networks: result.items.map(toNetworkView), total: result.totalCount };
    },
  );

  app.post(
    '/v1/ipam/networks',
    {
      config: { access: PROVIDER, audit: 'ipam_network.create' },
      schema: {
        tags: TAGS,
        summary: 'Creates a network: the nameservers and MAC prefix of the VMs on its nodes.',
        body: createNetworkBody,
        response: { 201: networkResponse },
      },
    },
    async (request, reply) => {
      const network = await networks.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'ipam_network', id: network.id };
      return reply.status(201).send({ network: toNetworkView(network) });
    },
  );

  app.get(
    '/v1/ipam/networks/:id',
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: idParams, response: { 200: networkResponse } },
    },
    async (request) => ({
      network: toNetworkView(await networks.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/ipam/networks/:id',
    {
      config: { access: PROVIDER, audit: 'ipam_network.update' },
      schema: {
        tags: TAGS,
        summary: 'Changes the fields given; a new MAC prefix applies to VMs ordered afterwards.',
        params: idParams,
        body: updateNetworkBody,
        response: { 200: networkResponse },
      },
    },
    async (request) => ({
      network: toNetworkView(
        await networks.update(tenantOf(request).organizationId, request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/v1/ipam/networks/:id',
    {
      config: { access: PROVIDER, audit: 'ipam_network.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes a network without nodes or prefixes.',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await networks.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/v1/ipam/networks/:id/assign-node',
    {
      config: { access: PROVIDER, audit: 'ipam_network.assignNode' },
      schema: {
        tags: TAGS,
        summary: 'Puts nodes on the network; a node has one network, so one on another is refused.',
        description: 'All or nothing: an unknown node (404) or one on another network (412) changes nothing.',
        params: idParams,
        body: assignNodesBody,
        response: { 200: networkResponse },
      },
    },
    async (request) => ({
      network: toNetworkView(
        await networks.assignNodes(tenantOf(request).organizationId, request.params.id, request.body.nodeIds),
      ),
    }),
  );

  app.get(
    '/v1/ipam/networks/:id/nodes',
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: idParams, response: { 200: networkNodesResponse } },
    },
    async (request) => {
      const nodes = await networks.nodesOf(tenantOf(request).organizationId, request.params.id);
      return { nodes: nodes.map((n) => ({ ...n })), total: nodes.length };
    },
  );

  app.get(
    '/v1/ipam/nodes/:id/network',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: 'The network of a node; `network` is absent when the node has none.',
        params: idParams,
        response: { 200: z.object({ network: networkView.optional() }) },
      },
    },
    async (request) => {
      const network = await networks.networkOfNode(tenantOf(request).organizationId, request.params.id);
      return network === undefined ? {} : { network: toNetworkView(network) };
    },
  );

  app.post(
    '/v1/ipam/nodes/:id/unassign-network',
    {
      config: { access: PROVIDER, audit: 'node.unassignNetwork' },
      schema: {
        tags: TAGS,
        summary: 'Takes the node off its network (a node on none stays so).',
        params: idParams,
        body: emptyBody,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await networks.unassignNode(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
