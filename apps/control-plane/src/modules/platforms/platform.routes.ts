import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { verbRoute } from '../../http/verb-route.js';
import { serviceStatus } from '../agents/index.js';
import { PLATFORM_DRIVERS, type Platform } from './platform.js';
import type { PlatformService } from './platform.service.js';

const platformView = z
  .object({
    id: z.string(),
    name: z.string(),
    endpointUrl: z.string(),
    driver: z.enum(PLATFORM_DRIVERS),
    agentId: z.string().nullable(),
    agentProvisioned: z.boolean(),
    serviceStatus,
    organizationId: z.string(),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'Platform' });

function toPlatformView(p: Platform): z.infer<typeof platformView> {
  return {
    id: p.id,
    name: p.name,
    endpointUrl: p.endpointUrl,
    driver: p.driver,
    agentId: p.agentId,
    agentProvisioned: p.agentProvisioned,
    serviceStatus: p.serviceStatus,
    organizationId: p.organizationId,
    createTime: p.createdAt.toISOString(),
    updateTime: p.updatedAt.toISOString(),
  };
}

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['PlatformService'];
const wrapped = z.object({ platform: platformView });
const platformName = z.string().trim().min(1).max(100);
/** Checked and normalised by the service, which says what is wrong with it. */
const endpointUrl = z.string().min(1).max(2048);
const agentBody = z.strictObject({ agentId: z.uuid() });

export const platformRoutes: FastifyPluginCallbackZod<{ platforms: PlatformService }> = (
  app,
  { platforms },
  done,
) => {
  app.get(
    '/v1/platforms',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        querystring: pageQuery.extend({
          serviceStatus: serviceStatus.optional(),
          search: z.string().max(100).optional(),
        }),
        response: { 200: z.object({ platforms: z.array(platformView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { serviceStatus: status, search, ...page } = request.query;
      const result = await platforms.list(
        tenantOf(request).organizationId,
        { ...(status !== undefined && { serviceStatus: status }), ...(search !== undefined && { search }) },
        page,
      );
      return { platforms: result.items.map(toPlatformView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/platform',
    {
      config: { access: PROVIDER, audit: 'platform.create' },
      schema: {
        tags: TAGS,
        // Deviation: the NodeRings API answers a bare Success; the new platform (and its id) is more use.
        summary: 'Registers a hypervisor API endpoint, once per organization.',
        body: z.strictObject({
          name: platformName,
          endpointUrl,
          driver: z.enum(PLATFORM_DRIVERS),
          agentId: z.uuid().optional(),
        }),
        response: { 201: wrapped },
      },
    },
    async (request, reply) => {
      const platform = await platforms.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'platform', id: platform.id };
      return reply.status(201).send({ platform: toPlatformView(platform) });
    },
  );

  app.get(
    '/v1/platform/:id',
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: idParams, response: { 200: wrapped } },
    },
    async (request) => ({
      platform: toPlatformView(await platforms.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/platform/:id',
    {
      config: { access: PROVIDER, audit: 'platform.update' },
      schema: {
        tags: TAGS,
        params: idParams,
        body: z.strictObject({ name: platformName.optional(), endpointUrl: endpointUrl.optional() }),
        response: { 200: wrapped },
      },
    },
    async (request) => ({
      platform: toPlatformView(
        await platforms.update(tenantOf(request).organizationId, request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/v1/platform/:id',
    {
      config: { access: PROVIDER, audit: 'platform.delete' },
      schema: { tags: TAGS, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await platforms.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.post(
    verbRoute('/v1/platforms/:id', 'AssignAgent'),
    {
      config: { access: PROVIDER, audit: 'platform.assignAgent' },
      schema: {
        tags: TAGS,
        summary: 'Links an agent of the organization; refused while another agent is linked.',
        params: idParams,
        body: agentBody,
        response: { 200: wrapped },
      },
    },
    async (request) => ({
      platform: toPlatformView(
        await platforms.assignAgent(
          tenantOf(request).organizationId,
          request.params.id,
          request.body.agentId,
        ),
      ),
    }),
  );

  app.post(
    verbRoute('/v1/platforms/:id', 'UnassignAgent'),
    {
      config: { access: PROVIDER, audit: 'platform.unassignAgent' },
      schema: {
        tags: TAGS,
        params: idParams,
        body: agentBody,
        response: { 200: wrapped },
      },
    },
    async (request) => ({
      platform: toPlatformView(
        await platforms.unassignAgent(
          tenantOf(request).organizationId,
          request.params.id,
          request.body.agentId,
        ),
      ),
    }),
  );
  done();
};
