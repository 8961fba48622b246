import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { templateVariableKey, templateVariableValue } from '../secrets/index.js';
import type { EnvironmentVariable, EnvironmentVariableService } from './environment-variable.service.js';

const environmentVariableView = z
  .object({
    id: z.string(),
    key: z.string(),
    value: z.string(),
    organizationId: z.string(),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'EnvironmentVariable' });

function toEnvironmentVariableView(v: EnvironmentVariable): z.infer<typeof environmentVariableView> {
  return {
    id: v.id,
    key: v.key,
    value: v.value,
    organizationId: v.organizationId,
    createTime: v.createdAt.toISOString(),
    updateTime: v.updatedAt.toISOString(),
  };
}

const TENANT: RouteAccess = { kind: 'tenant' };
const tags = ['EnvironmentVariableService'];
const single = z.object({ environmentVariable: environmentVariableView });

export const environmentVariableRoutes: FastifyPluginCallbackZod<{
  variables: EnvironmentVariableService;
}> = (app, { variables }, done) => {
  app.get(
    '/v1/environment-variables',
    {
      config: { access: TENANT },
      schema: {
        tags,
        querystring: pageQuery.extend({
          filterKey: z.string().max(128).optional().describe('Only variables whose key contains this text.'),
        }),
        response: {
          200: z.object({
            environmentVariables: z.array(environmentVariableView),
            totalCount: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { filterKey, ...page } = request.query;
      const result = await variables.list(tenantOf(request).organizationId, { key: filterKey }, page);
      return {
        environmentVariables: result.items.map(toEnvironmentVariableView),
        totalCount: result.totalCount,
      };
    },
  );

  app.post(
    '/v1/environment-variables',
    {
      config: { access: TENANT, audit: 'environmentVariable.create' },
      schema: {
        tags,
        summary: 'Creates a variable for cloud-init templates; unlike a secret, its value can be read back.',
        body: z.strictObject({ key: templateVariableKey, value: templateVariableValue }),
        response: { 201: single },
      },
    },
    async (request, reply) => {
      const variable = await variables.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'environmentVariable', id: variable.id };
      return reply.status(201).send({ environmentVariable: toEnvironmentVariableView(variable) });
    },
  );

  app.get(
    '/v1/environment-variables/:id',
    {
      config: { access: TENANT },
      schema: { tags, params: idParams, response: { 200: single } },
    },
    async (request) => ({
      environmentVariable: toEnvironmentVariableView(
        await variables.get(tenantOf(request).organizationId, request.params.id),
      ),
    }),
  );

  app.patch(
    '/v1/environment-variables/:id',
    {
      config: { access: TENANT, audit: 'environmentVariable.update' },
      schema: {
        tags,
        params: idParams,
        body: z.strictObject({ value: templateVariableValue }),
        response: { 200: single },
      },
    },
    async (request) => ({
      environmentVariable: toEnvironmentVariableView(
        await variables.updateValue(tenantOf(request).organizationId, request.params.id, request.body.value),
      ),
    }),
  );

  app.delete(
    '/v1/environment-variables/:id',
    {
      config: { access: TENANT, audit: 'environmentVariable.delete' },
      schema: { tags, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await variables.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
