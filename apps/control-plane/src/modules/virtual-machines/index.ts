export { BackupPolicyRepository } from './backup-policy.repository.js';
export { backupPolicyRoutes } from './backup-policy.routes.js';
export { VmBackupPolicyService } from './backup-policy.service.js';
export { VirtualMachineRepository } from './virtual-machine.repository.js';
export { virtualMachineRoutes } from './virtual-machine.routes.js';
export { cloudInitAssociatedData, VirtualMachineService } from './virtual-machine.service.js';
