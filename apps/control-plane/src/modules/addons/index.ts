export type { AddonPricingTerms } from './addon.repository.js';
export { AddonRepository } from './addon.repository.js';
export { addonRoutes } from './addon.routes.js';
export { addonPricing } from './addon.schemas.js';
export { AddonService } from './addon.service.js';
