import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { OrganizationRepository } from './organization.repository.js';
import { organizationRoutes } from './organization.routes.js';
import { OrganizationService } from './organization.service.js';

export async function registerOrganizationModule(
  app: FastifyInstance,
  { db, now }: ModuleContext,
): Promise<{ readonly memberships: OrganizationRepository }> {
  const organizations = new OrganizationRepository(db);
  await app.register(organizationRoutes, {
    organizations: new OrganizationService({ organizations, now }),
  });
  return { memberships: organizations };
}
