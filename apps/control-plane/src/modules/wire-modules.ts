import type { FastifyInstance } from 'fastify';

import type { PasswordHasher } from '../crypto/password-hasher.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Db } from '../db/database.js';
import { installAuthentication } from '../http/authentication.js';
import { AuditRepository, auditRoutes, installAuditTrail } from './audit/index.js';
import { AuthRepository, authRoutes, AuthService } from './auth/index.js';
import { OrganizationRepository, organizationRoutes, OrganizationService } from './organizations/index.js';
import { RegionRepository, regionRoutes, RegionService } from './regions/index.js';

export interface ModuleSettings {
  readonly db: Db;
  readonly secretBox: SecretBox;
  readonly passwords: PasswordHasher;
  readonly now: () => Date;
  readonly sessionTtlMs: number;
}

export interface Services {
  readonly auth: AuthService;
}

/** Builds every module's repositories and services and registers their routes: the one place they meet. */
export async function wireModules(app: FastifyInstance, settings: ModuleSettings): Promise<Services> {
  const { db, now } = settings;
  const authRepository = new AuthRepository(db);
  const organizationRepository = new OrganizationRepository(db);
  installAuthentication(app, { credentials: authRepository, memberships: organizationRepository, now });
  installAuditTrail(app, new AuditRepository(db));

  const auth = new AuthService({
    auth: authRepository,
    memberships: organizationRepository,
    passwords: settings.passwords,
    sessionTtlMs: settings.sessionTtlMs,
    now,
  });
  await app.register(authRoutes, { auth });
  await app.register(organizationRoutes, {
    organizations: new OrganizationService({
      organizations: organizationRepository,
      users: authRepository,
      now,
    }),
  });
  await app.register(auditRoutes, { audit: new AuditRepository(db) });
  await app.register(regionRoutes, { regions: new RegionService({ regions: new RegionRepository(db) }) });
  return { auth };
}
