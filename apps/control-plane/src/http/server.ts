import { randomUUID } from 'node:crypto';

import swagger from '@fastify/swagger';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
} from 'fastify-type-provider-zod';
import type { Logger } from 'pino';

import { apiErrorSchema } from './api-error.js';
import { installErrorHandler } from './error-handler.js';
import { trustedProxyListProblem } from './client-ip.js';
import { installHttpMetrics } from './http-metrics.js';
import type { RouteAccess } from './route-access.js';
import { installSecurityHeaders } from './security-headers.js';
import { storableTextValidatorCompiler } from './storable-text.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;
const BODY_LIMIT_BYTES = 1024 * 1024;
const MAX_PARAM_LENGTH = 256;

export interface ServerOptions {
  readonly logger: Logger;
  /**
   * The proxies (addresses, CIDR prefixes, `loopback`, `linklocal`, `uniquelocal`) whose
   * `X-Forwarded-For` and `X-Forwarded-Proto` are believed; none when empty. The client is the
   * right-most address of the chain that is not one of them.
   */
  readonly trustedProxies: readonly string[];
  readonly version: string;
  /** Answers /readyz: why the server is not ready yet (the database is unreachable, …), or undefined. */
  readonly notReady: () => Promise<string | undefined>;
}

/**
 * The Fastify instance with everything every route relies on: zod validation and serialisation, the
 * OpenAPI document, google.rpc errors, request ids, metrics and the health endpoints. Routes are added by
 * the modules; each must declare its access (checked here as routes are added).
 */
export async function createServer(options: ServerOptions): Promise<FastifyInstance> {
  const problem =
    options.trustedProxies.length === 0 ? undefined : trustedProxyListProblem(options.trustedProxies);
  if (problem !== undefined) throw new Error(`the trusted proxy list ${problem}`);
  const loggerInstance: FastifyBaseLogger = options.logger;
  const app = Fastify({
    loggerInstance,
    // proxy-addr walks X-Forwarded-For from the right and stops at the first address not listed here;
    // request.ip, request.protocol (HSTS) and every check that reads them use that one answer.
    trustProxy: options.trustedProxies.length === 0 ? false : [...options.trustedProxies],
    bodyLimit: BODY_LIMIT_BYTES,
    requestIdHeader: 'x-request-id',
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    // Path parameters up to a full host name (253 characters: fleet cluster hosts).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  });
  app.setValidatorCompiler(storableTextValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRoute', (route) => {
    if (route.config?.access === undefined) {
      throw new Error(`route ${route.method.toString()} ${route.url} declares no access`);
    }
    const mutating = route.method !== 'GET' && route.method !== 'HEAD';
    if (mutating && route.config.audit === undefined && route.config.access.kind !== 'public') {
      throw new Error(`mutating route ${route.method.toString()} ${route.url} declares no audit action`);
    }
    if (route.schema !== undefined && route.schema.hide !== true) {
      // Every documented route can fail the same way: google.rpc.Status.
      const responses = (route.schema.response ?? {}) as Record<string, unknown>;
      route.schema.response = { ...responses, '4xx': apiErrorSchema, '5xx': apiErrorSchema };
    }
  });
  installSecurityHeaders(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandler(app);
  const metrics = installHttpMetrics(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'NodeRings control plane API',
        version: options.version,
        description:
          'Paths and fields follow the NodeRings v1 API. Errors are google.rpc.Status objects; pages are 0-based.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer' },
          organization: { type: 'apiKey', in: 'header', name: 'X-Organization-ID' },
        },
      },
      security: [{ bearer: [], organization: [] }],
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      // Fastify's regex parameters (`:id(^[^:/]+)::verb`) read as `{id}:verb` in the document; a literal
      // colon after a fixed segment (`/v1/plans::calculate`) is left for @fastify/swagger, which unescapes it.
      const url = transformed.url.replace(/\(\^\[\^:\/\]\+\)/g, '').replace(/(:\w+)::/g, '$1:');
      const access: RouteAccess | undefined = input.route.config?.access;
      // The access rule is published so clients (and the security tests) know who may call what.
      const schema = { ...transformed.schema, 'x-noderings-access': access };
      return { url, schema: access?.kind === 'public' ? { ...schema, security: [] } : schema };
    },
    transformObject: jsonSchemaTransformObject,
  });

  app.get('/openapi.json', { config: { access: { kind: 'public' } }, schema: { hide: true } }, () =>
    app.swagger(),
  );
  app.get('/healthz', { config: { access: { kind: 'public' } }, schema: { hide: true } }, () => ({
    status: 'ok',
  }));
  app.get(
    '/readyz',
    { config: { access: { kind: 'public' } }, schema: { hide: true } },
    async (_request, reply) => {
      const reason = await options.notReady().catch(() => 'database unavailable');
      return reply.status(reason === undefined ? 200 : 503).send({ status: reason ?? 'ready' });
    },
  );
  app.get(
    '/metrics',
    { config: { access: { kind: 'public' } }, schema: { hide: true } },
    async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()),
  );
  return app;
}
