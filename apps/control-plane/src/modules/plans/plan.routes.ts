import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { PlanCalculator } from './plan-calculator.service.js';
import {
  assignableNodesQuery,
  assignableNodeView,
  calculateBody,
  createPlanBody,
  listPlansQuery,
  planView,
  quoteView,
  toAssignableNodeView,
  toPlanView,
  toQuoteView,
  updatePlanBody,
} from './plan.schemas.js';
import type { PlanService } from './plan.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
const TAGS = ['ProviderPlanService'];
const CHANGES_APPLY_TO_NEW_VMS =
  'Changes apply to VMs ordered afterwards: a VM keeps the plan revision it was ordered at.';

const planResponse = z.object({ plan: planView });

export const planRoutes: FastifyPluginCallbackZod<{ plans: PlanService; calculator: PlanCalculator }> = (
  app,
  { plans, calculator },
  done,
) => {
  app.get(
    '/v1/plans',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['PlanService'],
        summary: "Your organisation's plans; deleted ones are not listed.",
        querystring: pageQuery.extend(listPlansQuery.shape),
        response: { 200: z.object({ plans: z.array(planView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { page, pageSize, filterCode, filterComputeType, ...rest } = request.query;
      const result = await plans.list(
        tenantOf(request).organizationId,
        { ...rest, code: filterCode, computeType: filterComputeType },
        { page, pageSize },
      );
      return { plans: result.items.map(toPlanView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/plans',
    {
      config: { access: PROVIDER, audit: 'plan.create' },
      schema: {
        tags: TAGS,
        summary: 'Creates a plan: specs, prices, one region and the nodes it may be placed on.',
        description:
          'The code is derived from the compute category and type and the specs. Nodes must be in the region, of the compute category, and not known to be smaller than one VM of the plan.',
        body: createPlanBody,
        response: { 201: planResponse },
      },
    },
    async (request, reply) => {
      const plan = await plans.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'plan', id: plan.id };
      // Deviation: the NodeRings API answers a bare Success here, which leaves the caller without the new id.
      return reply.status(201).send({ plan: toPlanView(plan) });
    },
  );

  app.post(
    '/v1/plans::calculate',
    {
      config: { access: { ...PROVIDER, minRole: 'member' }, audit: 'plan.calculate' },
      schema: {
        tags: TAGS,
        summary: 'Prices one VM of a plan, with addons, for one billing period. Changes nothing.',
        description:
          'Amounts are exact six-decimal strings. Usage plans bill hours × the hourly price, capped at the period (730 hours a month); fixed addon prices are per month and charged for the same hours; percentage addons are of the plan charge, or their fallback when the plan costs nothing. Each line is rounded half up to 0.000001 once; totals are exact sums.',
        body: calculateBody,
        response: { 200: quoteView },
      },
    },
    async (request) =>
      toQuoteView(await calculator.calculate(tenantOf(request).organizationId, request.body)),
  );

  app.get(
    '/v1/plans/:id',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['PlanService'],
        summary: 'Reads a plan, deleted ones included (status STATUS_SOFT_DELETED).',
        params: idParams,
        response: { 200: planResponse },
      },
    },
    async (request) => ({
      plan: toPlanView(await plans.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/plans/:id',
    {
      config: { access: PROVIDER, audit: 'plan.update' },
      schema: {
        tags: TAGS,
        summary: 'Changes the fields given; fields left out keep their values, lists given replace the list.',
        description: `Each change that changes something increments the revision; the code follows the specs. ${CHANGES_APPLY_TO_NEW_VMS}`,
        params: idParams,
        body: updatePlanBody,
        response: { 200: planResponse },
      },
    },
    async (request) => ({
      plan: toPlanView(await plans.update(tenantOf(request).organizationId, request.params.id, request.body)),
    }),
  );

  app.delete(
    '/v1/plans/:id',
    {
      config: { access: PROVIDER, audit: 'plan.delete' },
      schema: {
        tags: TAGS,
        summary: 'Soft-deletes a plan: no longer listed or sold; it lets go of its region and nodes.',
        description: CHANGES_APPLY_TO_NEW_VMS,
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await plans.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.get(
    '/v1/provider/plans/assignable-nodes',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        summary: 'Your nodes in a region; with planId, those the plan may be assigned to.',
        querystring: assignableNodesQuery,
        response: { 200: z.object({ nodes: z.array(assignableNodeView) }) },
      },
    },
    async (request) => {
      const { regionId, planId } = request.query;
      const nodes = await plans.assignableNodes(tenantOf(request).organizationId, regionId, planId);
      return { nodes: nodes.map(toAssignableNodeView) };
    },
  );
  done();
};
