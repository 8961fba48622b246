import { TEMPLATE_VARIABLES } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { verbRoute } from '../../http/verb-route.js';
import type { CloudInitCompileService } from './cloud-init-compile.service.js';
import {
  cloudInitTemplateView,
  createCloudInitTemplateBody,
  listCloudInitTemplatesQuery,
  renderedView,
  renderSampleBody,
  toCloudInitTemplateView,
  updateCloudInitTemplateBody,
} from './cloud-init-template.schemas.js';
import type { CloudInitTemplateService } from './cloud-init-template.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['CloudInitTemplateService'];
const LANGUAGE = `Documents are YAML with \`{{ name }}\` substitutions, values taken when a VM is ordered: ${TEMPLATE_VARIABLES.map((v) => `${v.name} (${v.description})`).join('; ')}. Values are always inserted as YAML data; \`{{ '{{' }}\` writes a literal \`{{\`. Comments are not templated.`;

const templateResponse = z.object({ cloudInitTemplate: cloudInitTemplateView });

export const cloudInitTemplateRoutes: FastifyPluginCallbackZod<{
  templates: CloudInitTemplateService;
  compiler: CloudInitCompileService;
}> = (app, { templates, compiler }, done) => {
  app.get(
    '/v1/cloudinittemplates',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: "Your cloud-init templates and the platform's seed templates (seeds first).",
        querystring: pageQuery.extend(listCloudInitTemplatesQuery.shape),
        response: {
          200: z.object({ cloudInitTemplates: z.array(cloudInitTemplateView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const { filterIsTemplate, ...page } = request.query;
      const result = await templates.list(
        tenantOf(request).organizationId,
        { isTemplate: filterIsTemplate },
        page,
      );
      return { cloudInitTemplates: result.items.map(toCloudInitTemplateView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/cloudinittemplate',
    {
      config: { access: PROVIDER, audit: 'cloud_init_template.create' },
      schema: {
        tags: TAGS,
        summary: 'Creates a cloud-init template, or copies a seed (copyFromId).',
        description: `${LANGUAGE} A template is checked as it is saved: YAML, #cloud-config, variable names (not yet whether a named secret exists).`,
        body: createCloudInitTemplateBody,
        response: { 201: templateResponse },
      },
    },
    async (request, reply) => {
      const template = await templates.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'cloud_init_template', id: template.id };
      // Deviation: the NodeRings API answers a bare Success here, which leaves the caller without the new id.
      return reply.status(201).send({ cloudInitTemplate: toCloudInitTemplateView(template) });
    },
  );

  app.get(
    '/v1/cloudinittemplate/:id',
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: idParams, response: { 200: templateResponse } },
    },
    async (request) => ({
      cloudInitTemplate: toCloudInitTemplateView(
        await templates.get(tenantOf(request).organizationId, request.params.id),
      ),
    }),
  );

  app.patch(
    '/v1/cloudinittemplate/:id',
    {
      config: { access: PROVIDER, audit: 'cloud_init_template.update' },
      schema: {
        tags: TAGS,
        summary: 'Changes the fields given; seed templates cannot be changed (412).',
        description: `${LANGUAGE} VMs that exist keep the cloud-init data they were created with.`,
        params: idParams,
        body: updateCloudInitTemplateBody,
        response: { 200: templateResponse },
      },
    },
    async (request) => ({
      cloudInitTemplate: toCloudInitTemplateView(
        await templates.update(tenantOf(request).organizationId, request.params.id, request.body),
      ),
    }),
  );

  app.delete(
    '/v1/cloudinittemplate/:id',
    {
      config: { access: PROVIDER, audit: 'cloud_init_template.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes a template no VM template uses (412 otherwise).',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await templates.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.post(
    verbRoute('/v1/cloudinittemplate/:id', 'render'),
    {
      // A preview changes nothing, so members may use it too.
      config: { access: { ...PROVIDER, minRole: 'member' }, audit: 'cloud_init_template.render' },
      schema: {
        tags: TAGS,
        summary: 'Compiles a template with sample values, to preview and validate it.',
        description:
          'Secrets appear as [secret KEY], never with their values; values left out get documentation addresses. A template that would not compile for an order answers 412 with each problem’s document, line and column.',
        params: idParams,
        body: renderSampleBody,
        response: { 200: renderedView },
      },
    },
    async (request) => {
      const rendered = await compiler.render(
        tenantOf(request).organizationId,
        request.params.id,
        request.body,
      );
      return {
        userData: rendered.userData,
        vendorData: rendered.vendorData ?? null,
        networkData: rendered.networkData ?? null,
        warnings: rendered.warnings.map((w) => ({ ...w })),
      };
    },
  );
  done();
};
