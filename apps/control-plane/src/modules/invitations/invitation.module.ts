import type { FastifyInstance } from 'fastify';

import type { AuthRepository } from '../auth/index.js';
import type { ModuleContext } from '../module.js';
import type { OrganizationRepository } from '../organizations/index.js';
import { InvitationRepository } from './invitation.repository.js';
import { invitationRoutes } from './invitation.routes.js';
import { InvitationService } from './invitation.service.js';

export async function registerInvitationModule(
  app: FastifyInstance,
  deps: ModuleContext & { readonly users: AuthRepository; readonly memberships: OrganizationRepository },
): Promise<void> {
  const { db, now, users, memberships } = deps;
  await app.register(invitationRoutes, {
    invitations: new InvitationService({
      invitations: new InvitationRepository(db),
      users,
      memberships,
      now,
    }),
    now,
  });
}
