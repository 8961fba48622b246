import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { DeviceAuthorizationRepository } from './device-authorization.repository.js';
import { deviceAuthorizationRoutes } from './device-authorization.routes.js';
import { DeviceAuthorizationService } from './device-authorization.service.js';

/** Device sign-in (RFC 8628) for `nr` on a headless machine, refresh tokens, and the user's sessions. */
export async function registerDeviceAuthorizationModule(
  app: FastifyInstance,
  { db, now }: ModuleContext,
): Promise<void> {
  const devices = new DeviceAuthorizationService({ requests: new DeviceAuthorizationRepository(db), now });
  await app.register(deviceAuthorizationRoutes, { devices });
}
