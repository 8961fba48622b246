import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { RegionRepository } from './region.repository.js';
import { regionRoutes } from './region.routes.js';
import { RegionService } from './region.service.js';

export async function registerRegionModule(
  app: FastifyInstance,
  { db }: ModuleContext,
): Promise<{ readonly regions: RegionRepository }> {
  const regions = new RegionRepository(db);
  await app.register(regionRoutes, { regions: new RegionService({ regions }) });
  return { regions };
}
