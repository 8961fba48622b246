import type { FastifyInstance } from 'fastify';

import type { AgentRepository } from '../agents/index.js';
import type { ModuleContext } from '../module.js';
import { PlatformRepository } from './platform.repository.js';
import { platformRoutes } from './platform.routes.js';
import { PlatformService } from './platform.service.js';

export async function registerPlatformModule(
  app: FastifyInstance,
  { db, now, agentRecords }: ModuleContext & { readonly agentRecords: AgentRepository },
): Promise<void> {
  await app.register(platformRoutes, {
    platforms: new PlatformService({ platforms: new PlatformRepository(db), agents: agentRecords, now }),
  });
}
