export { VirtualMachineRepository } from './virtual-machine.repository.js';
export { virtualMachineRoutes } from './virtual-machine.routes.js';
export { cloudInitAssociatedData, VirtualMachineService } from './virtual-machine.service.js';
