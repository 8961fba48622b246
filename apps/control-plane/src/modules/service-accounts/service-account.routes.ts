import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { parseAllowList } from '../../http/client-ip.js';
import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { tenantOf } from '../../http/principal.js';
import type { RouteAccess } from '../../http/route-access.js';
import { wireEnum } from '../../http/wire-enum.js';
import {
  TOKEN_LIFETIME_DAYS,
  type ServiceAccount,
  type ServiceAccountService,
  type ServiceAccountToken,
} from './service-account.service.js';

/** A service account's role, spelled like a member's; an account is never an owner. */
const role = wireEnum({ admin: 'MEMBER_ROLE_ADMIN', member: 'MEMBER_ROLE_MEMBER' });

const serviceAccountView = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string(),
    isActive: z.boolean(),
    allowedIps: z.array(z.string()),
    role: role.schema,
    organizationId: z.string(),
    lastUsedAt: z.string().nullable(),
    activeTokenCount: z.number().int(),
    createTime: z.string(),
  })
  .meta({ id: 'ServiceAccount' });

function toServiceAccountView(a: ServiceAccount): z.infer<typeof serviceAccountView> {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    isActive: a.isActive,
    allowedIps: [...a.allowedIps],
    role: role.toWire(a.role),
    organizationId: a.organizationId,
    lastUsedAt: a.lastUsedAt?.toISOString() ?? null,
    activeTokenCount: a.activeTokenCount,
    createTime: a.createdAt.toISOString(),
  };
}

/** Token metadata: the token itself is shown once, by the create call, and never stored. */
const tokenView = z
  .object({
    tokenId: z.string(),
    name: z.string(),
    expiresAt: z.string(),
    lastUsedAt: z.string().nullable(),
    revoked: z.boolean(),
    createTime: z.string(),
  })
  .meta({ id: 'ServiceAccountToken' });

function toTokenView(t: ServiceAccountToken): z.infer<typeof tokenView> {
  return {
    tokenId: t.id,
    name: t.name,
    expiresAt: t.expiresAt.toISOString(),
    lastUsedAt: t.lastUsedAt?.toISOString() ?? null,
    revoked: t.revokedAt !== null,
    createTime: t.createdAt.toISOString(),
  };
}

const MAX_ALLOWED_IPS = 100;

const allowedIps = z
  .array(
    z
      .string()
      .trim()
      .max(64)
      .refine(
        (entry) => parseAllowList([entry]) !== undefined,
        'must be an IPv4 or IPv6 address or CIDR prefix, like 203.0.113.7 or 2001:db8::/32',
      ),
  )
  .max(MAX_ALLOWED_IPS)
  .describe('Addresses or CIDR prefixes the tokens may be used from; empty means anywhere.');
const name = z.string().trim().min(1).max(100);
const description = z.string().trim().max(1000);

/** Managing credentials is an admin's job, reads included: a member could otherwise map the org's automation. */
const ADMIN: RouteAccess = { kind: 'tenant', minRole: 'admin' };
/**
 * Creating an account or a token, or changing an account's role, addresses or activity, needs a signed-in
 * admin: a token that could mint another would outlive its own revocation (ADR 0019). Revoking and
 * deleting stay open to tokens.
 */
const ADMIN_USER: RouteAccess = { kind: 'tenant', minRole: 'admin', signedInUser: true };
const tags = ['ServiceAccountService'];
const single = z.object({ serviceAccount: serviceAccountView });

