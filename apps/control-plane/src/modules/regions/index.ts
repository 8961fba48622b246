export { RegionRepository } from './region.repository.js';
export { regionRoutes, toRegionView } from './region.routes.js';
export type { Region } from './region.service.js';
export { RegionService } from './region.service.js';
