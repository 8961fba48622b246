export { RegionRepository } from './region.repository.js';
export { toRegionView } from './region.routes.js';
export type { Region } from './region.service.js';
export { registerRegionModule } from './region.module.js';
