import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { actorId, principalOf, tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { Secret, SecretService } from './secret.service.js';
import { templateVariableKey, templateVariableValue } from './template-variable.js';

/** The value is write-only: no response schema of these routes has a place for it (DESIGN §4.5). */
const secretView = z
  .object({
    id: z.string(),
    key: z.string(),
    organizationId: z.string(),
    createdBy: z.string().nullable(),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'Secret' });

function toSecretView(s: Secret): z.infer<typeof secretView> {
  return {
    id: s.id,
    key: s.key,
    organizationId: s.organizationId,
    createdBy: s.createdBy,
    createTime: s.createdAt.toISOString(),
    updateTime: s.updatedAt.toISOString(),
  };
}

const secretValue = templateVariableValue.refine((value) => value !== '', 'must not be empty');
const TENANT: RouteAccess = { kind: 'tenant' };
const tags = ['SecretService'];

export const secretRoutes: FastifyPluginCallbackZod<{ secrets: SecretService }> = (
  app,
  { secrets },
  done,
) => {
  app.get(
    '/v1/secrets',
    {
      config: { access: TENANT },
      schema: {
        tags,
        querystring: pageQuery,
        response: { 200: z.object({ secrets: z.array(secretView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await secrets.list(tenantOf(request).organizationId, request.query);
      return { secrets: result.items.map(toSecretView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/secrets',
    {
      config: { access: TENANT, audit: 'secret.create' },
      schema: {
        tags,
        summary: 'Stores a secret, encrypted; its value can be replaced but never read back.',
        body: z.strictObject({ key: templateVariableKey, value: secretValue }),
        response: { 201: z.object({ secret: secretView }) },
      },
    },
    async (request, reply) => {
      const secret = await secrets.create(
        tenantOf(request).organizationId,
        request.body,
        actorId(principalOf(request)),
      );
      request.auditTarget = { type: 'secret', id: secret.id };
      return reply.status(201).send({ secret: toSecretView(secret) });
    },
  );

  app.get(
    '/v1/secrets/:id',
    {
      config: { access: TENANT },
      schema: { tags, params: idParams, response: { 200: z.object({ secret: secretView }) } },
    },
    async (request) => ({
      secret: toSecretView(await secrets.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/secrets/:id',
    {
      config: { access: TENANT, audit: 'secret.update' },
      schema: {
        tags,
        summary: 'Replaces the value of a secret.',
        params: idParams,
        body: z.strictObject({ value: secretValue }),
        response: { 200: z.object({ secret: secretView }) },
      },
    },
    async (request) => ({
      secret: toSecretView(
        await secrets.updateValue(tenantOf(request).organizationId, request.params.id, request.body.value),
      ),
    }),
  );

  app.delete(
    '/v1/secrets/:id',
    {
      config: { access: TENANT, audit: 'secret.delete' },
      schema: { tags, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await secrets.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
