import { FIREWALL_DIRECTIONS } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { ruleInput, ruleView, toRuleView } from './firewall.schemas.js';
import { MAX_RULES_PER_RULESET, type RuleService } from './rule.service.js';

const CUSTOMER: RouteAccess = { kind: 'tenant' };
const TAGS = ['FirewallService'];
const MOVE_POSITIONS = ['FIREWALL_RULE_POSITION_BEFORE', 'FIREWALL_RULE_POSITION_AFTER'] as const;

const ruleResponse = z.object({ rule: ruleView });
const ruleBody = z.strictObject({ rule: ruleInput });
const rulesetParams = z.object({ rulesetId: z.uuid() });

export const ruleRoutes: FastifyPluginCallbackZod<{ rules: RuleService }> = (app, { rules }, done) => {
  app.get(
    '/v1/firewall/rulesets/:rulesetId/rules',
    {
      config: { access: CUSTOMER },
      schema: {
        tags: TAGS,
        summary: 'The ruleset’s rules: ingress, then egress, each in the order they are matched.',
        params: rulesetParams,
        querystring: pageQuery.extend({ direction: z.enum(FIREWALL_DIRECTIONS).optional() }),
        response: { 200: z.object({ rules: z.array(ruleView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { direction, ...page } = request.query;
      const result = await rules.list(
        tenantOf(request).organizationId,
        request.params.rulesetId,
        direction,
        page,
      );
      return { rules: result.items.map(toRuleView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/firewall/rulesets/:rulesetId/rules',
    {
      config: { access: CUSTOMER, audit: 'firewall-rule.create' },
      schema: {
        tags: TAGS,
        summary: 'Adds a rule last in its direction; the VMs the ruleset is attached to get it.',
        description: `Traffic no rule matches is accepted. At most ${MAX_RULES_PER_RULESET} rules per ruleset (429). Deviation: answers 201 with the rule.`,
        params: rulesetParams,
        body: ruleBody,
        response: { 201: ruleResponse },
      },
    },
    async (request, reply) => {
      const { organizationId } = tenantOf(request);
      request.auditTarget = { type: 'firewall-ruleset', id: request.params.rulesetId };
      const rule = await rules.create(organizationId, request.params.rulesetId, request.body.rule);
      request.auditTarget = { type: 'firewall-rule', id: rule.id };
      return reply.status(201).send({ rule: toRuleView(rule) });
    },
  );

  app.get(
    '/v1/firewall/rules/:id',
    {
      config: { access: CUSTOMER },
      schema: { tags: TAGS, params: idParams, response: { 200: ruleResponse } },
    },
    async (request) => ({
      rule: toRuleView(await rules.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/firewall/rules/:id',
    {
      config: { access: CUSTOMER, audit: 'firewall-rule.update' },
      schema: {
        tags: TAGS,
        summary: 'Replaces the rule (leave out source or destination for any address).',
        description: 'The rule keeps its position; turned to the other direction, it goes last there.',
        params: idParams,
        body: ruleBody,
        response: { 200: ruleResponse },
      },
    },
    async (request) => ({
      rule: toRuleView(
        await rules.update(tenantOf(request).organizationId, request.params.id, request.body.rule),
      ),
    }),
  );

  app.delete(
    '/v1/firewall/rules/:id',
    {
      config: { access: CUSTOMER, audit: 'firewall-rule.delete' },
      schema: {
        tags: TAGS,
        summary: 'Deletes the rule; the rules after it move up.',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await rules.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.post(
    '/v1/firewall/rules/:id/move',
    {
      config: { access: CUSTOMER, audit: 'firewall-rule.move' },
      schema: {
        tags: TAGS,
        summary: 'Moves the rule just before (matched earlier) or just after another rule.',
        description: 'The other rule must be of the same ruleset and direction.',
        params: idParams,
        body: z.strictObject({ targetRuleId: z.uuid(), position: z.enum(MOVE_POSITIONS) }),
        response: { 200: ruleResponse },
      },
    },
    async (request) => ({
      rule: toRuleView(
        await rules.move(
          tenantOf(request).organizationId,
          request.params.id,
          request.body.targetRuleId,
          request.body.position,
        ),
      ),
    }),
  );

  done();
};
