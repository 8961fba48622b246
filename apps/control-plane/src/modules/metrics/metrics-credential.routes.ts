import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { verbRoute } from '../../http/verb-route.js';
import type { MetricsCredentialRecord } from './metrics-credential.repository.js';
import type { MetricsCredentialService, MintedMetricsCredential } from './metrics-credential.service.js';

const PROVIDER_ADMIN: RouteAccess = {
  kind: 'tenant',
  minRole: 'admin',
  organizationType: 'ORGANIZATION_TYPE_PROVIDER',
};
const tags = ['MetricsCredentialService'];
const MAX_GRACE_SECONDS = 7 * 24 * 3600;

const credentialView = z
  .object({
    id: z.string(),
    agentId: z.string(),
    name: z.string(),
    lastUsedAt: z.iso.datetime().nullable(),
    rotatedAt: z.iso.datetime().nullable(),
    previousTokenValidUntil: z.iso
      .datetime()
      .nullable()
      .describe('Until when the token replaced by the last rotation is still accepted.'),
    revoked: z.boolean(),
    createTime: z.iso.datetime(),
  })
  .meta({ id: 'MetricsCredential' });

const mintedView = z.object({
  credential: credentialView,
  token: z
    .string()
    .describe('Shown once: the bearer token of POST /api/v1/write (the agent stack reads it from a file).'),
});

function toView(c: MetricsCredentialRecord): z.infer<typeof credentialView> {
  return {
    id: c.id,
    agentId: c.agentId,
    name: c.name,
    lastUsedAt: c.lastUsedAt?.toISOString() ?? null,
    rotatedAt: c.rotatedAt?.toISOString() ?? null,
    previousTokenValidUntil: c.previousValidUntil?.toISOString() ?? null,
    revoked: c.revokedAt !== null,
    createTime: c.createdAt.toISOString(),
  };
}

function toMinted(m: MintedMetricsCredential): z.infer<typeof mintedView> {
  return { credential: toView(m.credential), token: m.token };
}

/** A provider's metrics write credentials, one agent each: an admin's job, reads included. */
export const metricsCredentialRoutes: FastifyPluginCallbackZod<{ credentials: MetricsCredentialService }> = (
  app,
  { credentials },
  done,
) => {
  app.get(
    '/v1/metrics-credentials',
    {
      config: { access: PROVIDER_ADMIN },
      schema: {
        tags,
        querystring: pageQuery.extend({
          agentId: z.uuid().optional().describe("Only this agent's credentials."),
          includeRevoked: z.stringbool().default(false),
        }),
        response: {
          200: z.object({ credentials: z.array(credentialView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const { agentId, includeRevoked, ...page } = request.query;
      const result = await credentials.list(
        tenantOf(request).organizationId,
        { agentId, includeRevoked },
        page,
      );
      return { credentials: result.items.map(toView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/metrics-credentials',
    {
      config: { access: PROVIDER_ADMIN, audit: 'metricsCredential.create' },
      schema: {
        tags,
        summary: 'Creates a credential that writes metrics for one agent; its token is shown once.',
        body: z.strictObject({
          agentId: z.uuid(),
          name: z.string().trim().min(1).max(100).default('alloy'),
        }),
        response: { 201: mintedView },
      },
    },
    async (request, reply) => {
      const minted = await credentials.create(tenantOf(request).organizationId, request.body);
      request.auditTarget = { type: 'metricsCredential', id: minted.credential.id };
      return reply.status(201).send(toMinted(minted));
    },
  );

  app.get(
    '/v1/metrics-credentials/:id',
    {
      config: { access: PROVIDER_ADMIN },
      schema: { tags, params: idParams, response: { 200: z.object({ credential: credentialView }) } },
    },
    async (request) => ({
      credential: toView(await credentials.get(tenantOf(request).organizationId, request.params.id)),
    }),
  );

  app.post(
    verbRoute('/v1/metrics-credentials/:id', 'rotate'),
    {
      config: { access: PROVIDER_ADMIN, audit: 'metricsCredential.rotate' },
      schema: {
        tags,
        summary:
          'Replaces the token; the old one keeps working for gracePeriodSeconds (default 0: stops at once).',
        params: idParams,
        body: z.strictObject({
          gracePeriodSeconds: z.number().int().min(0).max(MAX_GRACE_SECONDS).default(0),
        }),
        response: { 200: mintedView },
      },
    },
    async (request) =>
      toMinted(
        await credentials.rotate(
          tenantOf(request).organizationId,
          request.params.id,
          request.body.gracePeriodSeconds,
        ),
      ),
  );

  app.delete(
    '/v1/metrics-credentials/:id',
    {
      config: { access: PROVIDER_ADMIN, audit: 'metricsCredential.revoke' },
      schema: {
        tags,
        summary: 'Revokes the credential: its tokens stop working at once.',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await credentials.revoke(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );
  done();
};
