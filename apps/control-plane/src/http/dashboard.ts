import { stat } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';

import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';

import { apiErrorBody } from './api-error.js';

/** Paths that belong to the API: never answered with the dashboard, even when nothing matches. */
const API_PATH = /^\/(v1|api)(\/|$)|^\/(openapi\.json|healthz|readyz|metrics)$/;
/** Vite names built assets (under /assets/) by content hash: they never change under one name. */
const HASHED_ASSETS = '/assets/';
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The dashboard's own scripts and styles only; uPlot sets inline styles, and the API is same-origin. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/**
 * Serves the built dashboard (`apps/dashboard/dist`) from `/`: a file when the path names one, else
 * `index.html`, so that the dashboard's own routes (`/provider/plans`) load on a refresh. API paths
 * keep answering google.rpc errors. One wildcard route, public (the dashboard signs in through the API).
 */
export async function serveDashboard(app: FastifyInstance, root: string): Promise<void> {
  await app.register(fastifyStatic, { root, serve: false });
  app.get(
    '/*',
    { config: { access: { kind: 'public' } }, schema: { hide: true } },
    async (request, reply) => {
      let path: string;
      try {
        path = decodeURIComponent(request.url.split('?')[0] ?? '/');
      } catch {
        return reply
          .status(400)
          .send(apiErrorBody('INVALID_ARGUMENT', 'The path is not valid percent-encoding.'));
      }
      if (API_PATH.test(path))
        return reply.status(404).send(apiErrorBody('NOT_FOUND', `No route for GET ${path}.`));
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      reply.header('x-content-type-options', 'nosniff');
      reply.header('referrer-policy', 'same-origin');
      const file = normalize(join(root, path));
      if (path !== '/' && file.startsWith(root + sep) && (await isFile(file))) {
        reply.header('cache-control', path.startsWith(HASHED_ASSETS) ? IMMUTABLE : 'no-cache');
        return reply.sendFile(file.slice(root.length + 1), { cacheControl: false });
      }
      reply.header('cache-control', 'no-cache');
      return reply.type('text/html; charset=utf-8').sendFile('index.html', { cacheControl: false });
    },
  );
}
