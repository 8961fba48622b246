import type { FastifyInstance } from 'fastify';

/** A year, including subdomains: what browsers' preload lists ask for; sent only over TLS (RFC 6797 §7.2). */
const STRICT_TRANSPORT_SECURITY = 'max-age=31536000; includeSubDomains';
/** API answers are data, never a page: nothing in them may load, run or be framed. */
const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * Headers on every answer (API, health, errors, the dashboard's files), set when the request arrives so
 * that a route may replace one (the dashboard sends its own Content-Security-Policy and Referrer-Policy).
 * HSTS goes only on answers to requests that came over TLS, directly or as a trusted proxy's
 * `X-Forwarded-Proto` says (request.protocol never believes the header from anyone else).
 */
export function installSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'no-referrer');
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', API_CONTENT_SECURITY_POLICY);
    if (request.protocol === 'https') reply.header('strict-transport-security', STRICT_TRANSPORT_SECURITY);
  });
}
