import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import {
  addonView,
  createAddonBody,
  listAddonsQuery,
  toAddonView,
  updateAddonBody,
} from './addon.schemas.js';
import type { AddonService } from './addon.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['AddonService'];

const addonResponse = z.object({ addon: addonView });

export const addonRoutes: FastifyPluginCallbackZod<{ addons: AddonService }> = (app, { addons }, done) => {
  app.get(
    '/v1/addons',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: "Your organisation's addons; deleted ones are not listed.",
        querystring: pageQuery.extend(listAddonsQuery.shape),
        response: { 200: z.object({ addons: z.array(addonView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      const result = await addons.list(tenantOf(request).organizationId, filter, { page, pageSize });
      return { addons: result.items.map(toAddonView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/addons',
    {
      config: { access: PROVIDER, audit: 'addon.create' },
      schema: {
        tags: TAGS,
        summary: 'Creates a backup, snapshot or additional-IP addon.',
        body: createAddonBody,
        response: { 201: addonResponse },
      },
    },
    async (request, reply) => {
      const addon = await addons.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'addon', id: addon.id };
      // Deviation: the NodeRings API answers a bare Success here, which leaves the caller without the new id.
      return reply.status(201).send({ addon: toAddonView(addon) });
    },
  );

  app.get(
    '/v1/addons/:id',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: 'Reads an addon, deleted ones included (status STATUS_SOFT_DELETED).',
        params: idParams,
        response: { 200: addonResponse },
      },
    },
    async (request) => ({
      addon: toAddonView(await addons.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/addons/:id',
    {
      config: { access: PROVIDER, audit: 'addon.update' },
      schema: {
        tags: TAGS,
        summary:
          'Changes the fields given; fields left out keep their values. The code and type never change.',
        params: idParams,
        body: updateAddonBody,
        response: { 200: addonResponse },
      },
    },
    async (request) => ({
      addon: toAddonView(
        await addons.update(tenantOf(request).organizationId, request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/v1/addons/:id',
    {
      config: { access: PROVIDER, audit: 'addon.delete' },
      schema: {
        tags: TAGS,
        summary: 'Soft-deletes an addon: it is no longer listed or sold, and its code is free again.',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await addons.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
