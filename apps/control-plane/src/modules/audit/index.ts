export { registerAuditModule } from './audit.module.js';
