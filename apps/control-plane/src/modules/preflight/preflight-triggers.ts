import type { FastifyInstance } from 'fastify';

import type { PreflightWorker } from './preflight.worker.js';

/**
 * Every successful change through the API may change what an organisation can sell (a node goes into
 * maintenance, a prefix fills up, a secret a cloud-init template names is deleted): the organisation it
 * was made in, or on, is re-evaluated. Changes are the routes that declare an audit action.
 */
export function installPreflightTriggers(
  app: FastifyInstance,
  worker: Pick<PreflightWorker, 'request'>,
): void {
  app.addHook('onResponse', (request, reply, done) => {
    if (request.routeOptions.config.audit !== undefined && reply.statusCode < 400) {
      const organizationId = request.auditTarget?.organizationId ?? request.tenant?.organizationId;
      if (organizationId !== undefined) worker.request(organizationId);
    }
    done();
  });
}
