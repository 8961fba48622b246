export { MarketplaceRepository } from './marketplace.repository.js';
export { registerMarketplaceModule } from './marketplace.module.js';
