import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { FleetEnvironment, FleetInstallToken } from './fleet-environment.repository.js';
import { DEFAULT_INSTALL_TOKEN_SECONDS, type FleetEnvironmentService } from './fleet-environment.service.js';
import { FLEET_PREFIX, PROVIDER, PROVIDER_ADMIN } from './fleet.schemas.js';

const tags = ['FleetService'];
const MAX_INSTALL_TOKEN_SECONDS = 365 * 24 * 3600;

const environmentView = z
  .object({ id: z.string(), name: z.string(), createdAt: z.iso.datetime() })
  .meta({ id: 'FleetEnvironment' });

const installTokenView = z
  .object({
    id: z.string(),
    environmentId: z.string(),
    description: z.string(),
    expiresAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
    revoked: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'FleetInstallToken' });

function toEnvironmentView(e: FleetEnvironment): z.infer<typeof environmentView> {
  return { id: e.id, name: e.name, createdAt: e.createdAt.toISOString() };
}

function toTokenView(t: FleetInstallToken): z.infer<typeof installTokenView> {
  return {
    id: t.id,
    environmentId: t.environmentId,
    description: t.description,
    expiresAt: t.expiresAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revoked: t.revokedAt !== null,
    createdAt: t.createdAt.toISOString(),
  };
}

/** A provider's fleet environments and the install tokens node agents enroll with. */
export const fleetEnvironmentRoutes: FastifyPluginCallbackZod<{ environments: FleetEnvironmentService }> = (
  app,
  { environments },
  done,
) => {
  app.post(
    `${FLEET_PREFIX}/environments`,
    {
      config: { access: PROVIDER, audit: 'fleetEnvironment.create' },
      schema: {
        tags,
        body: z.strictObject({ name: z.string().trim().min(1).max(100) }),
        response: { 201: environmentView },
      },
    },
    async (request, reply) => {
      const environment = await environments.create(tenantOf(request).organizationId, request.body.name);
      request.auditTarget = { type: 'fleetEnvironment', id: environment.id };
      return reply.status(201).send(toEnvironmentView(environment));
    },
  );

  app.get(
    `${FLEET_PREFIX}/environments`,
    {
      config: { access: PROVIDER },
      schema: {
        tags,
        querystring: pageQuery,
        response: {
          200: z.object({ environments: z.array(environmentView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const result = await environments.list(tenantOf(request).organizationId, request.query);
      return { environments: result.items.map(toEnvironmentView), totalCount: result.totalCount };
    },
  );

  app.get(
    `${FLEET_PREFIX}/environments/:id`,
    {
      config: { access: PROVIDER },
      schema: { tags, params: idParams, response: { 200: environmentView } },
    },
    async (request) =>
      toEnvironmentView(await environments.get(tenantOf(request).organizationId, request.params.id)),
  );

  app.post(
    `${FLEET_PREFIX}/environments/:id/install-tokens`,
    {
      config: { access: PROVIDER_ADMIN, audit: 'fleetInstallToken.create' },
      schema: {
        tags,
        summary: 'Creates a token node agents enroll with; the token is shown once.',
        params: idParams,
        body: z.strictObject({
          description: z.string().trim().max(200).default(''),
          expiresInSeconds: z
            .number()
            .int()
            .min(60)
            .max(MAX_INSTALL_TOKEN_SECONDS)
            .default(DEFAULT_INSTALL_TOKEN_SECONDS)
            .describe('Default: 30 days.'),
        }),
        response: {
          201: z.object({
            id: z.string(),
            token: z.string().describe('Shown once: `Authorization: Bearer nrf_…` of the enrollment call.'),
            expiresAt: z.iso.datetime(),
          }),
        },
      },
    },
    async (request, reply) => {
      const minted = await environments.createInstallToken(
        tenantOf(request).organizationId,
        request.params.id,
        request.body,
      );
      request.auditTarget = { type: 'fleetInstallToken', id: minted.installToken.id };
      return reply.status(201).send({
        id: minted.installToken.id,
        token: minted.token,
        expiresAt: minted.installToken.expiresAt.toISOString(),
      });
    },
  );

  app.get(
    `${FLEET_PREFIX}/environments/:id/install-tokens`,
    {
      config: { access: PROVIDER_ADMIN },
      schema: {
        tags,
        params: idParams,
        querystring: pageQuery,
        response: {
          200: z.object({ installTokens: z.array(installTokenView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const result = await environments.listInstallTokens(
        tenantOf(request).organizationId,
        request.params.id,
        request.query,
      );
      return { installTokens: result.items.map(toTokenView), totalCount: result.totalCount };
    },
  );

  app.delete(
    `${FLEET_PREFIX}/environments/:id/install-tokens/:tokenId`,
    {
      config: { access: PROVIDER_ADMIN, audit: 'fleetInstallToken.revoke' },
      schema: {
        tags,
        summary:
          'Revokes the token: enrollments with it fail from now on; enrolled fleet agents are unaffected.',
        params: z.object({ id: z.uuid(), tokenId: z.uuid() }),
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const { id, tokenId } = request.params;
      request.auditTarget = { type: 'fleetInstallToken', id: tokenId };
      await environments.revokeInstallToken(tenantOf(request).organizationId, id, tokenId);
      return { success: true };
    },
  );
  done();
};
