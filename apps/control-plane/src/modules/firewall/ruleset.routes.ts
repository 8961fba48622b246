import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { verbRoute } from '../../http/verb-route.js';
import { firewallName, ruleSetView, toRuleSetView } from './firewall.schemas.js';
import type { RuleSetService } from './ruleset.service.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const TAGS = ['FirewallService'];
const ATTACHMENT_FILTERS = [
  'FIREWALL_RULESET_ATTACHMENT_FILTER_ATTACHED',
  'FIREWALL_RULESET_ATTACHMENT_FILTER_UNATTACHED',
] as const;

const ruleSetResponse = z.object({ ruleset: ruleSetView });
const ruleSetBody = z.strictObject({ ruleset: z.strictObject({ name: firewallName }) });
const attachmentBody = z.strictObject({ rulesetId: z.uuid() });

export const ruleSetRoutes: FastifyPluginCallbackZod<{ rulesets: RuleSetService }> = (
  app,
  { rulesets },
  done,
) => {
  app.get(
    '/v1/firewall/rulesets',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: 'Your firewall rulesets by name, with the VMs each is attached to.',
        querystring: pageQuery.extend({
          name: z
            .string()
            .max(200)
            .optional()
            .describe('Only rulesets whose name contains this, ignoring case.'),
          filterAttachment: z.enum(ATTACHMENT_FILTERS).optional(),
        }),
        response: { 200: z.object({ rulesets: z.array(ruleSetView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { name, filterAttachment, ...page } = request.query;
      const result = await rulesets.list(
        tenantOf(request).organizationId,
        { nameContains: name, attachment: filterAttachment },
        page,
      );
      return { rulesets: result.items.map(toRuleSetView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/firewall/rulesets',
    {
      config: { access: CUSTOMER, audit: 'firewall-ruleset.create' },
      schema: {
        tags: TAGS,
        summary: 'Creates an empty ruleset; names are unique in your organisation.',
        description: 'Deviation: answers 201 with the ruleset instead of a bare Success.',
        body: ruleSetBody,
        response: { 201: ruleSetResponse },
      },
    },
    async (request, reply) => {
      const ruleset = await rulesets.create(tenantOf(request).organizationId, request.body.ruleset.name);
      request.auditTarget = { type: 'firewall-ruleset', id: ruleset.id };
      return reply.status(201).send({ ruleset: toRuleSetView(ruleset) });
    },
  );

  app.get(
    '/v1/firewall/rulesets/:id',
    {
      config: { access: CUSTOMER },
      schema: { tags: TAGS, params: idParams, response: { 200: ruleSetResponse } },
    },
    async (request) => ({
      ruleset: toRuleSetView(await rulesets.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/firewall/rulesets/:id',
    {
      config: { access: CUSTOMER, audit: 'firewall-ruleset.update' },
      schema: {
        tags: TAGS,
        summary: 'Renames the ruleset.',
        params: idParams,
        body: ruleSetBody,
        response: { 200: ruleSetResponse },
      },
    },
    async (request) => ({
      ruleset: toRuleSetView(
        await rulesets.rename(tenantOf(request).organizationId, request.params.id, request.body.ruleset.name),
      ),
    }),
  );

  app.delete(
    '/v1/firewall/rulesets/:id',
    {
      config: { access: CUSTOMER, audit: 'firewall-ruleset.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes the ruleset and its rules.',
        description:
          'A ruleset attached to VMs is refused (412) unless force=true, which detaches it from them: they are left with no rules of yours.',
        params: idParams,
        querystring: z.object({ force: z.stringbool().default(false) }),
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await rulesets.delete(tenantOf(request).organizationId, request.params.id, request.query.force);
      return { success: true };
    },
  );

  const attachments = [
    [
      'attach-firewall',
      'Attaches the ruleset to the VM, in place of the one it had (a VM has at most one).',
      (org: string, vmId: string, rulesetId: string) => rulesets.attach(org, vmId, rulesetId),
    ],
    [
      'detach-firewall',
      'Detaches the ruleset from the VM; nothing happens when it is not the VM’s ruleset.',
      (org: string, vmId: string, rulesetId: string) => rulesets.detach(org, vmId, rulesetId),
    ],
  ] as const;
  for (const [verb, summary, act] of attachments)
    app.post(
      verbRoute('/v1/virtual-machines/:id', verb),
      {
        config: { access: CUSTOMER, audit: `virtual-machine.${verb}` },
        schema: {
          tags: ['VirtualMachineService'],
          summary,
          description:
            'The VM must be yours and not being deleted. Deviation: answers the ruleset with its attachments instead of the VM.',
          params: idParams,
          body: attachmentBody,
          response: { 200: ruleSetResponse },
        },
      },
      async (request) => ({
        ruleset: toRuleSetView(
          await act(tenantOf(request).organizationId, request.params.id, request.body.rulesetId),
        ),
      }),
    );

  done();
};
