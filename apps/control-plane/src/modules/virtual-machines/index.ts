export { VirtualMachineRepository } from './virtual-machine.repository.js';
export { cloudInitAssociatedData, VirtualMachineService } from './virtual-machine.service.js';
export { registerVirtualMachineModule } from './virtual-machine.module.js';
export { bumpVmGenerations } from './vm-generations.js';
