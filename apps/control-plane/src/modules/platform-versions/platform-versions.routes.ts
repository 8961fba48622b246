import { platformVersionsSchema } from '@noderings/domain';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';

import type { PublishedPlatformVersions } from './published-platform-versions.js';

/** Five minutes: a provider's CLI and any cache between may keep the pins that long. */
const CACHE_CONTROL = 'public, max-age=300';

export const platformVersionsRoutes: FastifyPluginCallbackZod<{
  published: PublishedPlatformVersions;
}> = (app, { published }, done) => {
  app.get(
    '/v1/platform-versions',
    {
      // Fetched by `nr cluster register` before it has any credential; it holds no secret.
      config: { access: { kind: 'public' } },
      schema: {
        tags: ['PlatformVersionService'],
        summary:
          'The version pins of what `nr cluster register` installs on an agent VM, each with its SHA-256. ' +
          'Cacheable: an ETag, and If-None-Match answers 304.',
        response: {
          200: platformVersionsSchema.meta({ id: 'PlatformVersions' }),
          304: z.null().describe('Not modified: the ETag given in If-None-Match is the current one.'),
        },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', CACHE_CONTROL).header('etag', published.etag);
      if (published.matches(request.headers['if-none-match'])) return reply.status(304).send(null);
      return reply.status(200).send(published.document);
    },
  );
  done();
};
