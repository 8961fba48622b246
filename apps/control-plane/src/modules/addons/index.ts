export type { AddonPricingTerms } from './addon.repository.js';
export { addonPricing } from './addon.schemas.js';
export { AddonService } from './addon.service.js';
export { registerAddonModule } from './addon.module.js';
