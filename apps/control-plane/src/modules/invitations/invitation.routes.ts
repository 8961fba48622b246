import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { idParams, successResponse } from '../../http/id-params.js';
import { pageQuery } from '../../http/pagination.js';
import { principalOf, tenantOf } from '../../http/principal.js';
import { verbRoute } from '../../http/verb-route.js';
import {
  memberRole,
  organizationType,
  organizationView,
  toOrganizationView,
} from '../organizations/index.js';
import { stateOf, type Invitation, type ReceivedInvitation } from './invitation.repository.js';
import type { InvitationService } from './invitation.service.js';

const STATE = {
  pending: 'INVITATION_STATE_PENDING',
  accepted: 'INVITATION_STATE_ACCEPTED',
  declined: 'INVITATION_STATE_DECLINED',
  revoked: 'INVITATION_STATE_REVOKED',
  expired: 'INVITATION_STATE_EXPIRED',
} as const;

/** The same shape whether or not the email has an account, or is a member already. */
const invitationView = z
  .object({
    id: z.string(),
    organizationId: z.string(),
    email: z.string(),
    role: memberRole.schema,
    state: z.enum(Object.values(STATE) as [string, ...string[]]),
    invitedByEmail: z.string().nullable(),
    createTime: z.string(),
    expireTime: z.string(),
  })
  .meta({ id: 'Invitation' });

const receivedInvitationView = invitationView
  .extend({
    organization: z.object({ id: z.string(), name: z.string(), type: organizationType }),
  })
  .meta({ id: 'ReceivedInvitation' });

function toInvitationView(i: Invitation, now: Date): z.infer<typeof invitationView> {
  return {
    id: i.id,
    organizationId: i.organizationId,
    email: i.email,
    role: memberRole.toWire(i.role),
    state: STATE[stateOf(i, now)],
    invitedByEmail: i.invitedByEmail,
    createTime: i.createdAt.toISOString(),
    expireTime: i.expiresAt.toISOString(),
  };
}

function toReceivedView(i: ReceivedInvitation, now: Date): z.infer<typeof receivedInvitationView> {
  return { ...toInvitationView(i, now), organization: { ...i.organization } };
}

function userIdOf(request: { principal: Parameters<typeof principalOf>[0]['principal'] }): string {
  const principal = principalOf(request);
  if (principal.kind !== 'session') throw new Error('user route without a session');
  return principal.userId;
}

const tags = ['InviteService'];

export const invitationRoutes: FastifyPluginCallbackZod<{
  invitations: InvitationService;
  now: () => Date;
}> = (app, { invitations, now }, done) => {
  app.post(
    '/v1/organization/invitations',
    {
      // An invitation can give a person the admin role: a token may not hand that out (ADR 0019).
      config: { access: { kind: 'tenant', signedInUser: true }, audit: 'invitation.create' },
      schema: {
        tags,
        summary:
          'Invites an email address to the organization (owners only for the owner role); the invitee accepts it, signed in with that address.',
        body: z.strictObject({ email: z.email().max(254), role: memberRole.schema }),
        response: { 201: z.object({ invitation: invitationView }) },
      },
    },
    async (request, reply) => {
      const invitation = await invitations.invite(tenantOf(request), userIdOf(request), {
        ...request.body,
        role: memberRole.fromWire(request.body.role),
      });
      request.auditTarget = { type: 'invitation', id: invitation.id };
      return reply.status(201).send({ invitation: toInvitationView(invitation, now()) });
    },
  );

  app.get(
    '/v1/organization/invitations',
    {
      config: { access: { kind: 'tenant', minRole: 'admin' } },
      schema: {
        tags,
        summary: "The organization's invitations, newest first (admins).",
        querystring: pageQuery,
        response: { 200: z.object({ invitations: z.array(invitationView), totalCount: z.number().int() }) },
      },
    },
    async (request) => {
      const result = await invitations.listForOrganization(tenantOf(request), request.query);
      const at = now();
      return { invitations: result.items.map((i) => toInvitationView(i, at)), totalCount: result.totalCount };
    },
  );

  app.delete(
    '/v1/organization/invitations/:id',
    {
      config: { access: { kind: 'tenant' }, audit: 'invitation.revoke' },
      schema: {
        tags,
        summary: 'Revokes an open invitation.',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await invitations.revoke(tenantOf(request), request.params.id);
      return { success: true };
    },
  );

  app.get(
    '/v1/invitations',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags,
        summary: "The open invitations to the signed-in user's email address.",
        response: {
          200: z.object({ invitations: z.array(receivedInvitationView), totalCount: z.number().int() }),
        },
      },
    },
    async (request) => {
      const received = await invitations.listReceived(userIdOf(request));
      const at = now();
      return { invitations: received.map((i) => toReceivedView(i, at)), totalCount: received.length };
    },
  );

  app.post(
    verbRoute('/v1/invitations/:id', 'accept'),
    {
      config: { access: { kind: 'user' }, audit: 'invitation.accept' },
      schema: {
        tags,
        summary: 'Accepts an invitation to the signed-in user’s email address: they join with its role.',
        params: idParams,
        response: { 200: z.object({ organization: organizationView, role: memberRole.schema }) },
      },
    },
    async (request) => {
      const { invitation, membership } = await invitations.accept(userIdOf(request), request.params.id);
      request.auditTarget = {
        type: 'invitation',
        id: invitation.id,
        organizationId: invitation.organizationId,
      };
      return {
        organization: toOrganizationView(membership.organization),
        role: memberRole.toWire(membership.role),
      };
    },
  );

  app.post(
    verbRoute('/v1/invitations/:id', 'decline'),
    {
      config: { access: { kind: 'user' }, audit: 'invitation.decline' },
      schema: {
        tags,
        summary: 'Declines an invitation to the signed-in user’s email address.',
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const invitation = await invitations.decline(userIdOf(request), request.params.id);
      request.auditTarget = {
        type: 'invitation',
        id: invitation.id,
        organizationId: invitation.organizationId,
      };
      return { success: true };
    },
  );
  done();
};
