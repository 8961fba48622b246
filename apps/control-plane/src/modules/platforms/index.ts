export { PlatformRepository } from './platform.repository.js';
export { platformRoutes } from './platform.routes.js';
export { PlatformService } from './platform.service.js';
