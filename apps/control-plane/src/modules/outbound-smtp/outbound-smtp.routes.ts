import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { SMTP_OUTBOUND_VM_ACTIONS } from './outbound-smtp-policy.js';
import type { OutboundSmtpService, VmSmtpPolicy } from './outbound-smtp.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['ProviderNetworkService'];
const BASE = '/v1/provider/network';

const defaultView = z
  .object({ blockByDefault: z.boolean().describe('Drop outbound TCP 25, 465 and 587 of VMs that inherit.') })
  .meta({ id: 'SmtpOutboundPolicy' });
const defaultResponse = z.object({ policy: defaultView });

const vmPolicyView = z
  .object({
    vmId: z.string(),
    hostname: z.string(),
    clientOrganizationId: z.string(),
    action: z.enum(SMTP_OUTBOUND_VM_ACTIONS),
    effectiveBlocked: z.boolean().describe('What the VM gets: its action, or the default when it inherits.'),
  })
  .meta({ id: 'SmtpOutboundVmPolicy' });
const vmPolicyResponse = z.object({ policy: vmPolicyView });
const vmParams = z.object({ vmId: z.uuid() });

function toVmPolicyView(p: VmSmtpPolicy): z.infer<typeof vmPolicyView> {
  return {
    vmId: p.vmId,
    hostname: p.hostname,
    clientOrganizationId: p.clientOrganizationId,
    action: p.action,
    effectiveBlocked: p.effectiveBlocked,
  };
}

export const outboundSmtpRoutes: FastifyPluginCallbackZod<{ smtp: OutboundSmtpService }> = (
  app,
  { smtp },
  done,
) => {
  app.get(
    `${BASE}/smtp-outbound-policy`,
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: 'Whether your VMs’ outbound SMTP is blocked unless you decide otherwise per VM.',
        description: 'A provider that never set it blocks.',
        response: { 200: defaultResponse },
      },
    },
    async (request) => ({
      policy: { blockByDefault: await smtp.blockByDefault(tenantOf(request).organizationId) },
    }),
  );

  app.put(
    `${BASE}/smtp-outbound-policy`,
    {
      config: { access: PROVIDER, audit: 'smtp-outbound-policy.update' },
      schema: {
        tags: TAGS,
        summary: 'Sets the default; every VM that inherits it gets the change.',
        body: z.strictObject({ blockByDefault: z.boolean() }),
        response: { 200: defaultResponse },
      },
    },
    async (request) => {
      const { organizationId } = tenantOf(request);
      request.auditTarget = { type: 'smtp-outbound-policy', id: organizationId };
      return {
        policy: { blockByDefault: await smtp.setBlockByDefault(organizationId, request.body.blockByDefault) },
      };
    },
  );

  app.get(
    `${BASE}/smtp-outbound-policies`,
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: 'Each VM on your infrastructure with your decision and what it comes to, by hostname.',
        querystring: pageQuery.extend({
          search: z.string().max(253).optional().describe('A part of the hostname, or the VM id.'),
        }),
        response: { 200: z.object({ policies: z.array(vmPolicyView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { search, ...page } = request.query;
      const result = await smtp.list(tenantOf(request).organizationId, search, page);
      return { policies: result.items.map(toVmPolicyView), totalCount: result.totalCount };
    },
  );

  app.get(
    `${BASE}/smtp-outbound-policies/:vmId`,
    {
      config: { access: PROVIDER },
      schema: { tags: TAGS, params: vmParams, response: { 200: vmPolicyResponse } },
    },
    async (request) => ({
      policy: toVmPolicyView(await smtp.getVm(tenantOf(request).organizationId, request.params.vmId)),
    }),
  );

  app.put(
    `${BASE}/smtp-outbound-policies/:vmId`,
    {
      config: { access: PROVIDER, audit: 'smtp-outbound-vm-policy.update' },
      schema: {
        tags: TAGS,
        summary: 'Allows or blocks one VM’s outbound SMTP, or has it follow the default (INHERIT).',
        params: vmParams,
        body: z.strictObject({ action: z.enum(SMTP_OUTBOUND_VM_ACTIONS) }),
        response: { 200: vmPolicyResponse },
      },
    },
    async (request) => {
      const { vmId } = request.params;
      request.auditTarget = { type: 'virtual-machine', id: vmId };
      return {
        policy: toVmPolicyView(await smtp.setVm(tenantOf(request).organizationId, vmId, request.body.action)),
      };
    },
  );

  done();
};
