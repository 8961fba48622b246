import formBody from '@fastify/formbody';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import { apiErrorSchema } from '../../http/api-error.js';
import { idParams, successResponse } from '../../http/id-params.js';
import { principalOf } from '../../http/principal.js';
import type { DeviceAuthorizationService, OAuthError, TokenGrant } from './device-authorization.service.js';

const tags = ['OAuthService'];
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Where the user enters the code: the dashboard's page, on the origin the device reached. */
const VERIFICATION_PATH = '/device';

/** RFC 6749 §5.2: what the OAuth endpoints answer instead of a google.rpc Status. */
const oauthErrorView = z
  .object({ error: z.string(), error_description: z.string() })
  .meta({ id: 'OAuthError' });
/**
 * A 400 of these endpoints: the OAuth error for what OAuth defines, or the API's Status for a request
 * the server refuses before the handler (text it cannot store, a parameter that is not text).
 */
const oauthRefusal = z.union([oauthErrorView, apiErrorSchema]);

const tokenView = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().describe('Seconds the access token is valid.'),
    refresh_token: z.string().describe('For a new access token when this one expires; rotated on every use.'),
  })
  .meta({ id: 'OAuthToken' });

/**
 * OAuth parameters as RFC 6749 sends them (form-encoded, JSON taken too); unknown ones are ignored, and
 * missing ones are the handler's `invalid_request`, so that every refusal has the OAuth error shape.
 */
const parameter = z.string().max(4096).optional();

const userCodeParams = z.object({
  userCode: z
    .string()
    .regex(/^[A-Za-z]{4}[- ]?[A-Za-z]{4}$/, 'must be the eight letters the device shows, like BCDF-GHJK')
    .describe('The code the device shows, in any case, with or without its dash.'),
});
const pendingDeviceView = z
  .object({
    userCode: z.string(),
    clientId: z.string(),
    clientName: z.string(),
    createTime: z.string(),
    expireTime: z.string(),
  })
  .meta({ id: 'PendingDevice' });
const sessionView = z
  .object({
    id: z.string(),
    clientId: z
      .string()
      .nullable()
      .describe('The device client of a device sign-in (`nr-cli`); null for a sign-in.'),
    current: z.boolean().describe('The session of this request.'),
    createTime: z.string(),
    lastUseTime: z.string().nullable(),
    expireTime: z.string(),
  })
  .meta({ id: 'Session' });

function sendOAuthError(reply: FastifyReply, failure: OAuthError): FastifyReply {
  return reply
    .status(400)
    .header('cache-control', 'no-store')
    .send({ error: failure.error, error_description: failure.description });
}

function sendGrant(reply: FastifyReply, grant: TokenGrant | OAuthError): FastifyReply {
  if ('error' in grant) return sendOAuthError(reply, grant);
  return reply
    .header('cache-control', 'no-store')
    .header('pragma', 'no-cache')
    .send({
      access_token: grant.accessToken,
      token_type: 'Bearer' as const,
      expires_in: grant.expiresIn,
      refresh_token: grant.refreshToken,
    });
}

