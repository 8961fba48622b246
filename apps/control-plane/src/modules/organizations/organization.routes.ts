import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { principalOf, tenantOf } from '../../http/principal.js';
import { verbRoute } from '../../http/verb-route.js';
import type { Membership } from './organization.repository.js';
import {
  memberRole,
  organizationName,
  organizationType,
  organizationView,
  toOrganizationView,
} from './organization.schemas.js';
import type { OrganizationService } from './organization.service.js';

const memberView = z
  .object({ userId: z.string(), email: z.string(), role: memberRole.schema, createTime: z.string() })
  .meta({ id: 'Member' });

function toMemberView(m: Membership): z.infer<typeof memberView> {
  return {
    userId: m.userId,
    email: m.email,
    role: memberRole.toWire(m.role),
    createTime: m.createdAt.toISOString(),
  };
}

const userIdParams = z.object({ userId: z.uuid() });

function userIdOf(request: { principal: Parameters<typeof principalOf>[0]['principal'] }): string {
  const principal = principalOf(request);
  if (principal.kind !== 'session') throw new Error('user route without a session');
  return principal.userId;
}

export const organizationRoutes: FastifyPluginCallbackZod<{ organizations: OrganizationService }> = (
  app,
  { organizations },
  done,
) => {
  app.get(
    '/v1/organizations',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['OrganizationService'],
        summary: "The caller's organizations and their role in each.",
        response: {
          200: z.object({
            organizations: z.array(organizationView.extend({ role: memberRole.schema })),
            totalCount: z.number().int(),
          }),
        },
      },
    },
    async (request) => {
      const memberships = await organizations.listMine(userIdOf(request));
      return {
        organizations: memberships.map((m) => ({
          ...toOrganizationView(m.organization),
          role: memberRole.toWire(m.role),
        })),
        totalCount: memberships.length,
      };
    },
  );

  app.post(
    '/v1/organizations',
    {
      config: { access: { kind: 'user' }, audit: 'organization.create' },
      schema: {
        tags: ['OrganizationService'],
        summary: 'Creates another organization owned by the caller.',
        body: z.strictObject({ name: organizationName, type: organizationType }),
        response: { 201: z.object({ organization: organizationView }) },
      },
    },
    async (request, reply) => {
      const created = await organizations.create(userIdOf(request), request.body);
      request.auditTarget = { type: 'organization', id: created.id, organizationId: created.id };
      return reply.status(201).send({ organization: toOrganizationView(created) });
    },
  );

  app.get(
    '/v1/organization',
    {
      config: { access: { kind: 'tenant' } },
      schema: {
        tags: ['OrganizationService'],
        summary: 'The organization selected by X-Organization-ID.',
        response: { 200: z.object({ organization: organizationView }) },
      },
    },
    async (request) => ({ organization: toOrganizationView(await organizations.current(tenantOf(request))) }),
  );

  app.patch(
    '/v1/organization',
    {
      config: { access: { kind: 'tenant' }, audit: 'organization.update' },
      schema: {
        tags: ['OrganizationService'],
        body: z.strictObject({ name: organizationName }),
        response: { 200: z.object({ organization: organizationView }) },
      },
    },
    async (request) => {
      const tenant = tenantOf(request);
      request.auditTarget = { type: 'organization', id: tenant.organizationId };
      return { organization: toOrganizationView(await organizations.rename(tenant, request.body.name)) };
    },
  );

  app.get(
    '/v1/organization/members',
    {
      config: { access: { kind: 'tenant' } },
      schema: {
        tags: ['OrganizationService'],
        response: { 200: z.object({ members: z.array(memberView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const members = await organizations.listMembers(tenantOf(request));
      return { members: members.map(toMemberView), totalCount: members.length };
    },
  );

  app.patch(
    '/v1/organization/members/:userId',
    {
      // A role change can raise a person to admin: a token may not do that (ADR 0019).
      config: { access: { kind: 'tenant', signedInUser: true }, audit: 'member.update' },
      schema: {
        tags: ['OrganizationService'],
        params: userIdParams,
        body: z.strictObject({ role: memberRole.schema }),
        response: { 200: z.object({ member: memberView }) },
      },
    },
    async (request) => {
      request.auditTarget = { type: 'member', id: request.params.userId };
      return {
        member: toMemberView(
          await organizations.setMemberRole(
            tenantOf(request),
            request.params.userId,
            memberRole.fromWire(request.body.role),
          ),
        ),
      };
    },
  );

  app.delete(
    '/v1/organization/members/:userId',
    {
      config: { access: { kind: 'tenant' }, audit: 'member.remove' },
      schema: { tags: ['OrganizationService'], params: userIdParams, response: { 200: successResponse } },
    },
    async (request) => {
      request.auditTarget = { type: 'member', id: request.params.userId };
      await organizations.removeMember(tenantOf(request), request.params.userId);
      return { success: true };
    },
  );

  app.get(
    '/v1/staff/organizations',
    {
      config: { access: { kind: 'staff' } },
      schema: {
        tags: ['OrganizationService'],
        summary: 'All organizations, for the review of providers (staff only).',
        querystring: pageQuery.extend({
          type: organizationType.optional(),
          isVerified: z
            .enum(['true', 'false'])
            .transform((v) => v === 'true')
            .optional(),
        }),
        response: {
          200: z.object({ organizations: z.array(organizationView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const { page, pageSize, ...filter } = request.query;
      const result = await organizations.listAll(
        {
          ...(filter.type && { type: filter.type }),
          ...(filter.isVerified !== undefined && { isVerified: filter.isVerified }),
        },
        { page, pageSize },
      );
      return { organizations: result.items.map(toOrganizationView), totalCount: result.totalCount };
    },
  );

  app.post(
    verbRoute('/v1/organizations/:id', 'verify'),
    {
      config: { access: { kind: 'staff' }, audit: 'organization.verify' },
      schema: {
        tags: ['OrganizationService'],
        summary: 'Marks a provider organization as reviewed (staff only).',
        params: idParams,
        response: { 200: z.object({ organization: organizationView }) },
      },
    },
    async (request) => {
      const verified = await organizations.verify(request.params.id);
      request.auditTarget = { type: 'organization', id: verified.id, organizationId: verified.id };
      return { organization: toOrganizationView(verified) };
    },
  );
  done();
};
