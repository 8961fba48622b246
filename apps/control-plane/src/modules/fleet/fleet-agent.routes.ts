import { AGENT_TYPES, collectorStatusSchema, ENROLL_PATH, enrollRequestSchema } from '@noderings/fleet';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { apiErrorBody } from '../../http/api-error.js';
import { idParams } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { FleetAgent, FleetAgentService } from './fleet-agent.service.js';
import type { FleetEnrollmentService } from './fleet-enrollment.service.js';
import { AGENT_CALL, agentIdParams, environmentFilter, FLEET_PREFIX, PROVIDER } from './fleet.schemas.js';

const tags = ['FleetService'];

const natsCredentialsView = z.object({
  servers: z.array(z.string()).readonly(),
  jwt: z.string().describe("A NATS user JWT for the fleet agent's key: publish under fleet.<key>.> only."),
  inboxPrefix: z.string(),
  expiresAt: z.iso.datetime(),
});

const enrollView = z
  .object({
    agentId: z.string(),
    environmentId: z.string(),
    agentType: z.enum(AGENT_TYPES),
    name: z.string(),
    rebound: z
      .boolean()
      .describe('This enrollment took over a quiet record of the same name on the same host.'),
    heartbeatIntervalSeconds: z.number().int(),
    nats: natsCredentialsView,
  })
  .meta({ id: 'FleetEnrollment' });

/** google.rpc.Status, plus the `error` object node agents read their case from. */
const identityErrorView = z
  .object({
    code: z.string(),
    message: z.string(),
    details: z.array(z.unknown()),
    error: z.object({
      code: z.enum(['identity_in_use', 'public_key_in_use', 'identity_released', 'identity_rebound']),
      message: z.string(),
    }),
  })
  .meta({ id: 'FleetIdentityError' });

const agentView = z
  .object({
    id: z.string(),
    environmentId: z.string(),
    agentType: z.enum(AGENT_TYPES),
    name: z.string(),
    version: z.string(),
    hostname: z.string(),
    publicKey: z.string().describe('The nkey its messages are published under (fleet.<publicKey>.…).'),
    status: z
      .enum(['online', 'stale', 'never_seen', 'released'])
      .describe('online: heard from within three heartbeat intervals.'),
    heartbeatIntervalSeconds: z.number().int(),
    collectors: z.array(collectorStatusSchema).describe("The newest heartbeat's collector statuses."),
    enrolledAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime().nullable(),
    reboundAt: z.iso.datetime().nullable(),
    releasedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'FleetAgent' });

function toAgentView(a: FleetAgent): z.infer<typeof agentView> {
  return {
    id: a.id,
    environmentId: a.environmentId,
    agentType: a.agentType,
    name: a.name,
    version: a.version,
    hostname: a.hostname,
    publicKey: a.publicKey,
    status: a.status,
    heartbeatIntervalSeconds: a.heartbeatIntervalSeconds,
    collectors: a.collectors,
    enrolledAt: a.enrolledAt.toISOString(),
    lastSeenAt: a.lastSeenAt?.toISOString() ?? null,
    reboundAt: a.reboundAt?.toISOString() ?? null,
    releasedAt: a.releasedAt?.toISOString() ?? null,
  };
}

function identityError(
  rpcCode: 'ALREADY_EXISTS' | 'FAILED_PRECONDITION',
  answer: { code: z.infer<typeof identityErrorView>['error']['code']; message: string },
): z.infer<typeof identityErrorView> {
  return { ...apiErrorBody(rpcCode, answer.message), error: { code: answer.code, message: answer.message } };
}

/** Enrollment and credentials (called by agents), and the provider's view of its agents. */
export const fleetAgentRoutes: FastifyPluginCallbackZod<{
  enrollment: FleetEnrollmentService;
  agents: FleetAgentService;
}> = (app, { enrollment, agents }, done) => {
  app.post(
    ENROLL_PATH,
    {
      config: { access: AGENT_CALL },
      schema: {
        tags,
        summary:
          'Enrolls a node agent with an install token (Authorization: Bearer nrf_…), idempotently by (environment, agent type, name).',
        body: enrollRequestSchema,
        response: { 200: enrollView, 201: enrollView, 409: identityErrorView },
      },
    },
    async (request, reply) => {
      const answer = await enrollment.enroll(request.headers.authorization, request.body);
      if (answer.kind === 'conflict') return reply.status(409).send(identityError('ALREADY_EXISTS', answer));
      return reply.status(answer.created ? 201 : 200).send(answer.response);
    },
  );

  app.post(
    `${FLEET_PREFIX}/agents/:agentId/nats-credentials`,
    {
      config: { access: AGENT_CALL },
      schema: {
        tags,
        summary:
          'Fresh NATS credentials for a fleet agent signing with its current key (Authorization: Nkey …).',
        params: agentIdParams,
        response: { 200: z.object({ nats: natsCredentialsView }), 410: identityErrorView },
      },
    },
    async (request, reply) => {
      const answer = await enrollment.natsCredentials(request.params.agentId, request.headers.authorization);
      if (answer.kind === 'gone') return reply.status(410).send(identityError('FAILED_PRECONDITION', answer));
      return { nats: answer.nats };
    },
  );

  app.get(
    `${FLEET_PREFIX}/agents`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        querystring: pageQuery.extend({
          environmentId: environmentFilter,
          includeReleased: z.stringbool().default(false),
        }),
        response: { 200: z.object({ agents: z.array(agentView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { environmentId, includeReleased, ...page } = request.query;
      const result = await agents.list(
        tenantOf(request).organizationId,
        { environmentId, includeReleased },
        page,
      );
      return { agents: result.items.map(toAgentView), totalCount: result.totalCount };
    },
  );

  app.get(
    `${FLEET_PREFIX}/agents/:id`,
    {
      config: { access: PROVIDER },
      schema: { tags, params: idParams, response: { 200: agentView } },
    },
    async (request) => toAgentView(await agents.get(tenantOf(request).organizationId, request.params.id)),
  );

  app.post(
    `${FLEET_PREFIX}/agents/:agentId/release-identity`,
    {
      config: { access: PROVIDER, audit: 'fleetAgent.releaseIdentity' },
      schema: {
        tags,
        summary:
          'Releases the fleet agent record: kept for history, its name free to enroll again, its key no longer accepted.',
        params: agentIdParams,
        response: { 200: agentView },
      },
    },
    async (request) => {
      request.auditTarget = { type: 'fleetAgent', id: request.params.agentId };
      return toAgentView(await agents.release(tenantOf(request).organizationId, request.params.agentId));
    },
  );
  done();
};
