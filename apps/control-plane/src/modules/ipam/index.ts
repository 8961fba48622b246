export { AllocationRepository } from './allocation.repository.js';
export { IpAllocationService } from './allocation.service.js';
export {
  NetworkAvailabilityRepository,
  type NetworkFreeAddresses,
} from './network-availability.repository.js';
export { registerIpamModule } from './ipam.module.js';