export const serviceAccountRoutes: FastifyPluginCallbackZod<{ accounts: ServiceAccountService }> = (
  app,
  { accounts },
  done,
) => {
  app.get(
    '/v1/service-accounts',
    {
      config: { access: ADMIN },
      schema: {
        tags,
        querystring: pageQuery.extend({
          includeInactive: z.stringbool().default(false).describe('Also list deactivated accounts.'),
        }),
        response: {
          200: z.object({ serviceAccounts: z.array(serviceAccountView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const { includeInactive, ...page } = request.query;
      const result = await accounts.list(tenantOf(request).organizationId, { includeInactive }, page);
      return { serviceAccounts: result.items.map(toServiceAccountView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/service-accounts',
    {
      config: { access: ADMIN_USER, audit: 'serviceAccount.create' },
      schema: {
        tags,
        body: z.strictObject({
          name,
          description: description.default(''),
          allowedIps: allowedIps.default([]),
          role: role.schema.default('MEMBER_ROLE_MEMBER'),
        }),
        response: { 201: single },
      },
    },
    async (request, reply) => {
      const account = await accounts.create(tenantOf(request).organizationId, {
        ...request.body,
        role: role.fromWire(request.body.role),
      });
      request.auditTarget = { type: 'serviceAccount', id: account.id };
      return reply.status(201).send({ serviceAccount: toServiceAccountView(account) });
    },
  );

  app.get(
    '/v1/service-accounts/:id',
    {
      config: { access: ADMIN },
      schema: { tags, params: idParams, response: { 200: single } },
    },
    async (request) => ({
      serviceAccount: toServiceAccountView(
        await accounts.get(tenantOf(request).organizationId, request.params.id),
      ),
    }),
  );

  app.patch(
    '/v1/service-accounts/:id',
    {
      config: { access: ADMIN_USER, audit: 'serviceAccount.update' },
      schema: {
        tags,
        summary: 'Changes an account; deactivating it stops its tokens working until it is activated again.',
        params: idParams,
        body: z.strictObject({
          name: name.optional(),
          description: description.optional(),
          isActive: z.boolean().optional(),
          allowedIps: allowedIps.optional(),
          role: role.schema.optional(),
        }),
        response: { 200: single },
      },
    },
    async (request) => ({
      serviceAccount: toServiceAccountView(
        await accounts.update(tenantOf(request).organizationId, request.params.id, {
          ...request.body,
          role: request.body.role === undefined ? undefined : role.fromWire(request.body.role),
        }),
      ),
    }),
  );

  app.delete(
    '/v1/service-accounts/:id',
    {
      config: { access: ADMIN, audit: 'serviceAccount.delete' },
      schema: {
        tags,
        summary: 'Deletes an account and revokes all its tokens.',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await accounts.delete(tenantOf(request).organizationId, request.params.id);
      return { success: true };
    },
  );

  app.get(
    '/v1/service-accounts/:id/tokens',
    {
      config: { access: ADMIN },
      schema: {
        tags,
        params: idParams,
        querystring: pageQuery,
        response: { 200: z.object({ tokens: z.array(tokenView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await accounts.listTokens(
        tenantOf(request).organizationId,
        request.params.id,
        request.query,
      );
      return { tokens: result.items.map(toTokenView), totalCount: result.totalCount };
    },
  );

  app.post(
    '/v1/service-accounts/:id/tokens',
    {
      config: { access: ADMIN_USER, audit: 'serviceAccount.createToken' },
      schema: {
        tags,
        summary: 'Creates a bearer token for the account. The response is the only time the token is shown.',
        params: idParams,
        body: z.strictObject({
          name,
          expiresInDays: z
            .number()
            .int()
            .min(TOKEN_LIFETIME_DAYS.min)
            .max(TOKEN_LIFETIME_DAYS.max)
            .default(TOKEN_LIFETIME_DAYS.default),
        }),
        response: { 201: z.object({ token: z.string(), tokenId: z.string(), expiresAt: z.string() }) },
      },
    },
    async (request, reply) => {
      const minted = await accounts.createToken(
        tenantOf(request).organizationId,
        request.params.id,
        request.body,
      );
      request.auditTarget = { type: 'serviceAccountToken', id: minted.tokenId };
      return reply
        .status(201)
        .send({ token: minted.token, tokenId: minted.tokenId, expiresAt: minted.expiresAt.toISOString() });
    },
  );

  app.delete(
    '/v1/service-accounts/tokens/:tokenId',
    {
      config: { access: ADMIN, audit: 'serviceAccount.revokeToken' },
      schema: {
        tags,
        summary: 'Revokes a token; requests made with it fail from now on.',
        params: z.object({ tokenId: z.uuid() }),
        response: { 200: successResponse },
      },
    },
    async (request) => {
      request.auditTarget = { type: 'serviceAccountToken', id: request.params.tokenId };
      await accounts.revokeToken(tenantOf(request).organizationId, request.params.tokenId);
      return { success: true };
    },
  );
  done();
};
