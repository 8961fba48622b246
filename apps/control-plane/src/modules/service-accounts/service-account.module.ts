import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { ServiceAccountRepository } from './service-account.repository.js';
import { serviceAccountRoutes } from './service-account.routes.js';
import { ServiceAccountService } from './service-account.service.js';

export async function registerServiceAccountModule(
  app: FastifyInstance,
  { db, now }: ModuleContext,
): Promise<void> {
  await app.register(serviceAccountRoutes, {
    accounts: new ServiceAccountService({ accounts: new ServiceAccountRepository(db), now }),
  });
}
