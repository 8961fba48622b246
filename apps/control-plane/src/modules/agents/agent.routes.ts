import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { verbRoute } from '../../http/verb-route.js';
import {
  agentDescription,
  agentName,
  agentPublicIp,
  agentView,
  gatewayRegion,
  hypervisorDriver,
  peeringStatusView,
  toAgentView,
} from './agent.schemas.js';
import type { AgentService } from './agent.service.js';

const PROVIDER: RouteAccess = { kind: 'tenant', organizationType: 'ORGANIZATION_TYPE_PROVIDER' };
/** Also open to the agent's own credential, which the installer holds while it peers the cluster. */
const PROVIDER_OR_OWN_AGENT: RouteAccess = { ...PROVIDER, agentSelf: true };
const TAGS = ['AgentService'];
const wrapped = z.object({ agent: agentView });
/** Action bodies are `{}` in the API; an empty request body means the same. */
const emptyBody = z.strictObject({}).nullish();
const MAX_KUBECONFIG_LENGTH = 64 * 1024;

export const agentRoutes: FastifyPluginCallbackZod<{ agents: AgentService }> = (app, { agents }, done) => {
  app.get(
    '/v1/agents',
    {
      config: { access: PROVIDER },
      schema: {
        tags: TAGS,
        querystring: pageQuery.extend({
          gatewayRegion: gatewayRegion.optional(),
          search: z.string().max(100).optional(),
        }),
        response: { 200: z.object({ agents: z.array(wrapped), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const { gatewayRegion: region, search, ...page } = request.query;
      const result = await agents.list(
        tenantOf(request).organizationId,
        { ...(region !== undefined && { gatewayRegion: region }), ...(search !== undefined && { search }) },
        page,
      );
      return { agents: result.items.map((a) => ({ agent: toAgentView(a) })), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/agents',
    {
      config: { access: PROVIDER, audit: 'agent.create' },
      schema: {
        tags: TAGS,
        summary: 'Creates an agent and assigns it the next gateway service port.',
        body: z.strictObject({
          name: agentName,
          description: agentDescription.default(''),
          agentPublicIp,
          gatewayRegion,
          hypervisorDriver: hypervisorDriver.schema,
        }),
        response: { 201: wrapped },
      },
    },
    async (request, reply) => {
      const agent = await agents.create(tenantOf(request), {
        ...request.body,
        hypervisorDriver: hypervisorDriver.fromWire(request.body.hypervisorDriver),
      });
      request.auditTarget = { type: 'agent', id: agent.id };
      return reply.status(201).send({ agent: toAgentView(agent) });
    },
  );

  app.get(
    '/v1/agents/:id',
    {
      config: { access: PROVIDER_OR_OWN_AGENT },
      schema: { tags: TAGS, params: idParams, response: { 200: wrapped } },
    },
    async (request) => ({
      agent: toAgentView(await agents.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.patch(
    '/v1/agents/:id',
    {
      config: { access: PROVIDER, audit: 'agent.update' },
      schema: {
        tags: TAGS,
        params: idParams,
        body: z.strictObject({
          name: agentName.optional(),
          description: agentDescription.optional(),
          hypervisorDriver: hypervisorDriver.schema.optional(),
        }),
        response: { 200: wrapped },
      },
    },
    async (request) => ({
      agent: toAgentView(
        await agents.update(tenantOf(request).organizationId, request.params.id, {
          ...request.body,
          hypervisorDriver:
            request.body.hypervisorDriver === undefined
              ? undefined
              : hypervisorDriver.fromWire(request.body.hypervisorDriver),
        }),
      ),
    }),
  );

  app.delete(
    '/v1/agents/:id',
    {
      config: { access: PROVIDER, audit: 'agent.delete' },
      schema: { tags: TAGS, params: idParams, response: { 200: successResponse } },
    },
    async (request) => {
      await agents.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.post(
    verbRoute('/v1/agents/:id', 'generateInstallCommand'),
    {
      config: { access: PROVIDER, audit: 'agent.generateInstallCommand' },
      schema: {
        tags: TAGS,
        summary: 'A one-line installer command with a one-time install token, valid for an hour.',
        params: idParams,
        body: emptyBody,
        response: {
          200: z.object({
            command: z.string(),
            token: z.string(),
            expiresAt: z.iso.datetime().describe('The token works once, until then.'),
          }),
        },
      },
    },
    async (request) => {
      const minted = await agents.generateInstallCommand(tenantOf(request), request.params.id);
      return { ...minted, expiresAt: minted.expiresAt.toISOString() };
    },
  );

  app.post(
    verbRoute('/v1/agents/:id', 'redeemInstallToken'),
    {
      // The install token is the credential: the installer has nothing else yet.
      config: { access: { kind: 'public' }, audit: 'agent.redeemInstallToken' },
      schema: {
        tags: TAGS,
        summary: "Trades the install token for the agent's own credential; works once.",
        params: idParams,
        body: z.strictObject({ token: z.string().min(1).max(200) }),
        response: {
          200: z.object({
            agent: agentView,
            credential: z.object({ token: z.string(), expiresAt: z.string() }),
          }),
        },
      },
    },
    async (request) => {
      const { agent, credential } = await agents.redeemInstallToken(request.params.id, request.body.token);
      request.auditTarget = { type: 'agent', id: agent.id, organizationId: agent.organizationId };
      return {
        agent: toAgentView(agent),
        credential: { token: credential.token, expiresAt: credential.expiresAt.toISOString() },
      };
    },
  );

  app.post(
    verbRoute('/v1/agents/:id', 'generatePeeringConfig'),
    {
      config: { access: PROVIDER_OR_OWN_AGENT, audit: 'agent.generatePeeringConfig' },
      schema: {
        tags: TAGS,
        summary: 'A kubeconfig for the agent cluster to reach NodeRings, with a fresh 24-hour agent token.',
        params: idParams,
        body: emptyBody,
        response: { 200: z.object({ config: z.string() }) },
      },
    },
    async (request) => ({
      config: await agents.generatePeeringConfig(tenantOf(request).organizationId, request.params.id),
    }),
  );

  app.post(
    verbRoute('/v1/agents/:id', 'uploadInboundPeeringConfig'),
    {
      config: { access: PROVIDER_OR_OWN_AGENT, audit: 'agent.uploadInboundPeeringConfig' },
      schema: {
        tags: TAGS,
        summary:
          "Stores the agent cluster's kubeconfig (sealed) and checks it by listing ProxmoxVMs in the operator namespace.",
        params: idParams,
        body: z.strictObject({ kubeconfig: z.string().min(1).max(MAX_KUBECONFIG_LENGTH) }),
        response: { 200: peeringStatusView },
      },
    },
    async (request) => {
      const status = await agents.uploadInboundPeeringConfig(
        tenantOf(request).organizationId,
        request.params.id,
        request.body.kubeconfig,
      );
      request.log.info({ agentId: request.params.id, ...status }, 'inbound peering checked');
      return status;
    },
  );
  done();
};
