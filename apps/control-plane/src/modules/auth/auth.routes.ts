import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { successResponse } from '../../http/id-params.js';
import { principalOf } from '../../http/principal.js';
import {
  organizationName,
  organizationType,
  organizationView,
  toOrganizationView,
} from '../organizations/organization.schemas.js';
import type { AuthService } from './auth.service.js';
import { PASSWORD_LENGTH } from './password-policy.js';

const email = z.email().max(254);
/** Whether it is guessable is the service's check (it needs the email and organisation name). */
const newPassword = z
  .string()
  .min(PASSWORD_LENGTH.min, `must have at least ${String(PASSWORD_LENGTH.min)} characters`)
  .max(PASSWORD_LENGTH.max)
  .describe(
    `${String(PASSWORD_LENGTH.min)} to ${String(PASSWORD_LENGTH.max)} characters of any kind, not a common or breached ` +
      'password, a repetition, a sequence or a keyboard walk, and not made of the email or organisation name',
  );

const userView = z
  .object({ id: z.string(), email: z.string(), isStaff: z.boolean(), createTime: z.string() })
  .meta({ id: 'User' });

export const authRoutes: FastifyPluginCallbackZod<{ auth: AuthService }> = (app, { auth }, done) => {
  app.post(
    '/v1/auth/register',
    {
      config: { access: { kind: 'public' }, audit: 'user.register' },
      schema: {
        tags: ['AuthService'],
        summary: 'Creates a user and their first organization, and signs them in.',
        body: z.strictObject({ email, password: newPassword, organizationName, organizationType }),
        response: { 201: z.object({ token: z.string(), user: userView, organization: organizationView }) },
      },
    },
    async (request, reply) => {
      const registered = await auth.register({ ...request.body, ip: request.ip });
      request.auditTarget = {
        type: 'organization',
        id: registered.organization.id,
        organizationId: registered.organization.id,
      };
      return reply.status(201).send({
        token: registered.token,
        user: {
          id: registered.user.id,
          email: registered.user.email,
          isStaff: registered.user.isStaff,
          createTime: registered.user.createdAt.toISOString(),
        },
        organization: toOrganizationView(registered.organization),
      });
    },
  );

  app.post(
    '/v1/auth/login',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['AuthService'],
        summary:
          'Exchanges an email and password for a session token. Failed attempts slow further ones (429 with Retry-After).',
        body: z.strictObject({ email, password: z.string().min(1).max(256) }),
        response: {
          200: z.object({ token: z.string(), organizationId: z.string(), mfaRequired: z.boolean() }),
        },
      },
    },
    async (request) => auth.login({ ...request.body, ip: request.ip }),
  );

  app.post(
    '/v1/auth/logout',
    {
      config: { access: { kind: 'user' }, audit: 'user.logout' },
      schema: {
        tags: ['AuthService'],
        summary: 'Revokes the session token of this request.',
        response: { 200: successResponse },
      },
    },
    async (request) => {
      await auth.logout(principalOf(request).tokenId);
      return { success: true };
    },
  );
  done();
};
