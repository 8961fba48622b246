import { cloudConfigWarnings } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { cloudConfigWarningView } from '../cloud-init-templates/index.js';
import type { CloudInitUserData } from './cloud-init-user-data.repository.js';
import type { CloudInitUserDataService } from './cloud-init-user-data.service.js';

const TENANT: RouteAccess = { kind: 'tenant' };
const TAGS = ['CloudInitUserDataService'];
const MAX_USER_DATA_LENGTH = 64 * 1024;

const editableFields = {
  name: z.string().min(1).max(100),
  userData: z
    .string()
    .min(1)
    .max(MAX_USER_DATA_LENGTH)
    .describe('Reaches the VM as it is: cloud-config, a script, or cloud-init Jinja.'),
  description: z.string().max(1000),
};

const profileView = z
  .object({
    id: z.string(),
    name: z.string(),
    userData: z.string(),
    description: z.string(),
    organizationId: z.string(),
    validationWarnings: z
      .array(cloudConfigWarningView)
      .describe(
        'Non-blocking: what cloud-init would likely not do as meant (no #cloud-config, unknown keys).',
      ),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'CloudInitUserData' });

function toProfileView(p: CloudInitUserData): z.infer<typeof profileView> {
  return {
    id: p.id,
    name: p.name,
    userData: p.userData,
    description: p.description,
    organizationId: p.organizationId,
    validationWarnings: cloudConfigWarnings(p.userData).map((w) => ({ ...w })),
    createTime: p.createdAt.toISOString(),
    updateTime: p.updatedAt.toISOString(),
  };
}

const profileResponse = z.object({ profile: profileView });

export const cloudInitUserDataRoutes: FastifyPluginCallbackZod<{ profiles: CloudInitUserDataService }> = (
  app,
  { profiles },
  done,
) => {
  app.get(
    '/v1/cloudinituserdata',
    {
      config: { access: TENANT },
      schema: {
        tags: TAGS,
        summary: 'Your saved user data, by name.',
        querystring: pageQuery,
        response: { 200: z.object({ profiles: z.array(profileView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await profiles.list(tenantOf(request).organizationId, request.query);
      return { profiles: result.items.map(toProfileView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/cloudinituserdata',
    {
      config: { access: TENANT, audit: 'cloud_init_user_data.create' },
      schema: {
        tags: TAGS,
        summary: 'Saves user data to order VMs with.',
        body: z.strictObject({ ...editableFields, description: editableFields.description.optional() }),
        response: { 201: profileResponse },
      },
    },
    async (request, reply) => {
      const profile = await profiles.create(tenantOf(request).organizationId, {
        ...request.body,
        description: request.body.description ?? '',
      });
      request.auditTarget = { type: 'cloud_init_user_data', id: profile.id };
      return reply.status(201).send({ profile: toProfileView(profile) });
    },
  );

  app.get(
    '/v1/cloudinituserdata/:id',
    {
      config: { access: TENANT },
      schema: { tags: TAGS, params: idParams, response: { 200: profileResponse } },
    },
    async (request) => ({
      profile: toProfileView(await profiles.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/cloudinituserdata/:id',
    {
      config: { access: TENANT, audit: 'cloud_init_user_data.update' },
      schema: {
        tags: TAGS,
        summary: 'Changes the fields given; VMs that exist keep the user data they were created with.',
        params: idParams,
        body: z.strictObject(editableFields).partial(),
        response: { 200: profileResponse },
      },
    },
    async (request) => ({
      profile: toProfileView(
        await profiles.update(tenantOf(request).organizationId, request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/v1/cloudinituserdata/:id',
    {
      config: { access: TENANT, audit: 'cloud_init_user_data.delete' },
      schema: { tags: TAGS, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await profiles.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
