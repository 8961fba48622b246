import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { AddonRepository } from './addon.repository.js';
import { addonRoutes } from './addon.routes.js';
import { AddonService } from './addon.service.js';

export async function registerAddonModule(
  app: FastifyInstance,
  { db }: ModuleContext,
): Promise<{ readonly addons: AddonService }> {
  const addons = new AddonService({ addons: new AddonRepository(db) });
  await app.register(addonRoutes, { addons });
  return { addons };
}
