export { registerVmBackupModule } from './vm-backup.module.js';
