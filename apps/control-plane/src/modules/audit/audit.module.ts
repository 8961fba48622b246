import type { FastifyInstance } from 'fastify';

import type { ModuleContext } from '../module.js';
import { AuditRepository } from './audit.repository.js';
import { auditRoutes } from './audit.routes.js';
import { installAuditTrail } from './audit-trail.js';
import { installCrossTenantAudit } from './cross-tenant-audit.js';

/** The audit log: every mutating call and every cross-tenant attempt is written; admins read it. */
export async function registerAuditModule(app: FastifyInstance, { db }: ModuleContext): Promise<void> {
  const audit = new AuditRepository(db);
  installAuditTrail(app, audit);
  installCrossTenantAudit(app, audit);
  await app.register(auditRoutes, { audit });
}
