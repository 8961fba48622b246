import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { CloudInitUserDataRepository } from './cloud-init-user-data.repository.js';
import { cloudInitUserDataRoutes } from './cloud-init-user-data.routes.js';
import { CloudInitUserDataService } from './cloud-init-user-data.service.js';

/** Customers' saved cloud-init user data, offered when they order a VM. */
export async function registerCloudInitUserDataModule(
  app: FastifyInstance,
  { db, now }: ModuleContext,
): Promise<{ readonly profiles: CloudInitUserDataService }> {
  const profiles = new CloudInitUserDataService({ profiles: new CloudInitUserDataRepository(db), now });
  await app.register(cloudInitUserDataRoutes, { profiles });
  return { profiles };
}
