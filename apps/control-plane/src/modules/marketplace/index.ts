export { MarketplaceRepository } from './marketplace.repository.js';
export { marketplaceRoutes } from './marketplace.routes.js';
export { MarketplaceService } from './marketplace.service.js';
