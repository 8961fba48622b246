import type { PreflightCheck } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import type { StoredPreflightResult } from './preflight.repository.js';
import type { PreflightService } from './preflight.service.js';
import type { PreflightWorker } from './preflight.worker.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };

/** Checks nest two levels deep: a check and what it is made of. */
const subCheckView = z.object({
  code: z.string(),
  passed: z.boolean(),
  note: z.string(),
  subChecks: z.tuple([]).describe('Always empty: sub-checks have none of their own.'),
});
const checkView = z
  .object({
    code: z.string().describe('What is checked, like NODE_CAPACITY_LEFT; a sub-check adds its subject.'),
    passed: z.boolean(),
    note: z.string(),
    subChecks: z.array(subCheckView),
  })
  .meta({ id: 'PreflightCheck' });

const infrastructureView = z.object({
  passed: z.boolean().describe('Every check of the chain passes: an order placed now can go to this node.'),
  agent: z.object({
    id: z.string().nullable(),
    name: z.string(),
    checks: z.array(checkView),
    platform: z.object({
      id: z.string(),
      name: z.string(),
      checks: z.array(checkView),
      node: z.object({ id: z.string(), name: z.string(), checks: z.array(checkView) }),
    }),
  }),
});

const resultView = z
  .object({
    planId: z.string(),
    planCode: z.string(),
    planName: z.string(),
    marketplaceReady: z
      .boolean()
      .describe("The plan's own checks pass and at least one node passes every check: it is listed."),
    summaryNote: z.string(),
    summaryIssues: z.array(z.string()),
    summaryWarnings: z
      .array(z.string())
      .describe(
        "What does not stop the sale but is worth a look: a node without a template for a distro the plan's other nodes offer.",
      ),
    regionLabels: z.array(z.string()),
    regions: z
      .array(
        z.object({
          regionId: z.string(),
          regionLabel: z.string(),
          marketplaceReady: z.boolean().describe('A node in this region passes: the plan is listed here.'),
          summaryNote: z.string(),
        }),
      )
      .describe('Each region the plan sells in, decided by its own nodes.'),
    planChecks: z.array(checkView),
    infrastructure: z.array(infrastructureView),
    evaluatedAt: z.iso.datetime(),
  })
  .meta({ id: 'PreflightResult' });

const listQuery = pageQuery.extend({
  planId: z.uuid().optional(),
  planCode: z.string().max(40).optional(),
  issuesOnly: z.stringbool().default(false).describe('Only plans with a failing check.'),
});

function toCheckView(c: PreflightCheck): z.infer<typeof checkView> {
  return {
    code: c.code,
    passed: c.passed,
    note: c.note,
    subChecks: c.subChecks.map((s) => ({ code: s.code, passed: s.passed, note: s.note, subChecks: [] })),
  };
}

function toResultView(r: StoredPreflightResult): z.infer<typeof resultView> {
  return {
    planId: r.planId,
    planCode: r.planCode,
    planName: r.planName,
    marketplaceReady: r.marketplaceReady,
    summaryNote: r.summaryNote,
    summaryIssues: [...r.summaryIssues],
    summaryWarnings: [...r.summaryWarnings],
    regionLabels: [...r.regionLabels],
    regions: r.regions.map((g) => ({ ...g })),
    planChecks: r.planChecks.map(toCheckView),
    infrastructure: r.infrastructure.map((e) => ({
      passed: e.passed,
      agent: {
        id: e.agent.id,
        name: e.agent.name,
        checks: e.agent.checks.map(toCheckView),
        platform: {
          id: e.agent.platform.id,
          name: e.agent.platform.name,
          checks: e.agent.platform.checks.map(toCheckView),
          node: { ...e.agent.platform.node, checks: e.agent.platform.node.checks.map(toCheckView) },
        },
      },
    })),
    evaluatedAt: r.evaluatedAt.toISOString(),
  };
}

export const preflightRoutes: FastifyPluginCallbackZod<{
  preflight: PreflightService;
  worker: PreflightWorker;
}> = (app, { preflight, worker }, done) => {
  app.get(
    '/v1/provider/preflight-checks',
    {
      config: { access: PROVIDER },
      schema: {
        tags: ['PreflightService'],
        summary: 'Whether each of your plans can be sold, checked agent → platform → node.',
        description:
          'Results are re-evaluated after every change you make and on an interval; a change made just before this call is already reflected.',
        querystring: listQuery,
        response: {
          200: z.object({
            plans: z.array(resultView),
            totalCount: z.number().int(),
            marketplaceReadyCheckIntervalSeconds: z.number().int(),
            marketplaceReadyCheckEnabled: z.boolean(),
          }),
        },
      },
    },
    async (request) => {
      const { organizationId } = tenantOf(request);
      const { page, pageSize, ...filter } = request.query;
      await worker.settled(organizationId);
      const result = await preflight.list(organizationId, filter, { page, pageSize });
      return {
        plans: result.items.map(toResultView),
        totalCount: result.totalCount,
        marketplaceReadyCheckIntervalSeconds: worker.intervalSeconds,
        marketplaceReadyCheckEnabled: worker.intervalSeconds > 0,
      };
    },
  );

  done();
};
