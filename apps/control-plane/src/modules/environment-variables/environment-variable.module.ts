import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { EnvironmentVariableRepository } from './environment-variable.repository.js';
import { environmentVariableRoutes } from './environment-variable.routes.js';
import { EnvironmentVariableService } from './environment-variable.service.js';

export async function registerEnvironmentVariableModule(
  app: FastifyInstance,
  { db, now }: ModuleContext,
): Promise<{ readonly variables: EnvironmentVariableService }> {
  const variables = new EnvironmentVariableService({ variables: new EnvironmentVariableRepository(db), now });
  await app.register(environmentVariableRoutes, { variables });
  return { variables };
}
