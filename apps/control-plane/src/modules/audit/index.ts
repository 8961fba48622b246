export { AuditRepository } from './audit.repository.js';
export { auditRoutes } from './audit.routes.js';
export { installAuditTrail } from './audit-trail.js';
export { installCrossTenantAudit } from './cross-tenant-audit.js';
