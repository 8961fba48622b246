import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import {
  availableIpsQuery,
  availableIpsView,
  createPrefixBody,
  listPrefixesQuery,
  prefixView,
  reservedIpBody,
  reservedIpParams,
  reservedPrefixBody,
  toAvailableIpsView,
  toPrefixView,
  toUtilizationView,
  updatePrefixBody,
  utilizationView,
} from './ipam.schemas.js';
import type { PrefixService } from './prefix.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['IPAMService'];
const prefixResponse = z.object({ prefix: prefixView });
const emptyBody = z.strictObject({}).nullish();
const COUNTS_AS_STRINGS =
  'Counts are decimal strings (proto3 JSON int64): a /64 handing out single addresses holds 2^64 of them.';

export const prefixRoutes: FastifyPluginCallbackZod<{ prefixes: PrefixService }> = (
  app,
  { prefixes },
  done,
) => {
  app.get(
    '/v1/ipam/prefixes',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        description: 'IPAM lists answer `total`, as the NodeRings API does, not `totalCount`.',
        querystring: listPrefixesQuery,
        response: { 200: z.object({ prefixes: z.array(prefixView), total: z.number().int() }) },
      },
    },
    async (request) => {
      const { filterNetworkId, ...page } = request.query;
      const result = await prefixes.list(
        tenantOf(request).organizationId,
        { networkId: filterNetworkId },
        page,
      );
      return { prefixes: result.items.map(toPrefixView), total: result.totalCount };
    },
  );

  app.post(
    '/v1/ipam/prefixes',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.create' },
      schema: {
        tags: TAGS,
        summary: 'Adds a pool of addresses VMs are given from.',
        description:
          'The gateway must be a usable host of the CIDR; IPv6 needs vmAssignmentPrefixLength; reservations must lie inside the CIDR; prefixes of one organization never overlap (409).',
        body: createPrefixBody,
        response: { 201: prefixResponse },
      },
    },
    async (request, reply) => {
      const prefix = await prefixes.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'ipam_prefix', id: prefix.id };
      return reply.status(201).send({ prefix: toPrefixView(prefix) });
    },
  );

  app.get(
    '/v1/ipam/prefixes/:id',
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: idParams, response: { 200: prefixResponse } },
    },
    async (request) => ({
      prefix: toPrefixView(await prefixes.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/ipam/prefixes/:id',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.update' },
      schema: {
        tags: TAGS,
        summary: 'Changes the fields given; the prefix is validated again as a whole.',
        description:
          'Refused (412) when an allocated address would fall outside the new CIDR, onto a reservation or the gateway, or when vmAssignmentPrefixLength changes under allocations.',
        params: idParams,
        body: updatePrefixBody,
        response: { 200: prefixResponse },
      },
    },
    async (request) => ({
      prefix: toPrefixView(
        await prefixes.update(tenantOf(request).organizationId, request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/v1/ipam/prefixes/:id',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes a prefix none of whose addresses is allocated (412 otherwise).',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await prefixes.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.get(
    '/v1/ipam/prefixes/:id/available-ips',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: 'The lowest free slots of the prefix and its counts.',
        description: COUNTS_AS_STRINGS,
        params: idParams,
        querystring: availableIpsQuery,
        response: { 200: availableIpsView },
      },
    },
    async (request) => {
      const { addresses, usage } = await prefixes.available(
        tenantOf(request).organizationId,
        request.params.id,
        request.query.limit,
      );
      return toAvailableIpsView(addresses, usage);
    },
  );

  app.get(
    '/v1/ipam/prefixes/:id/utilization',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        description: COUNTS_AS_STRINGS,
        params: idParams,
        response: { 200: utilizationView },
      },
    },
    async (request) =>
      toUtilizationView(await prefixes.usage(tenantOf(request).organizationId, request.params.id)),
  );

  app.post(
    '/v1/ipam/prefixes/:id/reserved-ips',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.reserveIp' },
      schema: {
        tags: TAGS,
        summary: 'Reserves an address of the prefix (an allocated one is refused with 412).',
        params: idParams,
        body: reservedIpBody,
        response: { 200: prefixResponse },
      },
    },
    async (request) => ({
      prefix: toPrefixView(
        await prefixes.reserveIp(tenantOf(request).organizationId, request.params.id, request.body.ip),
      ),
    }),
  );

  app.delete(
    '/v1/ipam/prefixes/:id/reserved-ips/:ip',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.unreserveIp' },
      schema: {
        tags: TAGS,
        summary: 'Makes a reserved address available again.',
        params: reservedIpParams,
        response: { 200: prefixResponse },
      },
    },
    async (request) => ({
      prefix: toPrefixView(
        await prefixes.unreserveIp(tenantOf(request).organizationId, request.params.id, request.params.ip),
      ),
    }),
  );

  app.post(
    '/v1/ipam/prefixes/:id/reserved-ips/clear-all',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.clearReservedIps' },
      schema: {
        tags: TAGS,
        summary: 'Makes every reserved address available again (reserved prefixes stay).',
        params: idParams,
        body: emptyBody,
        response: { 200: prefixResponse },
      },
    },
    async (request) => ({
      prefix: toPrefixView(
        await prefixes.clearReservedIps(tenantOf(request).organizationId, request.params.id),
      ),
    }),
  );

  app.post(
    '/v1/ipam/prefixes/:id/reserved-ips/reserve-all',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.reserveAllIps' },
      schema: {
        tags: TAGS,
        summary: 'Reserves every free address, so that nothing more is allocated from the prefix.',
        description:
          'Refused (412) when that would make more reserved addresses than a prefix may hold; reserve prefixes then.',
        params: idParams,
        body: emptyBody,
        response: { 200: prefixResponse },
      },
    },
    async (request) => ({
      prefix: toPrefixView(await prefixes.reserveAllIps(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.post(
    '/v1/ipam/prefixes/:id/reserved-prefixes',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.reservePrefix' },
      schema: {
        tags: TAGS,
        summary: 'Reserves a range of the prefix (412 if it covers an allocated address).',
        params: idParams,
        body: reservedPrefixBody,
        response: { 200: prefixResponse },
      },
    },
    async (request) => ({
      prefix: toPrefixView(
        await prefixes.reservePrefix(tenantOf(request).organizationId, request.params.id, request.body.cidr),
      ),
    }),
  );

  app.delete(
    '/v1/ipam/prefixes/:id/reserved-prefixes',
    {
      config: { access: PROVIDER, audit: 'ipam_prefix.unreservePrefix' },
      schema: {
        tags: TAGS,
        summary: 'Makes a reserved range available again; the body names it, as the NodeRings API does.',
        params: idParams,
        body: reservedPrefixBody,
        response: { 200: prefixResponse },
      },
    },
    async (request) => ({
      prefix: toPrefixView(
        await prefixes.unreservePrefix(
          tenantOf(request).organizationId,
          request.params.id,
          request.body.cidr,
        ),
      ),
    }),
  );
  done();
};
