import { DISTROS, MAX_VMID, MIN_VMID, proxmoxCpuTypeProblem } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { VmTemplate } from './vm-template.repository.js';
import type { VmTemplateService } from './vm-template.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['VMTemplateService'];
const MAX_NAME_LENGTH = 100;

const proxmoxCpuType = z
  .string()
  .superRefine((value, ctx) => {
    const problem = proxmoxCpuTypeProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  })
  .describe('The CPU type clones get; host when left out.');

const editableFields = {
  name: z.string().min(1).max(MAX_NAME_LENGTH),
  distro: z.enum(DISTROS),
  templateId: z
    .number()
    .int()
    .min(MIN_VMID)
    .max(MAX_VMID)
    .describe('The Proxmox VMID of the template VM on the node.'),
  cloudInitTemplateId: z.uuid().describe('One of your cloud-init templates (copy a seed first).'),
  proxmoxCpuType,
};

const createBody = z.strictObject({
  ...editableFields,
  nodeId: z.uuid(),
  proxmoxCpuType: proxmoxCpuType.optional(),
});

const updateBody = z.strictObject(editableFields).partial();

const vmTemplateView = z
  .object({
    id: z.string(),
    name: z.string(),
    distro: z.enum(DISTROS),
    templateId: z.number().int(),
    nodeId: z.string(),
    nodeName: z.string(),
    platformId: z.string(),
    platformName: z.string(),
    cloudInitTemplateId: z.string(),
    proxmoxCpuType: z.string(),
    organizationId: z.string(),
    createTime: z.string(),
    updateTime: z.string(),
  })
  .meta({ id: 'VMTemplate' });

function toVmTemplateView(t: VmTemplate): z.infer<typeof vmTemplateView> {
  return {
    id: t.id,
    name: t.name,
    distro: t.distro,
    templateId: t.templateVmid,
    nodeId: t.nodeId,
    nodeName: t.nodeName,
    platformId: t.platformId,
    platformName: t.platformName,
    cloudInitTemplateId: t.cloudInitTemplateId,
    proxmoxCpuType: t.proxmoxCpuType,
    organizationId: t.organizationId,
    createTime: t.createdAt.toISOString(),
    updateTime: t.updatedAt.toISOString(),
  };
}

const vmTemplateResponse = z.object({ vmTemplate: vmTemplateView });

function fieldsOf<T extends { templateId?: number | undefined }>(body: T) {
  const { templateId, ...rest } = body;
  return { ...rest, templateVmid: templateId };
}

export const vmTemplateRoutes: FastifyPluginCallbackZod<{ vmTemplates: VmTemplateService }> = (
  app,
  { vmTemplates },
  done,
) => {
  app.get(
    '/v1/vmtemplates',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: "The VM templates, by node name; a page never splits one node's templates.",
        description:
          'A page holds as many whole nodes as fit in pageSize templates (a node with more gets a page of its own), so pages can hold fewer than pageSize; totalPages counts them.',
        querystring: pageQuery.extend({
          search: z.string().max(100).optional().describe("A piece of the template's or its node's name."),
          nodeId: z.uuid().optional(),
          platformId: z.uuid().optional(),
          distro: z.enum(DISTROS).optional(),
        }),
        response: {
          200: z.object({
            vmTemplates: z.array(vmTemplateView),
            totalCount: z.number().int(),
            totalPages: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      const result = await vmTemplates.list(tenantOf(request).organizationId, filter, { page, pageSize });
      return {
        vmTemplates: result.items.map(toVmTemplateView),
        totalCount: result.totalCount,
        totalPages: result.totalPages,
      };
    },
  );

  app.post(
    '/v1/vmtemplate',
    {
      config: { access: PROVIDER, audit: 'vm_template.create' },
      schema: {
        tags: TAGS,
        summary: 'Registers a Proxmox template VM of a node for one distro (one per node and distro).',
        body: createBody,
        response: { 201: vmTemplateResponse },
      },
    },
    async (request, reply) => {
      const { templateId, ...rest } = request.body;
      const template = await vmTemplates.create(tenantOf(request).organizationId, {
        ...rest,
        templateVmid: templateId,
      });
      request.auditTarget = { type: 'vm_template', id: template.id };
      // Deviation: the NodeRings API answers a bare Success here, which leaves the caller without the new id.
      return reply.status(201).send({ vmTemplate: toVmTemplateView(template) });
    },
  );

  app.get(
    '/v1/vmtemplate/:id',
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: idParams, response: { 200: vmTemplateResponse } },
    },
    async (request) => ({
      vmTemplate: toVmTemplateView(
        await vmTemplates.get(tenantOf(request).organizationId, request.params.id),
      ),
    }),
  );

  app.patch(
    '/v1/vmtemplate/:id',
    {
      config: { access: PROVIDER, audit: 'vm_template.update' },
      schema: {
        tags: TAGS,
        summary: 'Changes the fields given; the node cannot change.',
        description: 'VMs that exist keep what they were cloned from.',
        params: idParams,
        body: updateBody,
        response: { 200: vmTemplateResponse },
      },
    },
    async (request) => ({
      vmTemplate: toVmTemplateView(
        await vmTemplates.update(tenantOf(request).organizationId, request.params.id, fieldsOf(request.body)),
      ),
    }),
  );

  app.delete(
    '/v1/vmtemplate/:id',
    {
      config: { access: PROVIDER, audit: 'vm_template.delete' },
      schema: { tags: TAGS, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await vmTemplates.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