function verificationUri(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${VERIFICATION_PATH}`;
}

export const deviceAuthorizationRoutes: FastifyPluginAsyncZod<{
  devices: DeviceAuthorizationService;
}> = async (app, { devices }) => {
  // RFC 6749 and RFC 8628 send the endpoints' parameters form-encoded.
  await app.register(formBody);

  app.post(
    '/v1/oauth/device_authorization',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags,
        summary:
          'Starts a device sign-in (RFC 8628): a device code to poll the token endpoint with, and a user code the user enters at verification_uri.',
        body: z.object({ client_id: parameter, scope: parameter }),
        response: {
          200: z.object({
            device_code: z.string(),
            user_code: z.string(),
            verification_uri: z.string(),
            verification_uri_complete: z.string(),
            expires_in: z.number().int(),
            interval: z.number().int().describe('Seconds to wait between polls.'),
          }),
          400: oauthRefusal,
        },
      },
    },
    async (request, reply) => {
      const clientId = request.body.client_id;
      if (clientId === undefined)
        return sendOAuthError(reply, { error: 'invalid_request', description: 'client_id is missing.' });
      const started = await devices.start(clientId);
      if ('error' in started) return sendOAuthError(reply, started);
      const uri = verificationUri(request);
      return reply.header('cache-control', 'no-store').send({
        device_code: started.deviceCode,
        user_code: started.userCode,
        verification_uri: uri,
        verification_uri_complete: `${uri}?code=${encodeURIComponent(started.userCode)}`,
        expires_in: started.expiresIn,
        interval: started.interval,
      });
    },
  );

  app.post(
    '/v1/oauth/token',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags,
        summary:
          'The token endpoint: a device code (grant_type urn:ietf:params:oauth:grant-type:device_code) or a refresh token (grant_type refresh_token) for an access token and a new refresh token.',
        body: z.object({
          grant_type: parameter,
          client_id: parameter,
          device_code: parameter,
          refresh_token: parameter,
        }),
        response: { 200: tokenView, 400: oauthRefusal },
      },
    },
    async (request, reply) => {
      const { grant_type: grantType, client_id: clientId } = request.body;
      if (clientId === undefined)
        return sendOAuthError(reply, { error: 'invalid_request', description: 'client_id is missing.' });
      if (grantType === DEVICE_CODE_GRANT) {
        const deviceCode = request.body.device_code;
        if (deviceCode === undefined)
          return sendOAuthError(reply, { error: 'invalid_request', description: 'device_code is missing.' });
        return sendGrant(reply, await devices.poll(deviceCode, clientId));
      }
      if (grantType === 'refresh_token') {
        const refreshToken = request.body.refresh_token;
        if (refreshToken === undefined)
          return sendOAuthError(reply, {
            error: 'invalid_request',
            description: 'refresh_token is missing.',
          });
        return sendGrant(reply, await devices.refresh(refreshToken, clientId));
      }
      return sendOAuthError(reply, {
        error: grantType === undefined ? 'invalid_request' : 'unsupported_grant_type',
        description:
          grantType === undefined
            ? 'grant_type is missing.'
            : `grant_type ${grantType} is not supported: use ${DEVICE_CODE_GRANT} or refresh_token.`,
      });
    },
  );

  app.post(
    '/v1/oauth/revoke',
    {
      config: { access: { kind: 'public' } },
      schema: {
        tags,
        summary:
          'Revokes a device session by its access or refresh token (RFC 7009); an unknown token is not an error.',
        body: z.object({ token: parameter, client_id: parameter }),
        response: { 200: z.object({}), 400: oauthRefusal },
      },
    },
    async (request, reply) => {
      const { token, client_id: clientId } = request.body;
      if (token === undefined || clientId === undefined) {
        return sendOAuthError(reply, {
          error: 'invalid_request',
          description: 'token and client_id are needed.',
        });
      }
      await devices.revoke(token, clientId);
      return reply.send({});
    },
  );

  app.get(
    '/v1/oauth/device/:userCode',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags,
        summary: 'The device sign-in a user code names, for the user to check before approving it.',
        params: userCodeParams,
        response: { 200: z.object({ device: pendingDeviceView }) },
      },
    },
    async (request) => {
      const device = await devices.describe(request.params.userCode);
      return {
        device: {
          userCode: device.userCode,
          clientId: device.clientId,
          clientName: device.clientName,
          createTime: device.createdAt.toISOString(),
          expireTime: device.expiresAt.toISOString(),
        },
      };
    },
  );

  for (const [verb, decision, audit] of [
    ['approve', 'approved', 'device.approve'],
    ['deny', 'denied', 'device.deny'],
  ] as const) {
    app.post(
      `/v1/oauth/device/:userCode(^[^:/]+)::${verb}`,
      {
        config: { access: { kind: 'user' }, audit },
        schema: {
          tags,
          summary:
            verb === 'approve'
              ? 'Signs the device in as the calling user: its next poll gets a session.'
              : 'Refuses the device sign-in: its next poll gets access_denied.',
          params: userCodeParams,
          response: { 200: successResponse },
        },
      },
      async (request) => {
        const principal = principalOf(request);
        if (principal.kind !== 'session') throw new Error('a user route without a session');
        await devices.decide(request.params.userCode, principal.userId, decision);
        return { success: true };
      },
    );
  }

  app.get(
    '/v1/auth/sessions',
    {
      config: { access: { kind: 'user' } },
      schema: {
        tags: ['AuthService'],
        summary: "The caller's live sessions: sign-ins and devices (nr), newest first.",
        response: { 200: z.object({ sessions: z.array(sessionView) }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.kind !== 'session') throw new Error('a user route without a session');
      const sessions = await devices.sessions(principal.userId);
      return {
        sessions: sessions.map((s) => ({
          id: s.id,
          clientId: s.clientId,
          current: s.id === principal.tokenId,
          createTime: s.createdAt.toISOString(),
          lastUseTime: s.lastUsedAt?.toISOString() ?? null,
          expireTime: s.expiresAt.toISOString(),
        })),
      };
    },
  );

  app.delete(
    '/v1/auth/sessions/:id',
    {
      config: { access: { kind: 'user' }, audit: 'session.revoke' },
      schema: {
        tags: ['AuthService'],
        summary: "Revokes one of the caller's sessions, and a device session's refresh token with it.",
        params: idParams,
        response: { 200: successResponse },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      if (principal.kind !== 'session') throw new Error('a user route without a session');
      await devices.revokeSession(principal.userId, request.params.id);
      return { success: true };
    },
  );
};
