export { VmBackupRepository } from './vm-backup.repository.js';
export { vmBackupRoutes } from './vm-backup.routes.js';
export { VmBackupService } from './vm-backup.service.js';
