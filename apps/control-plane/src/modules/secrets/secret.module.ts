import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { SecretRepository } from './secret.repository.js';
import { secretRoutes } from './secret.routes.js';
import { SecretService } from './secret.service.js';

export async function registerSecretModule(
  app: FastifyInstance,
  { db, now, secretBox }: ModuleContext,
): Promise<{ readonly secrets: SecretService }> {
  const secrets = new SecretService({ secrets: new SecretRepository(db), box: secretBox, now });
  await app.register(secretRoutes, { secrets });
  return { secrets };
}
