export { AllocationRepository } from './allocation.repository.js';
export { allocationRoutes } from './allocation.routes.js';
export { IpAllocationService } from './allocation.service.js';
export { NetworkRepository } from './network.repository.js';
export { networkRoutes } from './network.routes.js';
export { NetworkService } from './network.service.js';
export { PrefixRepository } from './prefix.repository.js';
export { prefixRoutes } from './prefix.routes.js';
export { PrefixService } from './prefix.service.js';
export {
  NetworkAvailabilityRepository,
  type NetworkFreeAddresses,
} from './network-availability.repository.js';
