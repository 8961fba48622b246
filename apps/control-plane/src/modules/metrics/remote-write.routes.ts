import { InvalidArgumentError } from '@noderings/domain';
import type { FastifyPluginCallback } from 'fastify';

import type { MetricsIngestService } from './metrics-ingest.service.js';

/** Remote-write 1.0's message; 2.0 (`io.prometheus.write.v2.Request`) is refused with 415 as the spec asks. */
const V1_PROTO = 'prometheus.WriteRequest';

/** Answered like Fastify's own 415 (see http/error-handler.ts). */
class UnsupportedMediaType extends Error {
  readonly statusCode = 415;
  readonly code = 'FST_ERR_CTP_INVALID_MEDIA_TYPE';
}

/**
 * `POST /api/v1/write`: Prometheus remote-write 1.0, as Alloy and Prometheus in agent mode send it (a
 * snappy block of a protobuf WriteRequest). Authenticated by a metrics write credential rather than a
 * session, so the route is public to the session layer and checks its own bearer token. Answers 204 like
 * Prometheus' receiver; 4xx answers are final for the sender, 5xx ones are retried.
 */
export const remoteWriteRoutes: FastifyPluginCallback<{
  ingest: MetricsIngestService;
  maxCompressedBytes: number;
}> = (app, { ingest, maxCompressedBytes }, done) => {
  // Encapsulated: only this plugin's routes read protobuf bodies.
  app.addContentTypeParser(
    'application/x-protobuf',
    { parseAs: 'buffer', bodyLimit: maxCompressedBytes },
    (_request, body, finish) => {
      finish(null, body);
    },
  );
  app.post(
    '/api/v1/write',
    { config: { access: { kind: 'public' } }, schema: { hide: true }, bodyLimit: maxCompressedBytes },
    async (request, reply) => {
      const proto = /;\s*proto=([^;\s]+)/.exec(request.headers['content-type'] ?? '')?.[1];
      // 2.0 senders fall back to 1.0 on a 415 (remote-write 2.0 spec).
      if (!Buffer.isBuffer(request.body) || (proto !== undefined && proto !== V1_PROTO))
        throw new UnsupportedMediaType();
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding !== 'snappy')
        throw new InvalidArgumentError(`Content-Encoding must be snappy, not ${encoding}.`);
      await ingest.write(request.headers.authorization, request.body);
      return reply.status(204).send();
    },
  );
  done();
};
